"""The guide as one readable HTML page per language, rendered on the server from the corpus.

Every section carries its contract id as an `id=` anchor, so a citation's URL (`/guide/en#gpu-sharing`)
scrolls to its section, and CSS `:target` highlights it. All corpus text is escaped.
"""

from __future__ import annotations

from html import escape
from itertools import groupby

from api.policies import csp, sha256_source
from assistant.corpus import Block, GuideText, Section

LANGUAGE_NAMES = {"en": "English", "nl": "Nederlands"}
WIDGET_TAG = '<script src="/widget.js" data-api="" defer></script>'

_STYLE = """
:root { color-scheme: light dark; --accent: #2f6fde; --mark: rgba(47, 111, 222, .14); }
body { font: 17px/1.6 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 46rem;
       padding: 1.5rem 1.25rem 4rem; }
header { display: flex; justify-content: space-between; align-items: baseline; gap: 1rem; }
nav.toc ol { padding-left: 1.2rem; }
a { color: var(--accent); }
h1 { line-height: 1.25; }
h2, h3 { line-height: 1.3; margin-top: 2rem; }
section { scroll-margin-top: 1rem; border-radius: .5rem; padding: .1rem .75rem; margin: 0 -.75rem; }
section:target { background: var(--mark); outline: 2px solid var(--accent); animation: arrive 1.6s ease-out; }
@keyframes arrive { from { outline-color: transparent; background: rgba(47, 111, 222, .35); } }
"""

# The page's own inline style by its hash, the widget's script and its API on this origin, nothing else. The
# widget needs no style source: its styles are a constructed stylesheet in its shadow root.
PAGE_POLICY = csp(
    script_src="'self'",
    connect_src="'self'",
    style_src=sha256_source(_STYLE),
    base_uri="'none'",
    form_action="'none'",
    require_trusted_types_for="'script'",
    trusted_types="'none'",
)


def _blocks(blocks: tuple[Block, ...]) -> str:
    """Paragraphs as <p>; bullet items in a row form one list."""
    parts = []
    for bullet, run in groupby(blocks, key=lambda block: block.bullet):
        if bullet:
            parts.append("<ul>" + "".join(f"<li>{escape(block.text)}</li>" for block in run) + "</ul>")
        else:
            parts.extend(f"<p>{escape(block.text)}</p>" for block in run)
    return "\n".join(parts)


def _section(section: Section, level: int) -> str:
    return (
        f'<section id="{escape(section.id)}">\n<h{level}>{escape(section.title)}</h{level}>\n'
        f"{_blocks(section.blocks)}\n</section>"
    )


def render(guide: GuideText, *, widget: bool = False) -> str:
    """The whole page; the first section is the guide's title, FAQ entries sit a level below the rest."""
    language = guide.language
    title, *sections = guide.sections
    other = next(code for code in LANGUAGE_NAMES if code != language)
    toc = "".join(
        f'<li><a href="#{escape(section.id)}">{escape(section.title)}</a></li>'
        for section in sections
        if section.blocks
    )
    body = "\n".join(_section(section, 3 if section.kind == "faq" else 2) for section in sections)
    return f"""<!doctype html>
<html lang="{language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title.title)}</title>
<style>{_STYLE}</style>
</head>
<body>
<header>
<h1 id="{escape(title.id)}">{escape(title.title)}</h1>
<a href="/guide/{other}" hreflang="{other}" lang="{other}">{LANGUAGE_NAMES[other]}</a>
</header>
{_blocks(title.blocks)}
<nav class="toc"><ol>{toc}</ol></nav>
<main>
{body}
</main>
{WIDGET_TAG if widget else ""}
</body>
</html>
"""

"""Inline SVG bar charts, so report.html needs no script or stylesheet from anywhere."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#edc948", "#9c755f")
_BAR, _GAP, _GROUP_GAP = 14, 2, 28
_LEFT, _TOP, _PLOT, _LABELS = 44, 34, 180, 40
_CHAR = 6.5  # rough width of one 11px character, to lay out the legend


def grouped_bars(
    title: str,
    groups: Mapping[str, Mapping[str, float | None]],
    series: Sequence[str],
    names: Mapping[str, str],
) -> str:
    """One group of bars per key of `groups`, one bar per series, values between 0 and 1."""
    group_width = len(series) * (_BAR + _GAP) - _GAP
    width = max(_LEFT + len(groups) * (group_width + _GROUP_GAP) + 10, 360)
    legend_y = _TOP + _PLOT + _LABELS
    items, x, row = [], _LEFT, 0
    for index, name in enumerate(series):
        text = names.get(name, name)
        step = 16 + len(text) * _CHAR + 14
        if x + step > width:
            x, row = _LEFT, row + 1
        y = legend_y + row * 18
        items.append(
            f'<rect x="{x}" y="{y}" width="10" height="10" fill="{PALETTE[index % len(PALETTE)]}"/>'
            f'<text x="{x + 14}" y="{y + 9}">{escape(text)}</text>'
        )
        x += step
    height = legend_y + (row + 1) * 18 + 6

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width:.0f}" height="{height}" '
        f'viewBox="0 0 {width:.0f} {height}" role="img" aria-label="{escape(title)}" '
        'font-family="sans-serif" font-size="11">',
        f'<text x="{_LEFT}" y="18" font-size="13" font-weight="bold">{escape(title)}</text>',
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = _TOP + _PLOT * (1 - tick)
        parts.append(
            f'<line x1="{_LEFT}" x2="{width - 10:.0f}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>'
            f'<text x="{_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{tick:.2f}</text>'
        )
    for group_index, (group, values) in enumerate(groups.items()):
        left = _LEFT + _GROUP_GAP / 2 + group_index * (group_width + _GROUP_GAP)
        for index, name in enumerate(series):
            value = values.get(name)
            if value is None:
                continue
            bar_height = _PLOT * max(0.0, min(1.0, value))
            parts.append(
                f'<rect class="bar" x="{left + index * (_BAR + _GAP):.1f}" y="{_TOP + _PLOT - bar_height:.1f}" '
                f'width="{_BAR}" height="{bar_height:.1f}" fill="{PALETTE[index % len(PALETTE)]}">'
                f"<title>{escape(group)}: {escape(names.get(name, name))} {value:.2f}</title></rect>"
            )
        parts.append(
            f'<text x="{left + group_width / 2:.1f}" y="{_TOP + _PLOT + 16}" text-anchor="middle">'
            f"{escape(group)}</text>"
        )
    parts += items
    parts.append("</svg>")
    return "".join(parts)

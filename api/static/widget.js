/*
 * Chat widget of the GPU Kubernetes guide assistant.
 *
 *   <script src="https://HOST/widget.js" data-api="https://HOST" defer></script>
 *
 * Optional attributes: data-lang="en|nl" (default: <html lang>), data-timeout="MS" (default 25000).
 * No dependencies and no build step. Everything lives in a shadow root, so the host page's CSS cannot
 * reach the widget and the widget's CSS cannot leak out. Server text is only ever inserted with
 * textContent / createElement (never innerHTML), and styles come from a constructed stylesheet, so the
 * widget runs under a strict Content-Security-Policy (see docs/widget.md).
 */
(function () {
  "use strict";

  // document.currentScript is only set while this file first runs: read it before anything async.
  var SCRIPT = document.currentScript;
  if (window.__gpuK8sAssistantWidget) return; // embedded twice: keep one widget
  window.__gpuK8sAssistantWidget = true;

  var MAX_HISTORY_TURNS = 20; // the API's limits (api/schemas.py)
  var MAX_TURN_CHARS = 4000;
  var MAX_QUESTION_CHARS = 2000;
  var TABLE_ROWS = 5; // provider rows shown before "show all"
  var NS_SVG = "http://www.w3.org/2000/svg";

  var STRINGS = {
    en: {
      open: "Ask the guide",
      title: "GPU & Kubernetes guide",
      subtitle: "Cited answers from the guide",
      close: "Close chat",
      newChat: "New chat",
      log: "Conversation",
      placeholder: "Ask a question…",
      question: "Your question",
      send: "Send",
      you: "You:",
      bot: "Assistant:",
      thinking: "Looking it up…",
      startersLabel: "Try one of these",
      starters: [
        "What does Kubernetes support mean for rented GPUs?",
        "Can I share one GPU between pods?",
        "Which providers offer managed Kubernetes with InfiniBand?",
      ],
      source: "source",
      tapAgain: "Tap again to open it.",
      opensGuide: "Opens the guide at this section in a new tab.",
      opensSource: "Opens the source in a new tab.",
      original: "Dutch original:",
      up: "Helpful",
      down: "Not helpful",
      thanks: "Thanks for your feedback.",
      feedbackFailed: "Your feedback could not be sent.",
      announce: "New answer: ",
      unreachable: "The assistant cannot be reached right now. Check your connection, or try again in a moment.",
      slow: "The assistant is taking too long to answer. Please try again.",
      rate: "Too many questions in a short time. Try again {when}.",
      loading: "The assistant is starting up. Try again {when}.",
      inSeconds: "in {s} seconds",
      soon: "in a moment",
      rejected: "This question could not be sent: {d}",
      key: "This site's access to the assistant is not set up correctly.",
      failed: "Something went wrong on the server. Please try again.",
      interrupted: "The last answer was interrupted.",
      retry: "Try again",
      requestId: "Request id: ",
      provider: "Provider",
      kubernetes: "K8s",
      kubernetesLong: "Kubernetes: managed, or GPU machines for your own cluster",
      sharing: "Sharing",
      ib: "IB",
      ibLong: "InfiniBand or RDMA between nodes",
      spot: "Spot",
      price: "$/GPU-h",
      priceLong: "Lowest listed on-demand price per GPU-hour, with its GPU and as-of date",
      managed: "managed",
      own: "own cluster",
      yes: "yes",
      no: "no",
      unknown: "unknown",
      noPrice: "not listed",
      asOf: "as of {d}",
      stale: "stale",
      staleTitle: "This price is older than the service's freshness limit: check the source.",
      matches: "{n} matching providers",
      match: "1 matching provider",
      undecided: "{n} more where the sources leave a criterion open",
      all: "All matches",
      showAll: "Show all {n}",
      tableCaption: "Providers matching the question",
    },
    nl: {
      open: "Vraag het de gids",
      title: "Gids GPU & Kubernetes",
      subtitle: "Antwoorden met bronnen uit de gids",
      close: "Chat sluiten",
      newChat: "Nieuw gesprek",
      log: "Gesprek",
      placeholder: "Stel een vraag…",
      question: "Uw vraag",
      send: "Versturen",
      you: "U:",
      bot: "Assistent:",
      thinking: "Even opzoeken…",
      startersLabel: "Probeer een van deze vragen",
      starters: [
        "Wat betekent Kubernetes-ondersteuning voor gehuurde GPU's?",
        "Kan ik één GPU delen tussen pods?",
        "Welke providers bieden beheerde Kubernetes met InfiniBand?",
      ],
      source: "bron",
      tapAgain: "Tik nogmaals om te openen.",
      opensGuide: "Opent de gids bij deze sectie in een nieuw tabblad.",
      opensSource: "Opent de bron in een nieuw tabblad.",
      original: "Nederlands origineel:",
      up: "Nuttig",
      down: "Niet nuttig",
      thanks: "Bedankt voor uw feedback.",
      feedbackFailed: "Uw feedback kon niet worden verstuurd.",
      announce: "Nieuw antwoord: ",
      unreachable: "De assistent is nu niet bereikbaar. Controleer uw verbinding of probeer het zo opnieuw.",
      slow: "De assistent doet er te lang over. Probeer het opnieuw.",
      rate: "Te veel vragen in korte tijd. Probeer het {when} opnieuw.",
      loading: "De assistent start op. Probeer het {when} opnieuw.",
      inSeconds: "over {s} seconden",
      soon: "zo meteen",
      rejected: "Deze vraag kon niet worden verstuurd: {d}",
      key: "De toegang van deze site tot de assistent is niet goed ingesteld.",
      failed: "Er ging iets mis op de server. Probeer het opnieuw.",
      interrupted: "Het laatste antwoord is onderbroken.",
      retry: "Opnieuw proberen",
      requestId: "Verzoek-id: ",
      provider: "Provider",
      kubernetes: "K8s",
      kubernetesLong: "Kubernetes: beheerd, of GPU-machines voor uw eigen cluster",
      sharing: "Deling",
      ib: "IB",
      ibLong: "InfiniBand of RDMA tussen nodes",
      spot: "Spot",
      price: "$/GPU-uur",
      priceLong: "Laagste vermelde on-demandprijs per GPU-uur, met GPU en peildatum",
      managed: "beheerd",
      own: "eigen cluster",
      yes: "ja",
      no: "nee",
      unknown: "onbekend",
      noPrice: "niet vermeld",
      asOf: "per {d}",
      stale: "verouderd",
      staleTitle: "Deze prijs is ouder dan de versheidsgrens van de dienst: controleer de bron.",
      matches: "{n} passende providers",
      match: "1 passende provider",
      undecided: "nog {n} waarvan de bronnen een criterium openlaten",
      all: "Alle resultaten",
      showAll: "Toon alle {n}",
      tableCaption: "Providers die bij de vraag passen",
    },
  };

  var SHARING_NAMES = { time_slicing: "time-slicing", mig: "MIG", mps: "MPS" };
  // The provider table's columns, as keys of STRINGS; a "<key>Long" string is the header's tooltip.
  var COLUMNS = ["provider", "kubernetes", "sharing", "ib", "spot", "price"];

  var ICONS = {
    chat: "M4 5h16v11H10l-5 4v-4H4z",
    close: "M6 6l12 12M18 6L6 18",
    plus: "M12 5v14M5 12h14",
    send: "M12 19V6M6 11l6-6 6 6",
    yes: "M5 12.5l4.5 4.5L19 7.5",
    no: "M7 7l10 10M17 7L7 17",
    thumb: "M7 11v9H4v-9zM7 11l4-8c1.7 0 2.8 1.1 2.8 2.8V9h4.7a2 2 0 0 1 2 2.4l-1.3 6.8a2 2 0 0 1-2 1.8H7",
  };

  var CSS = [
    // !important from inside the shadow tree beats even the page's !important rules on the host element.
    ":host{all:initial !important}",
    ".root{--bg:#fff;--fg:#1a1d21;--muted:#545d68;--line:#c9d1da;--soft:#eef1f5;--accent:#1c5fcf;",
    "--accent-fg:#fff;--link:#174ea6;--user:#1c5fcf;--user-fg:#fff;--err-bg:#fdecea;--err-fg:#8b1a10;",
    "--warn-bg:#fff4d6;--warn-fg:#6b4500;--ok:#17753a;--focus:#1c5fcf;--shadow:0 12px 40px rgba(15,25,40,.22);",
    "font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:var(--fg);",
    "-webkit-text-size-adjust:100%}",
    "@media (prefers-color-scheme:dark){.root{--bg:#17191d;--fg:#e9ecf0;--muted:#a9b2bd;--line:#3b424c;",
    "--soft:#23272e;--accent:#2f6fdb;--link:#8ab4ff;--user:#2f63c4;--err-bg:#3a1d1b;--err-fg:#ffb4a9;",
    "--warn-bg:#3b3016;--warn-fg:#ffd98a;--ok:#6fd48f;--focus:#8ab4ff;--shadow:0 12px 40px rgba(0,0,0,.6)}}",
    "*,*::before,*::after{box-sizing:border-box}",
    "button,textarea{font:inherit;color:inherit}",
    "button{cursor:pointer}",
    ":focus-visible{outline:3px solid var(--focus);outline-offset:2px}",
    ".sr{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);",
    "white-space:nowrap;border:0}",
    "svg{width:20px;height:20px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;",
    "stroke-linejoin:round;flex:none}",
    ".launcher{position:fixed;right:20px;bottom:20px;z-index:2147483000;display:flex;align-items:center;",
    "gap:8px;border:0;border-radius:999px;padding:12px 18px;background:var(--accent);color:var(--accent-fg);",
    "font-weight:600;box-shadow:var(--shadow)}",
    ".launcher:hover{filter:brightness(1.08)}",
    ".panel{position:fixed;right:20px;bottom:84px;z-index:2147483001;display:flex;flex-direction:column;",
    "width:420px;max-width:calc(100vw - 40px);height:min(640px,calc(100vh - 110px));background:var(--bg);",
    "border:1px solid var(--line);border-radius:14px;box-shadow:var(--shadow);overflow:hidden}",
    ".panel[hidden]{display:none}",
    "header{display:flex;align-items:center;gap:6px;padding:10px 10px 10px 16px;",
    "border-bottom:1px solid var(--line)}",
    "header .titles{flex:1;min-width:0}",
    "h2{margin:0;font-size:16px;line-height:1.3}",
    "header p{margin:0;font-size:12.5px;color:var(--muted)}",
    ".icon{display:inline-flex;align-items:center;justify-content:center;gap:4px;min-width:36px;",
    "height:36px;padding:0 8px;border:1px solid transparent;border-radius:8px;background:none}",
    ".icon:hover{background:var(--soft)}",
    ".newchat{font-size:13px;border-color:var(--line)}",
    ".log{position:relative;flex:1;overflow-y:auto;margin:0;padding:14px 14px 4px;list-style:none}",
    ".msg{margin:0 0 12px;display:flex;flex-direction:column}",
    ".bubble{padding:9px 12px;border-radius:12px;white-space:pre-wrap;overflow-wrap:anywhere;max-width:100%}",
    ".user{align-items:flex-end}",
    ".user .bubble{background:var(--user);color:var(--user-fg);border-bottom-right-radius:4px;",
    "max-width:85%}",
    ".bot .bubble{background:var(--soft);border-bottom-left-radius:4px}",
    ".cite{display:inline;margin:0 1px;padding:0 5px;white-space:nowrap;border-radius:5px;",
    "font-size:12px;font-weight:700;line-height:1.5;text-align:center;text-decoration:none;",
    "vertical-align:1px;color:var(--link);background:var(--bg);border:1px solid var(--line)}",
    ".cite:hover{text-decoration:underline}",
    ".tip{position:fixed;z-index:2147483002;width:max-content;max-width:min(320px,calc(100vw - 16px));",
    "padding:10px 12px;border-radius:10px;background:var(--bg);color:var(--fg);border:1px solid var(--line);",
    "box-shadow:var(--shadow);font-size:13.5px;line-height:1.45;white-space:normal}",
    ".tip[hidden]{display:none}",
    ".tip strong{display:block;margin-bottom:4px}",
    ".tip .quote{margin:0;padding-left:8px;border-left:3px solid var(--accent)}",
    ".tip .orig,.tip .hint{margin:6px 0 0;color:var(--muted);font-size:12.5px}",
    ".dots{display:inline-flex;gap:4px;padding:4px 0}",
    ".dots i{width:7px;height:7px;border-radius:50%;background:var(--muted);animation:pulse 1.2s infinite}",
    ".dots i:nth-child(2){animation-delay:.2s}.dots i:nth-child(3){animation-delay:.4s}",
    "@keyframes pulse{0%,80%,100%{opacity:.25}40%{opacity:1}}",
    ".tools{display:flex;align-items:center;gap:4px;margin-top:4px;color:var(--muted);font-size:12.5px}",
    ".tools .icon{min-width:32px;height:32px;padding:0;color:var(--muted)}",
    ".tools .icon[aria-pressed=true]{color:var(--accent-fg);background:var(--accent)}",
    ".down svg{transform:rotate(180deg)}",
    ".providers{margin-top:8px;font-size:12.5px;line-height:1.4}",
    ".providers .sum{margin:0 0 4px;color:var(--muted)}",
    ".providers a,.tip a,.bubble a:not(.cite){color:var(--link)}",
    ".scroll{overflow-x:auto;border:1px solid var(--line);border-radius:8px}",
    "table{border-collapse:collapse;width:100%;background:var(--bg)}",
    "caption{text-align:left}",
    "th,td{padding:5px;text-align:left;vertical-align:top;border-bottom:1px solid var(--line)}",
    "tbody tr:last-child td{border-bottom:0}",
    "th{font-size:12px;font-weight:600;color:var(--muted);white-space:nowrap}",
    "abbr{text-decoration:none;cursor:help}",
    "td.name{font-weight:600;min-width:6.5em}",
    ".nowrap{white-space:nowrap}",
    ".tri svg{width:16px;height:16px;vertical-align:-3px}.tri.yes{color:var(--ok)}",
    ".tri.no,.tri.unknown{color:var(--muted)}.tri.unknown{font-weight:700;padding-left:4px}",
    ".price small{display:block;color:var(--muted);white-space:nowrap}",
    ".stale{display:inline-block;margin-left:4px;padding:0 5px;border-radius:4px;font-size:11px;",
    "font-weight:700;background:var(--warn-bg);color:var(--warn-fg)}",
    ".more{margin-top:6px;padding:4px 10px;border:1px solid var(--line);border-radius:6px;background:none;",
    "font-size:12.5px}",
    ".notice{padding:9px 12px;border-radius:10px;background:var(--err-bg);color:var(--err-fg)}",
    ".notice button{margin-top:6px;padding:4px 10px;border:1px solid currentColor;border-radius:6px;",
    "background:none}",
    ".notice small{display:block;margin-top:4px;opacity:.9}",
    ".starters{margin:0;padding:4px 0;list-style:none}",
    ".starters p{margin:0 0 8px;color:var(--muted);font-size:13px}",
    ".starters button{display:block;width:100%;margin:0 0 8px;padding:9px 12px;text-align:left;",
    "border:1px solid var(--line);border-radius:10px;background:var(--bg)}",
    ".starters button:hover{background:var(--soft)}",
    "form{display:flex;align-items:flex-end;gap:8px;padding:10px;border-top:1px solid var(--line)}",
    "textarea{flex:1;min-height:42px;max-height:140px;resize:none;padding:9px 11px;border:1px solid var(--line);",
    "border-radius:10px;background:var(--bg);line-height:1.4}",
    "textarea::placeholder{color:var(--muted);opacity:1}",
    ".send{width:42px;height:42px;border:0;border-radius:10px;background:var(--accent);color:var(--accent-fg);",
    "display:inline-flex;align-items:center;justify-content:center}",
    ".send:disabled{opacity:.55;cursor:default}",
    "@media (max-width:520px){.panel{inset:0;width:100%;max-width:none;height:100%;border:0;",
    "border-radius:0}.root.opened .launcher{display:none}textarea{font-size:16px}",
    ".newchat .label{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}",
    ".log{padding:10px 10px 4px}.providers{font-size:12px}th,td{padding:4px}}",
    "@media (prefers-reduced-motion:reduce){.dots i{animation:none;opacity:.7}}",
  ].join("\n");

  // ---------------------------------------------------------------- configuration and state

  function apiBase() {
    // data-api="" (the home page's own tag) means "where this script came from".
    var attr = SCRIPT && SCRIPT.getAttribute("data-api");
    var base = attr
      ? new URL(attr, document.baseURI).href
      : SCRIPT && SCRIPT.src
        ? new URL(SCRIPT.src).origin
        : location.origin;
    return base.replace(/\/+$/, "");
  }

  function pageLanguage() {
    var wanted = (SCRIPT && SCRIPT.getAttribute("data-lang")) || document.documentElement.lang || "en";
    return wanted.toLowerCase().slice(0, 2) === "nl" ? "nl" : "en";
  }

  var API = apiBase();
  var LANG = pageLanguage();
  var T = STRINGS[LANG];
  var TIMEOUT_MS = Number(SCRIPT && SCRIPT.getAttribute("data-timeout")) || 25000;
  var STORE_KEY = "gpu-k8s-assistant:" + API;

  var state = { messages: [], open: false };
  var busy = null; // the AbortController of the request in flight
  var ui = {};
  var uid = 0;

  function load() {
    try {
      var saved = JSON.parse(sessionStorage.getItem(STORE_KEY) || "null");
      if (saved && Array.isArray(saved.messages)) state = { messages: saved.messages, open: !!saved.open };
    } catch (e) {
      /* storage blocked or corrupt: start empty */
    }
  }

  function save() {
    try {
      sessionStorage.setItem(STORE_KEY, JSON.stringify(state));
    } catch (e) {
      /* storage full or blocked: the conversation just won't survive a reload */
    }
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) {
      return String(values[key]);
    });
  }

  // ---------------------------------------------------------------- DOM helpers (text only, never HTML)

  /** h("a", {class: "x", href: u, onclick: f}, "text", child): attributes via setAttribute, text as nodes. */
  function h(tag, attrs) {
    var node = document.createElement(tag);
    for (var key in attrs || {}) {
      var value = attrs[key];
      if (value == null || value === false) continue;
      if (key.slice(0, 2) === "on") node.addEventListener(key.slice(2), value);
      else if (key === "class") node.className = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function append(node, child) {
    if (child == null || child === false) return;
    if (Array.isArray(child)) child.forEach(function (c) { append(node, c); });
    else node.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }

  function icon(name) {
    var svg = document.createElementNS(NS_SVG, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    var path = document.createElementNS(NS_SVG, "path");
    path.setAttribute("d", ICONS[name]);
    svg.appendChild(path);
    return svg;
  }

  /** A URL from the server made absolute; only http(s), so a `javascript:` URL can never become a link. */
  function safeUrl(url) {
    if (typeof url !== "string" || !url) return null;
    try {
      var absolute = url.charAt(0) === "/" && url.charAt(1) !== "/" ? new URL(API + url) : new URL(url, API + "/");
      return absolute.protocol === "https:" || absolute.protocol === "http:" ? absolute.href : null;
    } catch (e) {
      return null;
    }
  }

  function externalLink(href, content) {
    return h("a", { href: href, target: "_blank", rel: "noopener noreferrer" }, content);
  }

  function str(value) {
    return typeof value === "string" ? value : value == null ? "" : String(value);
  }

  // ---------------------------------------------------------------- the shell: launcher, panel, form

  function build() {
    var host = h("div", { "data-gpu-k8s-assistant": "" });
    var shadow = host.attachShadow({ mode: "open" });
    adoptStyles(shadow);
    ui.root = h("div", { class: "root", lang: LANG });
    ui.launcher = h(
      "button",
      { class: "launcher", type: "button", "aria-expanded": "false", "aria-controls": "gk-panel", onclick: toggle },
      icon("chat"),
      T.open
    );
    ui.log = h("ol", { class: "log", "aria-label": T.log });
    ui.input = h("textarea", {
      rows: "1",
      maxlength: String(MAX_QUESTION_CHARS),
      placeholder: T.placeholder,
      "aria-label": T.question,
      onkeydown: onInputKey,
      oninput: autoGrow,
    });
    ui.send = h("button", { class: "send", type: "submit", "aria-label": T.send, title: T.send }, icon("send"));
    ui.form = h("form", { onsubmit: onSubmit }, ui.input, ui.send);
    ui.announcer = h("div", { class: "sr", role: "status", "aria-live": "polite" });
    ui.panel = h(
      "div",
      {
        class: "panel",
        id: "gk-panel",
        role: "dialog",
        "aria-labelledby": "gk-title",
        hidden: true,
        onkeydown: onPanelKey,
      },
      header(),
      ui.log,
      ui.form,
      ui.announcer
    );
    ui.root.append(ui.panel, ui.launcher);
    shadow.appendChild(ui.root);
    document.body.appendChild(host);
    // A tap outside an open citation tooltip closes it (touch has no "mouse leaves").
    shadow.addEventListener("pointerdown", function (event) {
      if (activeTip && !event.composedPath().some(isTipOrCite)) hideTip();
    });
    ui.log.addEventListener("scroll", followTip, { passive: true });
  }

  /** A constructed stylesheet needs no 'unsafe-inline' under CSP; old browsers get a <style> element. */
  function adoptStyles(shadow) {
    try {
      var sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      shadow.adoptedStyleSheets = [sheet];
    } catch (e) {
      shadow.appendChild(h("style", null, CSS));
    }
  }

  function header() {
    return h(
      "header",
      null,
      h("div", { class: "titles" }, h("h2", { id: "gk-title" }, T.title), h("p", null, T.subtitle)),
      h(
        "button",
        { class: "icon newchat", type: "button", onclick: newChat },
        icon("plus"),
        h("span", { class: "label" }, T.newChat)
      ),
      h(
        "button",
        { class: "icon", type: "button", "aria-label": T.close, title: T.close, onclick: function () { close(true); } },
        icon("close")
      )
    );
  }

  function toggle() {
    if (state.open) close(true);
    else open(true);
  }

  function open(focus) {
    state.open = true;
    ui.panel.hidden = false;
    ui.root.classList.add("opened");
    ui.launcher.setAttribute("aria-expanded", "true");
    save();
    scrollToEnd();
    if (focus) ui.input.focus();
  }

  function close(focusLauncher) {
    hideTip();
    state.open = false;
    ui.panel.hidden = true;
    ui.root.classList.remove("opened");
    ui.launcher.setAttribute("aria-expanded", "false");
    save();
    if (focusLauncher) ui.launcher.focus();
  }

  function onPanelKey(event) {
    if (event.key !== "Escape") return;
    event.stopPropagation();
    // The first Escape dismisses an open citation tooltip (WCAG 1.4.13); the next one closes the chat.
    if (activeTip) hideTip();
    else close(true);
  }

  function onInputKey(event) {
    // Enter sends, Shift+Enter is a new line; Enter that confirms an IME composition is left alone.
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      onSubmit(event);
    }
  }

  function autoGrow() {
    ui.input.style.height = "auto"; // CSSOM writes are allowed under CSP; style attributes are not needed
    ui.input.style.height = Math.min(ui.input.scrollHeight + 2, 140) + "px";
  }

  function onSubmit(event) {
    event.preventDefault();
    var question = ui.input.value.trim();
    if (!question || busy) return;
    ui.input.value = "";
    autoGrow();
    ask(question);
  }

  function newChat() {
    stop(busy, "new chat");
    busy = null;
    ui.send.disabled = false;
    state.messages = [];
    save();
    renderAll();
    ui.input.focus();
  }

  // ---------------------------------------------------------------- rendering the conversation

  function renderAll() {
    hideTip();
    ui.log.textContent = "";
    if (!state.messages.length) ui.log.appendChild(starters());
    state.messages.forEach(function (message) {
      ui.log.appendChild(renderMessage(message));
    });
    var last = state.messages[state.messages.length - 1];
    if (last && last.role === "user") showNotice({ text: T.interrupted });
    scrollToEnd();
  }

  function starters() {
    return h(
      "li",
      { class: "starters" },
      h("p", null, T.startersLabel),
      T.starters.map(function (question) {
        return h("button", { type: "button", onclick: function () { ask(question); } }, question);
      })
    );
  }

  function renderMessage(message) {
    if (message.role === "user") {
      var bubble = h("div", { class: "bubble" }, str(message.text));
      return h("li", { class: "msg user" }, h("span", { class: "sr" }, T.you), bubble);
    }
    var item = h("li", { class: "msg bot" });
    fillAnswer(item, message, false);
    return item;
  }

  /** (Re)draws one answer: its text with citation links, the provider table, and the feedback buttons. */
  function fillAnswer(item, message, streaming) {
    hideTip();
    item.textContent = "";
    item.setAttribute("aria-busy", streaming ? "true" : "false");
    item.appendChild(h("span", { class: "sr" }, T.bot));
    if (!message.text && streaming) {
      var dots = h("span", { class: "dots", "aria-hidden": "true" }, h("i"), h("i"), h("i"));
      item.appendChild(h("div", { class: "bubble" }, dots, h("span", { class: "sr" }, T.thinking)));
      return;
    }
    var tips = {};
    var bubble = h("div", { class: "bubble", lang: message.language || null }, answerText(message, tips));
    Object.keys(tips).forEach(function (n) { bubble.appendChild(tips[n]); });
    item.appendChild(bubble);
    if (message.providers && message.providers.matches) item.appendChild(providerTable(message.providers));
    if (!streaming && message.id) item.appendChild(feedbackTools(message));
  }

  /** The answer's text with each [n] as a link to citation n; markers without a citation stay text. */
  function answerText(message, tips) {
    var byNumber = {};
    (message.citations || []).forEach(function (citation) { byNumber[citation.n] = citation; });
    var parts = str(message.text).split(/\[(\d+)\]/);
    return parts.map(function (part, i) {
      // A no-break space keeps each marker on the line of the sentence it supports.
      if (i % 2 === 0) return i + 1 < parts.length ? part.replace(/ $/, "\u00a0") : part;
      var citation = byNumber[part];
      return citation ? citeLink(citation, tips, message.language) : "[" + part + "]";
    });
  }

  function citeLink(citation, tips, language) {
    var n = citation.n;
    if (!tips[n]) tips[n] = citeTip(citation, language);
    var href = safeUrl(citation.url);
    // Without a usable URL the marker is still focusable, so its quote stays reachable by keyboard.
    var link = href ? externalLink(href, String(n)) : h("span", { tabindex: "0", role: "note" }, String(n));
    link.classList.add("cite");
    link.setAttribute("aria-label", T.source + " " + n);
    link.setAttribute("aria-describedby", tips[n].id);
    wireTip(link, tips[n]);
    return link;
  }

  function citeTip(citation, language) {
    var guide = /^provider:/.test(str(citation.section_id)) ? T.opensSource : T.opensGuide;
    var tip = h(
      "div",
      { class: "tip", role: "tooltip", id: "gk-tip-" + ++uid, hidden: true },
      h("strong", null, str(citation.title)),
      h("p", { class: "quote" }, str(citation.quote)),
      citation.original && language !== "nl"
        ? h("p", { class: "orig", lang: "nl" }, T.original + " " + str(citation.original))
        : null,
      h("p", { class: "hint" }, guide)
    );
    tip.hint = guide;
    tip.addEventListener("mouseenter", cancelHide);
    tip.addEventListener("mouseleave", scheduleHide);
    return tip;
  }

  // ---------------------------------------------------------------- citation tooltips: hover, focus, tap

  var activeTip = null;
  var activeCite = null;
  var hideTimer = 0;
  var lastPointer = "";
  var tipWasOpen = false;

  function isTipOrCite(node) {
    return node.classList && (node.classList.contains("tip") || node.classList.contains("cite"));
  }

  function wireTip(link, tip) {
    link.addEventListener("mouseenter", function () { showTip(link, tip, false); });
    link.addEventListener("mouseleave", scheduleHide);
    link.addEventListener("focus", function () { showTip(link, tip, false); });
    link.addEventListener("blur", scheduleHide);
    link.addEventListener("pointerdown", function (event) {
      lastPointer = event.pointerType;
      tipWasOpen = activeCite === link; // read now: the focus that follows a tap opens the tooltip
    });
    link.addEventListener("click", function (event) {
      // On touch there is no hover: the first tap shows the quote, a second tap opens the guide.
      var touch = lastPointer === "touch" || lastPointer === "pen";
      lastPointer = "";
      if (touch && !tipWasOpen) {
        event.preventDefault();
        showTip(link, tip, true);
      }
    });
  }

  function showTip(link, tip, touched) {
    cancelHide();
    if (activeTip && activeTip !== tip) activeTip.hidden = true;
    activeTip = tip;
    activeCite = link;
    tip.lastChild.textContent = touched ? T.tapAgain + " " + tip.hint : tip.hint;
    tip.hidden = false;
    placeTip(link, tip);
  }

  /** Fixed positioning escapes the scrolling log's clipping; above the marker when there is room. */
  function placeTip(link, tip) {
    var anchor = link.getBoundingClientRect();
    var box = tip.getBoundingClientRect();
    var margin = 8;
    var centred = anchor.left + anchor.width / 2 - box.width / 2;
    var left = Math.max(margin, Math.min(centred, innerWidth - box.width - margin));
    var top = anchor.top - box.height - 6;
    if (top < margin) top = Math.min(anchor.bottom + 6, innerHeight - box.height - margin);
    tip.style.left = left + "px";
    tip.style.top = Math.max(margin, top) + "px";
  }

  /** While the log scrolls the tooltip stays on its marker, and goes once the marker leaves the log's view. */
  function followTip() {
    if (!activeTip) return;
    var anchor = activeCite.getBoundingClientRect();
    var view = ui.log.getBoundingClientRect();
    if (anchor.bottom < view.top || anchor.top > view.bottom) hideTip();
    else placeTip(activeCite, activeTip);
  }

  function scheduleHide() {
    cancelHide();
    hideTimer = setTimeout(hideTip, 200); // time to move the pointer onto the tooltip (WCAG 1.4.13)
  }

  function cancelHide() {
    clearTimeout(hideTimer);
  }

  function hideTip() {
    cancelHide();
    if (activeTip) activeTip.hidden = true;
    activeTip = activeCite = null;
  }

  // ---------------------------------------------------------------- provider results

  function providerTable(providers) {
    var matches = providers.matches;
    var total = typeof providers.total === "number" ? providers.total : matches.length;
    var unknown = Array.isArray(providers.unknown) ? providers.unknown.length : 0;
    var link = safeUrl("/v1/providers" + filterQuery(providers.filter));
    var summary = h(
      "p",
      { class: "sum" },
      total === 1 ? T.match : fill(T.matches, { n: total }),
      unknown ? " · " + fill(T.undecided, { n: unknown }) : "",
      link ? [" · ", h("a", { href: link, target: "_blank", rel: "noopener noreferrer" }, T.all)] : null
    );
    var body = h("tbody");
    matches.forEach(function (record, i) {
      body.appendChild(providerRow(record, i >= TABLE_ROWS));
    });
    var table = h(
      "table",
      null,
      h("caption", { class: "sr" }, T.tableCaption),
      h("thead", null, h("tr", null, COLUMNS.map(columnHeader))),
      body
    );
    // Focusable, so a keyboard can scroll a table wider than the panel.
    var scroller = h("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": T.tableCaption }, table);
    var wrap = h("div", { class: "providers" }, summary, scroller);
    if (matches.length > TABLE_ROWS) wrap.appendChild(showAllButton(body, matches.length));
    return wrap;
  }

  function columnHeader(key) {
    var long = T[key + "Long"];
    return h("th", { scope: "col" }, long ? h("abbr", { title: long }, T[key]) : T[key]);
  }

  function showAllButton(body, count) {
    var button = h("button", { class: "more", type: "button" }, fill(T.showAll, { n: count }));
    button.addEventListener("click", function () {
      Array.prototype.forEach.call(body.rows, function (row) { row.hidden = false; });
      button.remove();
    });
    return button;
  }

  /** The same filter as a /v1/providers query string (contract §3): lists comma-joined, true as "true". */
  function filterQuery(filter) {
    var params = new URLSearchParams();
    Object.keys(filter || {}).forEach(function (key) {
      var value = filter[key];
      params.append(key, Array.isArray(value) ? value.join(",") : String(value));
    });
    var query = params.toString();
    return query ? "?" + query : "";
  }

  function providerRow(record, hidden) {
    var website = safeUrl(record.website);
    var kubernetes = record.kubernetes || {};
    var name = str(record.name);
    return h(
      "tr",
      { hidden: hidden },
      h("td", { class: "name" }, website ? externalLink(website, name) : name),
      h("td", { title: str(kubernetes.managed_service) || null }, kubernetesText(kubernetes)),
      h("td", null, sharingText(record.sharing)),
      h("td", { title: str(record.interconnect_detail) || null }, fabricText(record)),
      h("td", null, tri(record.spot)),
      h("td", { class: "price" }, priceCell(record.price))
    );
  }

  /** yes / no / unknown as a mark; the word is there for screen readers and as the hover title. */
  function tri(value) {
    var known = value === "yes" || value === "no";
    var word = value === "yes" ? T.yes : value === "no" ? T.no : T.unknown;
    var mark = known ? icon(value) : "?";
    return h("span", { class: "tri " + (known ? value : "unknown"), title: word }, mark, h("span", { class: "sr" }, word));
  }

  /** Which fabric links the GPU nodes: InfiniBand and RDMA (EFA, RoCE) both count, but a buyer needs to know which. */
  function fabricText(record) {
    var fabric = record.interconnect_fabric;
    if (record.interconnect === "yes" && fabric === "infiniband") return "InfiniBand";
    if (record.interconnect === "yes" && fabric === "rdma") {
      var name = str(record.interconnect_fabric_name);
      return name ? "RDMA (" + name + ")" : "RDMA";
    }
    if (record.interconnect === "no" && fabric === "ethernet") return "Ethernet";
    return tri(record.interconnect);
  }

  function kubernetesText(kubernetes) {
    var modes = [];
    if (kubernetes.managed === "yes") modes.push(T.managed);
    if (kubernetes.bring_your_own === "yes") modes.push(T.own);
    if (modes.length) return modes.join(", ");
    return tri(kubernetes.managed === "no" && kubernetes.bring_your_own === "no" ? "no" : "unknown");
  }

  function sharingText(sharing) {
    sharing = sharing || {};
    var offered = Object.keys(SHARING_NAMES).filter(function (key) { return sharing[key] === "yes"; });
    if (offered.length) {
      // One unbreakable chip per method, so "time-slicing" never splits at its hyphen.
      return offered.map(function (key, i) {
        return h("span", { class: "nowrap" }, SHARING_NAMES[key] + (i < offered.length - 1 ? "," : ""));
      }).reduce(function (parts, chip) { return parts.length ? parts.concat(" ", chip) : [chip]; }, []);
    }
    var none = Object.keys(SHARING_NAMES).every(function (key) { return sharing[key] === "no"; });
    return tri(none ? "no" : "unknown");
  }

  function priceCell(price) {
    if (!price || typeof price.per_gpu_hour !== "number") return h("span", { class: "u" }, T.noPrice);
    var source = safeUrl(price.source);
    var amount = money(price.per_gpu_hour, str(price.currency) || "USD");
    var asOf = fill(T.asOf, { d: str(price.as_of) });
    return [
      source ? externalLink(source, amount) : amount,
      price.stale ? h("span", { class: "stale", title: T.staleTitle }, T.stale) : null,
      h("small", null, str(price.gpu_model)),
      h("small", { title: asOf }, h("span", { class: "sr" }, fill(T.asOf, { d: "" })), str(price.as_of)),
    ];
  }

  function money(amount, currency) {
    try {
      return new Intl.NumberFormat(LANG === "nl" ? "nl-NL" : "en-US", {
        style: "currency",
        currency: currency,
        minimumFractionDigits: 2,
        maximumFractionDigits: amount < 1 ? 3 : 2,
      }).format(amount);
    } catch (e) {
      return amount + " " + currency;
    }
  }

  // ---------------------------------------------------------------- feedback

  function feedbackTools(message) {
    var status = h("span", { role: "status" });
    var buttons = ["up", "down"].map(function (rating) {
      var label = rating === "up" ? T.up : T.down;
      var pressed = String(message.rating === rating);
      return h(
        "button",
        { class: "icon " + rating, type: "button", "aria-label": label, title: label, "aria-pressed": pressed },
        icon("thumb")
      );
    });
    buttons.forEach(function (button, i) {
      button.addEventListener("click", function () {
        sendFeedback(message, i === 0 ? "up" : "down", buttons, status);
      });
    });
    return h("div", { class: "tools" }, buttons, status);
  }

  function sendFeedback(message, rating, buttons, status) {
    status.textContent = "";
    post("/v1/feedback", { answer_id: message.id, rating: rating, comment: null }, timeoutSignal())
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        message.rating = rating;
        save();
        buttons.forEach(function (button, i) {
          button.setAttribute("aria-pressed", String((i === 0 ? "up" : "down") === rating));
        });
        status.textContent = T.thanks;
      })
      .catch(function () {
        status.textContent = T.feedbackFailed;
      });
  }

  // ---------------------------------------------------------------- asking: stream first, plain JSON as fallback

  function ask(question) {
    if (busy) return;
    hideNotice();
    state.messages.push({ role: "user", text: question.slice(0, MAX_QUESTION_CHARS) });
    save();
    var starter = ui.log.querySelector(".starters");
    if (starter) starter.remove();
    ui.log.appendChild(renderMessage(state.messages[state.messages.length - 1]));
    answerLast();
  }

  /** Answers the last user message; also what "Try again" calls. The answer is saved only once complete. */
  function answerLast() {
    hideNotice();
    var turns = state.messages.slice();
    var question = turns.pop();
    var message = {
      role: "assistant",
      text: "",
      citations: [],
      providers: null,
      id: null,
      refused: false,
      language: null,
      rating: null,
    };
    var item = h("li", { class: "msg bot" });
    fillAnswer(item, message, true);
    ui.log.appendChild(item);
    scrollToEnd();
    var controller = new AbortController();
    busy = controller;
    ui.send.disabled = true;
    var timer = setTimeout(function () { stop(controller, "timeout"); }, TIMEOUT_MS);
    var body = { question: question.text, language: null, history: history(turns) };
    var redraw = function () { fillAnswer(item, message, true); scrollToEnd(true); };
    fetchAnswer(body, message, redraw, controller.signal)
      .then(function () {
        state.messages.push(message);
        save();
        fillAnswer(item, message, false);
        showExchange(item);
        announce(message);
      })
      .catch(function (error) {
        item.remove();
        if (controller.why === "new chat") return;
        var notice = describe(error, controller.why);
        if (notice.giveBack) giveBack(question.text);
        showNotice(notice);
        scrollToEnd();
      })
      .then(function () {
        clearTimeout(timer);
        if (busy !== controller) return; // "new chat" already moved on
        busy = null;
        ui.send.disabled = false;
      });
  }

  /** Earlier turns, oldest first, within the API's limits; answers go back with their [n] markers. */
  function history(turns) {
    return turns.slice(-MAX_HISTORY_TURNS).map(function (turn) {
      return { role: turn.role === "user" ? "user" : "assistant", content: str(turn.text).slice(0, MAX_TURN_CHARS) };
    });
  }

  function post(path, body, signal, accept) {
    return fetch(API + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: accept || "application/json" },
      body: JSON.stringify(body),
      signal: signal,
      credentials: "omit",
    });
  }

  function timeoutSignal() {
    var controller = new AbortController();
    setTimeout(function () { stop(controller, "timeout"); }, TIMEOUT_MS);
    return controller.signal;
  }

  /** Streams the answer into `message`; falls back to POST /v1/ask when streaming is unavailable or breaks. */
  function fetchAnswer(body, message, redraw, signal) {
    return post("/v1/ask/stream", body, signal, "text/event-stream").then(function (response) {
      var streamable = response.body && typeof response.body.getReader === "function";
      if (response.ok && streamable) {
        return readStream(response.body, message, redraw).catch(function (error) {
          if (signal.aborted) throw error;
          return fallback(body, message, signal);
        });
      }
      if (response.ok || response.status === 404 || response.status === 405) return fallback(body, message, signal);
      throw httpError(response);
    });
  }

  function fallback(body, message, signal) {
    return post("/v1/ask", body, signal).then(function (response) {
      if (!response.ok) throw httpError(response);
      return response.json().then(function (answer) {
        Object.assign(message, {
          text: str(answer.answer),
          citations: Array.isArray(answer.citations) ? answer.citations : [],
          providers: answer.providers || null,
          id: answer.id || null,
          refused: !!answer.refused,
          language: answer.language || null,
        });
      });
    });
  }

  /** Reads Server-Sent Events (sentence*, citations, providers, done; see api/events.py) from a fetch body. */
  function readStream(stream, message, redraw) {
    var reader = stream.getReader();
    var decoder = new TextDecoder();
    var buffer = "";
    function pump() {
      return reader.read().then(function (chunk) {
        buffer += decoder.decode(chunk.value || new Uint8Array(0), { stream: !chunk.done });
        var changed = false;
        var finished = false;
        var boundary;
        while (!finished && (boundary = /\r\n\r\n|\n\n|\r\r/.exec(buffer))) {
          var event = parseEvent(buffer.slice(0, boundary.index));
          buffer = buffer.slice(boundary.index + boundary[0].length);
          if (!event) continue;
          changed = true;
          finished = applyEvent(message, event);
        }
        if (finished) return reader.cancel().catch(function () {});
        if (changed) redraw();
        if (chunk.done) throw new Error("the stream ended before its done event");
        return pump();
      });
    }
    return pump();
  }

  function parseEvent(block) {
    var name = "message";
    var data = [];
    block.split(/\r\n|\n|\r/).forEach(function (line) {
      if (!line || line.charAt(0) === ":") return; // comments keep proxies from closing an idle stream
      var colon = line.indexOf(":");
      var field = colon < 0 ? line : line.slice(0, colon);
      var value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") name = value;
      else if (field === "data") data.push(value);
    });
    if (!data.length) return null;
    return { name: name, data: JSON.parse(data.join("\n")) };
  }

  /** Folds one event into the message; true on `done`. */
  function applyEvent(message, event) {
    var data = event.data;
    if (event.name === "sentence" && data) message.text += (message.text ? " " : "") + str(data.text);
    else if (event.name === "citations") message.citations = Array.isArray(data) ? data : [];
    else if (event.name === "providers") message.providers = data || null;
    else if (event.name === "done" && data) {
      message.id = data.id || null;
      message.language = data.language || null;
      message.refused = !!data.refused;
      return true;
    }
    return false;
  }

  // ---------------------------------------------------------------- errors: down, slow, rate limited

  function httpError(response) {
    var error = new Error("HTTP " + response.status);
    error.status = response.status;
    error.retryAfter = retryAfter(response.headers.get("Retry-After"));
    error.requestId = response.headers.get("X-Request-ID");
    error.detail = response
      .json()
      .then(function (body) { return body && typeof body.detail === "string" ? body.detail : ""; })
      .catch(function () { return ""; });
    return error;
  }

  /** Retry-After is seconds or an HTTP date; the API sends seconds. */
  function retryAfter(header) {
    if (!header) return null;
    var seconds = /^\d+$/.test(header.trim()) ? Number(header) : Math.ceil((Date.parse(header) - Date.now()) / 1000);
    return isFinite(seconds) && seconds > 0 ? seconds : null;
  }

  /** Aborts a request and remembers why (AbortSignal.reason is too new to rely on). */
  function stop(controller, why) {
    if (!controller || controller.why) return;
    controller.why = why;
    controller.abort();
  }

  function describe(error, why) {
    if (why === "timeout") return { text: T.slow, retry: true };
    if (!error.status) return { text: T.unreachable, retry: true }; // fetch rejects when nothing answers
    // The wait is the service's Retry-After when it sends one; a number is never made up.
    var when = error.retryAfter ? fill(T.inSeconds, { s: error.retryAfter }) : T.soon;
    if (error.status === 429) return { text: fill(T.rate, { when: when }), retry: true };
    if (error.status === 503) return { text: fill(T.loading, { when: when }), retry: true };
    if (error.status === 401 || error.status === 403) return { text: T.key };
    if (error.status >= 400 && error.status < 500) {
      return { text: T.rejected, detail: error.detail, retry: false, giveBack: true };
    }
    return { text: T.failed, requestId: error.requestId, retry: true };
  }

  /** A question the API refused to take (too long, say) goes back into the box to be edited, not into the log. */
  function giveBack(text) {
    state.messages.pop();
    save();
    var items = ui.log.querySelectorAll(".msg.user");
    if (items.length) items[items.length - 1].remove();
    ui.input.value = text;
    autoGrow();
  }

  function showNotice(notice) {
    hideNotice();
    var text = h("span", null, notice.detail ? "" : notice.text);
    ui.notice = h(
      "li",
      { class: "msg" },
      h(
        "div",
        { class: "notice", role: "alert" },
        text,
        notice.requestId ? h("small", null, T.requestId + notice.requestId) : null,
        notice.retry !== false ? h("div", null, h("button", { type: "button", onclick: retry }, T.retry)) : null
      )
    );
    if (notice.detail) {
      notice.detail.then(function (detail) { text.textContent = fill(notice.text, { d: detail || "?" }); });
    }
    ui.log.appendChild(ui.notice);
    scrollToEnd();
  }

  function hideNotice() {
    if (ui.notice) ui.notice.remove();
    ui.notice = null;
  }

  function retry() {
    var last = state.messages[state.messages.length - 1];
    if (busy || !last || last.role !== "user") return;
    answerLast();
    ui.input.focus();
  }

  // ---------------------------------------------------------------- screen readers and scrolling

  /** The answer as plain text in a polite live region: announced once, when complete. */
  function announce(message) {
    ui.announcer.textContent = "";
    var text = str(message.text).replace(/\s*\[\d+\]/g, "");
    setTimeout(function () { ui.announcer.textContent = T.announce + text; }, 50);
  }

  /** A long answer is read from its question down, so the log shows the question rather than the table's end. */
  function showExchange(item) {
    var question = item.previousElementSibling || item;
    var log = ui.log;
    log.scrollTop = Math.min(question.offsetTop - 8, log.scrollHeight);
  }

  function scrollToEnd(onlyIfNear) {
    var log = ui.log;
    if (onlyIfNear && log.scrollHeight - log.scrollTop - log.clientHeight > 120) return;
    log.scrollTop = log.scrollHeight;
  }

  // ---------------------------------------------------------------- start

  function start() {
    load();
    build();
    renderAll();
    if (state.open) open(false); // restored after a reload: open again, but leave the page's focus alone
  }

  if (document.body) start();
  else document.addEventListener("DOMContentLoaded", start);
})();

"""Look and behaviour of the browser chat: theme, CSS and three small scripts (citation clicks, scrolling the
chat to each new question, the check of the files chosen for upload).

The theme uses only fonts Gradio serves itself, so the page makes no request to a font CDN.
"""

from __future__ import annotations

import json


def theme():
    import gradio as gr

    fonts = gr.themes.LocalFont
    return gr.themes.Soft(
        primary_hue="indigo", secondary_hue="indigo", neutral_hue="slate", radius_size="md",
        font=[fonts("IBM Plex Sans", weights=(400, 700)), "ui-sans-serif", "system-ui", "sans-serif", fonts("Lora")],
        font_mono=[fonts("IBM Plex Mono"), "ui-monospace", "monospace"],
    ).set(body_background_fill="#f6f7fb", block_border_width="0px", block_shadow="none",
          block_label_background_fill="transparent", block_title_background_fill="transparent",
          block_label_text_color="*neutral_500", block_title_text_color="*neutral_600",
          block_title_text_weight="500", block_label_text_weight="500")


# Clicking a citation badge [n]: open its card (and the folded group holding it), scroll it into view
# inside the sources panel and flash it. Delegated from the document, so it survives re-renders.
# Then the chat log's scrolling to each new question, from one MutationObserver on the document.
HEAD = """
<script>
(function () {
  function scroller(el) {
    for (var p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      var style = getComputedStyle(p);
      if (/(auto|scroll)/.test(style.overflowY) && p.scrollHeight > p.clientHeight + 1) return p;
    }
    return null;
  }
  function reveal(id) {
    var el = document.getElementById(id);
    if (!el) return false;
    for (var p = el.parentElement; p; p = p.parentElement) {
      if (p.tagName === 'DETAILS') p.open = true;
    }
    el.querySelectorAll('details').forEach(function (d) { d.open = true; });
    var box = scroller(el);
    if (box) {  /* scroll the sources panel, not the page */
      var rect = box.getBoundingClientRect();
      if (rect.top < 0 || rect.bottom > window.innerHeight) box.scrollIntoView({block: 'nearest'});
      var base = box.getBoundingClientRect().top - box.scrollTop;
      var top = el.getBoundingClientRect().top - base - 8;
      var mark = el.querySelector('.abstract-text mark');
      if (mark) {  /* keep the highlighted evidence sentence in view as well */
        var markBottom = mark.getBoundingClientRect().bottom - base + 16;
        if (markBottom - top > box.clientHeight) top = Math.max(top, markBottom - box.clientHeight);
      }
      box.scrollTo({top: top, behavior: 'smooth'});
    } else {
      el.scrollIntoView({behavior: 'smooth', block: 'nearest'});
    }
    el.classList.remove('flash'); void el.offsetWidth; el.classList.add('flash');
    return true;
  }
  document.addEventListener('click', function (event) {
    var a = event.target && event.target.closest ? event.target.closest('a.cite') : null;
    if (!a) return;
    event.preventDefault();
    reveal((a.getAttribute('href') || '').replace(/^#/, ''));
  }, true);
})();
(function () {
  /* Each new question comes into view: on every render of the chat log (Gradio rewrites its HTML for each
     streamed piece), the box scrolls the latest turn's question to its top, as far as the answer below it
     allows so far, until the reader scrolls the box themselves. */
  var turnId = null, pinned = null;  /* the latest turn, and the scrollTop given to the box for it */
  function follow() {
    var turns = document.querySelectorAll('#chat-log .turn'), turn = turns[turns.length - 1];
    if (!turn) { turnId = null; return; }
    var box = turn.parentElement;
    while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowY)) box = box.parentElement;
    if (!box) return;
    if (turn.id !== turnId) { turnId = turn.id; pinned = box.scrollTop; }  /* a new question: follow it */
    if (pinned === null || Math.abs(box.scrollTop - pinned) > 2) { pinned = null; return; }  /* the reader scrolled */
    box.scrollTop += turn.getBoundingClientRect().top - box.getBoundingClientRect().top - 8;
    pinned = box.scrollTop;
  }
  new MutationObserver(function (records) {
    var log = document.getElementById('chat-log');
    if (log && records.some(function (r) { return log.contains(r.target); })) follow();
  }).observe(document.documentElement, {childList: true, subtree: true, characterData: true});
})();
</script>
"""


def upload_check(max_bytes: int, types: tuple[str, ...]) -> str:
    """The upload report's ``js_on_load``: on each choice of files for the upload box (``#upload``),
    picked or dropped, the files Gradio would refuse with a toast that goes away (over ``max_bytes``, or
    not ending in one of ``types``) are taken out before Gradio sees them, so the others still upload,
    and their names and sizes go to the server as the report's ``refused`` event
    (``WebApp.refused_uploads``), which says why beside the upload box until the next choice. Installed
    once per page, on the document, so it survives re-renders; the latest render's ``trigger`` is used."""
    return """
(function () {
  var check = window.__uploadCheck || (window.__uploadCheck = {});
  check.trigger = trigger;
  if (check.installed) return;
  check.installed = true;
  var MAX = %d, TYPES = %s, resent = new WeakSet();
  function refused(file) {
    return TYPES.indexOf('.' + file.name.toLowerCase().split('.').pop()) < 0 || file.size > MAX;
  }
  function inUpload(node) { return node instanceof Element && node.closest('#upload'); }
  function sort(files) {
    var kept = new DataTransfer(), out = [];
    files.forEach(function (f) { if (refused(f)) out.push(f); else kept.items.add(f); });
    check.trigger('refused', {files: out.map(function (f) { return {name: f.name, size: f.size}; })});
    return {kept: kept, out: out};
  }
  document.addEventListener('change', function (event) {
    var input = event.target;
    if (!inUpload(input) || input.type !== 'file' || !input.files) return;
    var chosen = sort(Array.from(input.files));
    if (chosen.out.length) input.files = chosen.kept.files;  // before Gradio's own listener reads them
  }, true);
  document.addEventListener('drop', function (event) {
    if (resent.has(event) || !inUpload(event.target) || !event.dataTransfer) return;
    var chosen = sort(Array.from(event.dataTransfer.files || []));
    if (!chosen.out.length) return;
    event.preventDefault();
    event.stopImmediatePropagation();  // Gradio gets the same drop with the kept files only
    var again = new DragEvent('drop', {bubbles: true, cancelable: true, dataTransfer: chosen.kept});
    resent.add(again);
    event.target.dispatchEvent(again);
  }, true);
})();
""" % (max_bytes, json.dumps([t.lower() for t in types]))


CSS = """
:root { --ink: #1f2433; --ink-soft: #4b5368; --line: #e3e6ef; --accent: #4f46e5; --accent-soft: #eef0ff;
        --mark: #fff1b8; --mark-line: #f2c94c; --serif: 'Lora', Georgia, 'Iowan Old Style', serif; }
.gradio-container { max-width: 1440px !important; margin: 0 auto !important; }
.app-header { padding: 0 4px; display: flex; align-items: baseline; gap: 14px; flex-wrap: wrap; }
.app-title { font-size: 1.35rem; font-weight: 600; color: var(--ink); letter-spacing: -0.01em; }
.app-sub { color: var(--ink-soft); font-size: 0.9rem; }
.gradio-container > .main { padding-top: 0 !important; }
#llm .info, #llm [data-testid='block-info'] + span { font-size: 0.75rem; }
.muted { color: #6b7280; }
.small { font-size: 0.8rem; }

/* chat */
#chat-log { background: #fff; border: 1px solid var(--line); border-radius: 14px; padding: 6px 18px; }
.chat { display: flex; flex-direction: column; gap: 14px; padding: 10px 0 14px; }
.chat-empty { color: var(--ink-soft); padding: 40px 24px; text-align: center; line-height: 1.6; }
.chat-empty-title { font-size: 1.15rem; font-weight: 600; color: var(--ink); margin-bottom: 6px; }
.turn { display: flex; flex-direction: column; gap: 8px; }
.q { display: flex; justify-content: flex-end; }
.bubble-q { background: var(--accent); color: #fff; padding: 9px 14px; border-radius: 16px 16px 4px 16px;
            max-width: 80%; line-height: 1.45; white-space: pre-wrap; overflow-wrap: anywhere; }
.a { background: #f8f9fc; border: 1px solid var(--line); border-radius: 4px 16px 16px 16px; padding: 10px 16px;
     max-width: 96%; color: var(--ink); line-height: 1.6; overflow-wrap: anywhere; }
.a p { margin: 0.2em 0 0.5em; }
.a ul { margin: 0.2em 0 0.4em; padding-left: 1.1em; }
.a li { margin: 0.35em 0; }
.a.error { border-color: #f3b4b4; background: #fff7f7; }
.a.incomplete { border-color: #f3d19c; }
.a .meta { font-size: 0.78rem; color: #7a8194; margin-top: 4px; }
.a strong, .abstract-text strong, .quote strong { font-weight: 600; }
.a code { font-size: 0.85em; background: #eceef5; padding: 1px 5px; border-radius: 4px; }
.error-box { margin-top: 6px; background: #fdecec; color: #8a1c1c; border: 1px solid #f3b4b4; border-radius: 8px;
             padding: 8px 12px; font-size: 0.92rem; }
.stage { font-style: italic; margin: 0.2em 0; }
a.cite, span.cite { display: inline-block; min-width: 1.35em; padding: 0 0.35em; margin: 0 1px; border-radius: 999px;
         background: var(--accent-soft); color: var(--accent) !important; font-size: 0.72em; font-weight: 600;
         line-height: 1.45; text-align: center; vertical-align: super; text-decoration: none !important;
         border: 1px solid #d8dcff; cursor: pointer; }
a.cite:hover { background: var(--accent); color: #fff !important; }
.typing { display: inline-flex; gap: 4px; margin-left: 4px; vertical-align: middle; }
.typing i { width: 6px; height: 6px; border-radius: 50%; background: #9aa3c7; animation: blink 1.2s infinite both; }
.typing i:nth-child(2) { animation-delay: .2s; } .typing i:nth-child(3) { animation-delay: .4s; }
@keyframes blink { 0%, 80%, 100% { opacity: .25; } 40% { opacity: 1; } }
#filters { padding: 4px 12px !important; }
#filters > .label-wrap { font-size: 0.88rem; color: var(--ink-soft); }
#filter-row { align-items: flex-end; }
.a .meta .scope { color: var(--accent); }
.filter-hint { font-size: 0.85rem; }
.plan-line { font-size: 0.78rem; color: #7a8194; margin: 0 0 4px; }
.a .meta .more { color: var(--accent); }
/* a comparison: a narrow paper column (a long name cut to 3 lines, the full title on hover) that stays put while
   text columns wide enough to read scroll sideways in a narrow chat column. (#chat-log outranks Gradio's
   .prose table rules.) */
.comparison-wrap { overflow-x: auto; margin: 8px 0 2px; }
#chat-log table.comparison { border: 0; border-collapse: separate; border-spacing: 0; margin: 0; padding: 0;
                             width: 100%; font-size: 0.84rem; line-height: 1.45; }
#chat-log .comparison th, #chat-log .comparison td { border-style: solid; border-color: var(--line);
                                                     border-width: 0 1px 1px 0; padding: 6px 8px; vertical-align: top;
                                                     text-align: left; }
#chat-log .comparison tr > :first-child { border-left-width: 1px; position: sticky; left: 0; z-index: 1;
                                          width: 8em; min-width: 8em; }
#chat-log .comparison thead th { border-top-width: 1px; background: #f4f5fa; font-weight: 600;
                                 color: var(--ink-soft); white-space: nowrap; }
#chat-log .comparison tbody th { font-weight: 600; background: #f8f9fc; overflow-wrap: anywhere; }
.comparison .paper-name { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3; overflow: hidden; }
#chat-log .comparison td { font-family: var(--serif); color: #333a4d; min-width: 12em; }
#chat-log .comparison td.not-stated { color: #9aa0ae; font-style: italic; }
#show-more { align-self: flex-start; }
#ask-row { align-items: stretch; }
#examples-row { gap: 6px; flex-wrap: wrap; }
#examples-row button { flex: 0 0 auto !important; min-width: 0 !important; font-weight: 400; font-size: 0.8rem;
                       border-radius: 999px; padding: 4px 12px; background: #fff; border: 1px solid var(--line);
                       color: var(--ink-soft); }
#examples-row button:hover { border-color: var(--accent); color: var(--accent); }
.examples-label { color: #7a8194; font-size: 0.82rem; padding-top: 2px; }

/* sources */
#sources-panel { background: #fff; border: 1px solid var(--line); border-radius: 14px; padding: 4px 14px; }
.sources { display: flex; flex-direction: column; gap: 10px; padding: 8px 0 12px; }
.sources-for { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.05em; color: #7a8194; margin-top: 4px; }
.sources-for q { text-transform: none; letter-spacing: 0; color: var(--ink-soft); font-style: italic; }
.sources-empty { color: var(--ink-soft); padding: 24px 10px; line-height: 1.6; text-align: center; }
.src { border: 1px solid var(--line); border-radius: 12px; padding: 10px 14px; background: #fcfcfe;
       scroll-margin-top: 8px; transition: box-shadow .3s, border-color .3s; }
.src.flash { animation: flash 1.6s ease-out; border-color: var(--accent); }
@keyframes flash { 0% { box-shadow: 0 0 0 4px rgba(79,70,229,.35); } 100% { box-shadow: 0 0 0 0 rgba(79,70,229,0); } }
.src-head { display: flex; gap: 10px; align-items: baseline; }
.badge { flex: 0 0 auto; background: var(--accent); color: #fff; border-radius: 999px; font-size: 0.75rem;
         font-weight: 600; min-width: 1.6em; text-align: center; padding: 1px 6px; }
.src-title { margin: 0 !important; font-size: 1rem !important; font-weight: 600; color: var(--ink); line-height: 1.35; }
.topic { font-size: 0.78rem; color: #5b6275; margin: 4px 0 0; }
.topic b { color: var(--accent); font-weight: 600; }
.labels { display: flex; flex-wrap: wrap; gap: 4px; margin: 4px 0 0; }
.label { font-size: 0.7rem; color: #4b5563; background: #eef0fb; border: 1px solid #d8dcff; border-radius: 999px;
         padding: 0 7px; }
.label.main { color: var(--accent); border-color: var(--accent); font-weight: 600; }
.label.form { background: #fff; border-style: dashed; }
.files { display: flex; flex-wrap: wrap; gap: 4px; margin: 6px 0 4px; }
.file-chip { font-family: 'IBM Plex Mono', ui-monospace, monospace; font-size: 0.72rem; color: #5b6275;
             background: #f0f2f7; border-radius: 6px; padding: 1px 6px; overflow-wrap: anywhere; }
.quote { margin: 6px 0 !important; padding: 4px 0 4px 12px !important; border-left: 3px solid var(--mark-line) !important;
         font-family: var(--serif); font-size: 0.93rem; color: #333a4d; background: none !important; }
.src:has(details.abstract[open]) > .quote { display: none; }  /* the abstract shows it, highlighted */
details.abstract summary, details.earlier summary { cursor: pointer; color: var(--accent); font-size: 0.85rem;
                                                    user-select: none; }
.abstract-text { font-family: var(--serif); font-size: 0.93rem; line-height: 1.65; color: #2d3344;
                 margin: 6px 0 2px !important; overflow-wrap: anywhere; }
mark.evidence { background: var(--mark); color: inherit; border-radius: 3px; padding: 0 2px;
                box-shadow: inset 0 -2px 0 var(--mark-line); }
details.earlier { border-top: 1px dashed var(--line); padding-top: 8px; }
details.earlier > .src { margin-top: 8px; }

/* controls */
.backends { display: flex; flex-wrap: wrap; gap: 6px; font-size: 0.78rem; padding: 2px 2px 0; }
.backend { border-radius: 999px; padding: 2px 10px; border: 1px solid var(--line); background: #fff;
           color: var(--ink-soft); max-width: 48%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.backend-ok b { color: #15803d; } .backend-off { color: #9aa0ae; } .backend-off b { color: #b45309; }

/* library */
.library { display: flex; flex-direction: column; gap: 6px; }
.library-count { color: #7a8194; font-size: 0.85rem; margin: 2px 0 4px; }
details.paper { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 8px 14px; }
details.paper[open] { box-shadow: 0 1px 6px rgba(30, 40, 90, .06); }
details.paper summary { cursor: pointer; display: flex; justify-content: space-between; gap: 12px; align-items: baseline; }
.paper-title { font-weight: 600; color: var(--ink); }
.paper-files { font-family: 'IBM Plex Mono', ui-monospace, monospace; font-size: 0.72rem; color: #7a8194;
               white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 40%; }

/* ingest */
.ingest-report { line-height: 1.6; }
.counts { display: flex; gap: 8px; flex-wrap: wrap; margin: 4px 0; }
.count { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 4px 12px; }
.count-added b { color: #15803d; } .count-updated b { color: #1d4ed8; } .count-removed b { color: #b45309; }
.skipped { background: #fff8eb; border: 1px solid #f3d19c; border-radius: 8px; padding: 6px 12px; margin-top: 6px; }
.skipped ul { margin: 4px 0 0; padding-left: 1.1em; }
footer { opacity: 0.6; }
"""

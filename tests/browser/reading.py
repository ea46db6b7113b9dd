"""What the per-page checks read from a loaded page, as scripts for ``page.evaluate``.

``visit`` (``conftest.py``) runs each once per page; the tests that plant a defect run the
same script on the page they edited, so the check and its proof of failing are one script.
"""

from __future__ import annotations

# Material attaches each drawn diagram to a closed shadow root; open it so a test can read the SVG.
OPEN_SHADOWS = """
const attach = Element.prototype.attachShadow;
Element.prototype.attachShadow = function (init) { return attach.call(this, {...init, mode: "open"}); };
"""

# Each verified diagram as drawn: the messages its figure declares, the arrows and numbers its
# SVG draws, its width, its accessible title and how many steps its words list.
DRAWN = r"""() => Array.from(document.querySelectorAll('div.verified-diagram'), figure => {
  const host = figure.querySelector(':scope > div.mermaid');
  const svg = host && host.shadowRoot ? host.shadowRoot.querySelector('svg') : null;
  const titleId = svg ? (svg.getAttribute('aria-labelledby') || '').split(' ')[0] : '';
  const title = svg && titleId ? svg.querySelector('#' + CSS.escape(titleId)) : null;
  return {
    declared: Number(figure.dataset.vdMessages),
    // One arrow and one number per message (a label of several lines is several texts).
    drawn: svg ? svg.querySelectorAll('.messageLine0, .messageLine1').length : null,
    numbers: svg ? svg.querySelectorAll('text.sequenceNumber').length : null,
    width: svg ? svg.getBoundingClientRect().width : 0,
    title: title ? title.textContent : null,
    words: figure.querySelectorAll(':scope > details ol > li').length,
  };
})"""

# Every code block in the content wider than its box, with every folded program unfolded (a
# reader may unfold it); the programs are folded back before it returns.
OVERFLOWING = """() => {
  const folded = [...document.querySelectorAll('.vd-program:not(.vd-expanded)')];
  folded.forEach(b => b.classList.add('vd-expanded'));
  const wide = [...document.querySelectorAll('.md-content pre > code')]
    .filter(code => code.scrollWidth > code.clientWidth + 1)
    .map(code => {
      const block = code.closest('.highlight');
      const title = block && block.querySelector('.filename');
      const longest = code.innerText.split('\\n').reduce((a, b) => (b.length > a.length ? b : a), '');
      return `${title ? title.textContent : 'untitled block'}: ${code.scrollWidth}px in ${code.clientWidth}px, ` +
             `longest line (${longest.length} characters): ${longest.trim()}`;
    });
  folded.forEach(b => b.classList.remove('vd-expanded'));
  return wide;
}"""

# The words (six letters or more) that, on a page as loaded, appear only in a tab not shown by
# default: what the hidden-tab search test searches for.
HIDDEN_TAB_WORDS = """() => {
  const content = document.querySelector('.md-content');
  const words = text => new Set(text.toLowerCase().match(/\\b[a-z]{6,}\\b/g) || []);
  const out = [];
  content.querySelectorAll('.tabbed-block').forEach(block => {
    if (block.getClientRects().length > 0) return;  // shown by default
    const rest = content.cloneNode(true);
    const sets = Array.from(content.querySelectorAll('.tabbed-block'));
    rest.querySelectorAll('.tabbed-block')[sets.indexOf(block)].remove();
    const elsewhere = words(rest.textContent);
    words(block.textContent).forEach(word => { if (!elsewhere.has(word)) out.push(word); });
  });
  return out;
}"""

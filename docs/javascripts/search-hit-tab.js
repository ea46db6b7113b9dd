// After following a search result, show the tab that holds the searched word.
//
// Material's search.highlight marks the words of the result (the ?h= query) on the new page,
// but a word that sits only in a tab that is not selected stays hidden, and nothing in
// Material selects that tab; this does, as a reader would: by clicking the tab's input (and the
// inputs of the tabs it is nested in, outermost first). Runs on every page, instant
// navigation included (document$ emits each time a page is swapped in).
document$.subscribe(function () {
  var query = new URL(location.href).searchParams.get("h");
  var content = document.querySelector(".md-content");
  if (!query || !content) return;
  var words = query.toLowerCase().split(/\s+/).filter(Boolean);
  var holds = function (element) {
    var text = element.textContent.toLowerCase();
    return words.some(function (word) { return text.indexOf(word) >= 0; });
  };
  var shown = function (element) { return element.getClientRects().length > 0; };
  var outside = content.cloneNode(true);
  outside.querySelectorAll(".tabbed-set").forEach(function (set) { set.remove(); });
  if (holds(outside)) return;  // the word is on the page outside any tab: nothing to reveal
  var blocks = Array.prototype.filter.call(content.querySelectorAll(".tabbed-block"), holds);
  if (blocks.length === 0 || blocks.some(shown)) return;  // no tab holds it, or one already shows it
  var select = function (block) {
    var outer = block.parentElement.closest(".tabbed-block");
    if (outer) select(outer);
    var set = block.closest(".tabbed-set");
    var position = Array.prototype.indexOf.call(block.parentElement.children, block);
    var input = set.querySelectorAll(":scope > input")[position];
    if (input && !input.checked) input.click();
  };
  select(blocks[0]);
  // Material marks only the words it can see, and may have marked the page before the tab was
  // shown (it does when the page's sequence diagrams keep it busy first): mark them here then,
  // as Material would, so the reader sees where the word is.
  if (blocks[0].querySelector("mark[data-md-highlight]")) return;
  var escaped = words.map(function (word) { return word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); });
  var pattern = new RegExp("(" + escaped.join("|") + ")", "gi");
  var walker = document.createTreeWalker(blocks[0], NodeFilter.SHOW_TEXT);
  var nodes = [];
  for (var node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
  nodes.forEach(function (text) {
    var parts = text.textContent.split(pattern);
    if (parts.length < 2) return;
    var fragment = document.createDocumentFragment();
    parts.forEach(function (part, i) {
      if (i % 2 === 0) { if (part) fragment.appendChild(document.createTextNode(part)); return; }
      var mark = document.createElement("mark");
      mark.setAttribute("data-md-highlight", "");
      mark.textContent = part;
      fragment.appendChild(mark);
    });
    text.replaceWith(fragment);
  });
});

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
});

// A table wider than the page scrolls sideways in Material's wrapper (verified.css keeps code
// in a cell whole). A box that scrolls must be reachable by keyboard (axe's
// scrollable-region-focusable): each wrapper that overflows becomes a focusable, named region.
// Runs on every page, instant navigation included (document$).
document$.subscribe(function () {
  document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (box) {
    if (box.scrollWidth <= box.clientWidth || box.hasAttribute("tabindex")) return;
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", "Table, scrolls sideways");
  });
});

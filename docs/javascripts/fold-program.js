// Fold each verified program around the section its page is about.
//
// A code block of an example holds the whole program that ran (so Material's copy button copies
// a program a reader can run), with data-vd-focus="first-last": the lines of the section the
// page explains. This keeps those lines in view and folds the rest behind one toggle button.
// Copying still takes every line: Material marks the code element data-md-copying while it
// reads its text, and the stylesheet shows folded lines under that mark. Without JavaScript
// nothing is folded. Runs on every page, instant navigation included (document$ emits each
// time a page is swapped in).
document$.subscribe(function () {
  document.querySelectorAll(".vd-program[data-vd-focus]").forEach(function (block) {
    if (block.querySelector(".vd-fold-toggle")) return;  // already folded (page kept in memory)
    var range = block.getAttribute("data-vd-focus").split("-").map(Number);
    var code = block.querySelector("pre > code");
    if (!code) return;
    var lines = code.querySelectorAll(":scope > span[id^='__span-']");
    var outside = 0;
    lines.forEach(function (line, index) {
      var shown = index + 1;
      if (shown < range[0] || shown > range[1]) {
        line.classList.add("vd-outside");
        outside += 1;
      }
    });
    if (outside === 0) return;  // the section is the whole program
    // Say at the top that lines are folded above (drawn by the stylesheet, never copied).
    var above = Math.min(range[0] - 1, lines.length);
    if (above > 0) code.parentElement.setAttribute("data-vd-above", above + (above === 1 ? " line" : " lines"));
    var title = block.querySelector(".filename");
    var file = title ? title.textContent.split(" · ").pop() : "the program";
    var button = document.createElement("button");
    button.type = "button";
    button.className = "vd-fold-toggle";
    var label = function (expanded) {
      button.textContent = expanded
        ? "Fold " + file + " back to the section"
        : "Show all " + lines.length + " lines of " + file + " (" + outside + " folded)";
      button.setAttribute("aria-expanded", expanded ? "true" : "false");
    };
    button.addEventListener("click", function () {
      var expanded = block.classList.toggle("vd-expanded");
      label(expanded);
    });
    label(false);
    block.classList.add("vd-folded");
    block.appendChild(button);
    // Arrived from a search result (?h=words) that sits in a folded line: show it unfolded.
    var words = (new URL(location.href).searchParams.get("h") || "").toLowerCase().split(/\s+/).filter(Boolean);
    var text = function (selector) {
      return Array.prototype.map.call(block.querySelectorAll(selector), function (line) {
        return line.textContent.toLowerCase();
      }).join("\n");
    };
    var folded = text("code > .vd-outside"), shown = text("code > span:not(.vd-outside)");
    if (words.some(function (word) { return folded.indexOf(word) >= 0 && shown.indexOf(word) < 0; })) {
      button.click();
    }
  });
});

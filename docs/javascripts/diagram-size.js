// On a narrow screen, draw each sequence diagram at its natural size, in a box that scrolls
// sideways, instead of shrinking it to the screen's width (its labels would be 6 px high).
//
// Material and Zensical draw a diagram by calling the page's global mermaid.render, put the
// SVG in a closed shadow root, and hand that root to the function the result names (`fn`
// for Material, `bindFunctions` for Zensical and Mermaid). A page's stylesheet cannot reach
// into the root, so this wraps mermaid.render: its function adds, inside the root, a rule
// that gives the SVG its natural width (Mermaid's max-width) below 60em, and makes the host
// focusable, so a keyboard reader can scroll it too (verified.css lets it scroll).
(function () {
  if (typeof mermaid === "undefined" || mermaid.__vdNaturalSize) return;
  var render = mermaid.render.bind(mermaid);
  var STYLE =
    "@media (max-width: 59.9375em) {" +
    " svg[id] { width: var(--vd-natural-width) !important; max-width: none !important; } }";
  mermaid.render = function () {
    return render.apply(null, arguments).then(function (result) {
      var bind = result.bindFunctions || result.fn;
      var size = function (root) {
        var svg = root.querySelector("svg");
        var natural = svg ? parseFloat(svg.style.maxWidth) : NaN;
        if (natural > 0 && root.host) {
          svg.style.setProperty("--vd-natural-width", natural + "px");
          var style = document.createElement("style");
          style.textContent = STYLE;
          root.appendChild(style);
          root.host.tabIndex = 0;
        }
        if (bind) bind(root);
      };
      return Object.assign({}, result, { fn: size, bindFunctions: size });
    });
  };
  mermaid.__vdNaturalSize = true;
})();

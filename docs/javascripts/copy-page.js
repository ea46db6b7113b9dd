// "Copy page as Markdown" and "View as Markdown" under every page's title.
//
// The build writes each page's Markdown twin beside it (verified_docs/site/twins.py): the page's
// address plus ".md", "index.html.md" for an address ending in "/", as llms.txt proposes. The
// button fetches the twin from this site (the only request it makes) and puts its text on the
// clipboard; the link opens it. Only pages built from docs/ have a twin: MkDocs and Zensical give
// each of them a canonical address (mkdocs.yml sets site_url), and the 404 page none, so the page
// without one shows neither. Runs on every page, instant navigation included (document$).
document$.subscribe(function () {
  var article = document.querySelector("article.md-content__inner");
  if (!article || article.querySelector(".vd-page-actions")) return;
  if (!document.querySelector('link[rel="canonical"]')) return;
  var address = new URL(location.href);
  address.hash = "";
  address.search = "";
  if (address.pathname.endsWith("/")) address.pathname += "index.html";
  address.pathname += ".md";
  var twin = address.href;
  var bar = document.createElement("div");
  bar.className = "vd-page-actions";
  var button = document.createElement("button");
  button.type = "button";
  button.className = "vd-copy-page";
  button.textContent = "Copy page as Markdown";
  var link = document.createElement("a");
  link.className = "vd-view-markdown";
  link.href = twin;
  link.textContent = "View as Markdown";
  var status = document.createElement("span");
  status.className = "vd-copy-status";
  status.setAttribute("role", "status");
  button.addEventListener("click", function () {
    status.textContent = "";
    var text = fetch(twin).then(function (r) {
      if (!r.ok) throw new Error("the Markdown twin answered " + r.status);
      return r.text();
    });
    // A ClipboardItem given the pending text keeps the click's permission while it loads
    // (Safari needs this); elsewhere, write the text once it is there.
    var copied = window.ClipboardItem && navigator.clipboard && navigator.clipboard.write
      ? navigator.clipboard.write([new ClipboardItem({
          "text/plain": text.then(function (t) { return new Blob([t], { type: "text/plain" }); }),
        })])
      : text.then(function (t) { return navigator.clipboard.writeText(t); });
    copied.then(
      function () { status.textContent = "Copied the page as Markdown"; },
      function (error) { status.textContent = "Could not copy: " + error.message; }
    );
  });
  bar.append(button, link, status);
  var title = article.querySelector("h1");
  if (title) title.after(bar);
  else article.prepend(bar);
});

// The replay viewer: one board at a time, stepped with the buttons or the arrow keys.
// Without JavaScript the page lists every frame (a link to its picture and the action in words).
(function () {
  "use strict";
  var viewer = document.getElementById("viewer");
  var items = document.querySelectorAll("#frames-list li[data-src]");
  if (!viewer || items.length === 0) { return; }
  var img = document.getElementById("replay-frame");
  var phone = document.getElementById("replay-phone");  // the close-up a narrow screen shows
  var caption = document.getElementById("replay-caption");
  var position = document.getElementById("replay-position");
  var of = viewer.getAttribute("data-of");
  var index = 0;

  function show(i) {
    index = Math.max(0, Math.min(items.length - 1, i));
    var item = items[index];
    if (phone) { phone.srcset = item.getAttribute("data-phone") || item.getAttribute("data-src"); }
    img.src = item.getAttribute("data-src");
    img.alt = item.getAttribute("data-alt");
    var lines = item.querySelectorAll("li");
    caption.textContent = Array.prototype.map.call(lines, function (li) { return li.textContent; }).join(" ");
    position.textContent = of.replace("{number}", index + 1).replace("{total}", items.length);
    viewer.setAttribute("data-index", String(index + 1));
  }

  function step(what) {
    if (what === "first") { show(0); }
    else if (what === "last") { show(items.length - 1); }
    else { show(index + Number(what)); }
  }

  viewer.querySelectorAll("button[data-step]").forEach(function (b) {
    b.addEventListener("click", function () { step(b.getAttribute("data-step")); });
  });
  document.addEventListener("keydown", function (e) {
    var tag = (e.target && e.target.tagName) || "";
    if (e.altKey || e.ctrlKey || e.metaKey || /^(INPUT|TEXTAREA|SELECT)$/.test(tag)) { return; }
    var moves = { ArrowRight: "1", ArrowLeft: "-1", Home: "first", End: "last" };
    if (moves[e.key]) { e.preventDefault(); step(moves[e.key]); }
  });
  viewer.hidden = false;
  document.getElementById("frames-list").open = false;
  show(0);
}());

// Figure page: clicking a panel box or a subcaption selects that panel everywhere
// (box, subcaption, citing sentences). The server already renders the initial selection.
(function () {
  "use strict";
  var page = document.getElementById("figure-page");
  if (!page) { return; }

  // data-panel: the panel's key (unique in the figure); data-label: its letter as the text names it
  function select(panel) {
    page.dataset.selected = panel;
    var label = "";
    document.querySelectorAll("[data-panel]").forEach(function (el) {
      var on = el.dataset.panel === panel;
      el.classList.toggle("selected", on);
      if (on && el.dataset.label) { label = el.dataset.label; }
    });
    document.querySelectorAll(".ref[data-panels]").forEach(function (el) {
      var named = el.dataset.panels ? el.dataset.panels.split(" ") : [];
      el.classList.toggle("cited", label !== "" && named.indexOf(label) !== -1);
    });
    var url = new URL(window.location.href);
    url.searchParams.set("panel", panel);
    window.history.replaceState(null, "", url.toString());
  }

  document.querySelectorAll(".panel-box").forEach(function (box) {
    box.addEventListener("click", function () { select(box.dataset.panel); });
  });
  document.querySelectorAll(".subcaption").forEach(function (item) {
    item.addEventListener("click", function (event) {
      if (event.target.tagName === "A") { return; }
      select(item.dataset.panel);
    });
  });
  var copy = document.getElementById("copy-attribution");
  if (copy) {
    copy.addEventListener("click", function () {
      var text = document.getElementById("attribution");
      text.select();
      if (navigator.clipboard) { navigator.clipboard.writeText(text.value); }
    });
  }
})();

// Figure page: clicking a panel box or a subcaption selects that panel everywhere: box, subcaption,
// citing sentences, the heading, the attribution to copy and the panel download. The server renders
// the initial selection from the URL (?panel=), and the URL follows every selection, so a reload or a
// shared link shows the same panel; the search state (q, filters, page) stays in the URL untouched.
(function () {
  "use strict";
  var page = document.getElementById("figure-page");
  if (!page) { return; }

  // data-panel: the panel's key (unique in the figure); data-label: its letter as the text names it
  function select(panel) {
    page.dataset.selected = panel;
    var label = "", shown = "", attribution = null, docId = null;
    document.querySelectorAll("[data-panel]").forEach(function (el) {
      var on = el.dataset.panel === panel;
      el.classList.toggle("selected", on);
      if (on && el.dataset.label) { label = el.dataset.label; }
      if (on && el.dataset.shown) { shown = el.dataset.shown; }
      if (on && el.dataset.attribution) { attribution = el.dataset.attribution; }
      if (on && el.dataset.docId) { docId = el.dataset.docId; }
    });
    document.querySelectorAll(".ref[data-panels]").forEach(function (el) {
      var named = el.dataset.panels ? el.dataset.panels.split(" ") : [];
      el.classList.toggle("cited", label !== "" && named.indexOf(label) !== -1);
    });
    var chip = document.getElementById("selected-chip");
    if (chip && shown) { chip.textContent = "panel (" + shown + ")"; }
    var text = document.getElementById("attribution");
    if (text && attribution !== null) { text.value = attribution; }
    var download = document.getElementById("download-panel");
    if (download && docId) {
      download.setAttribute("href", "/img/panel/" + docId + "?download=1");
      document.getElementById("download-panel-name").textContent = shown;
    }
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

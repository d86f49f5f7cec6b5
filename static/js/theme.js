// The phone's own settings (app.js, Settings panel), applied before the first paint so that
// a dark or four-colour table never flashes in the other colours. A file, not an inline
// script: the Content-Security-Policy allows scripts from this server only. Larger cards
// (ui/prefs.js calls barahaCards too): their own stylesheet, linked render-blocking.
(function () {
  var me = document.currentScript;
  window.barahaCards = function (c) {
    var d = document.documentElement;
    if (c !== "large" && c !== "largest") { d.removeAttribute("data-cards"); return; }
    if (!document.getElementById("cards-css")) {
      var l = document.createElement("link");
      l.rel = "stylesheet"; l.id = "cards-css"; l.href = me.getAttribute("data-cards-css");
      l.setAttribute("blocking", "render");
      me.after(l);
    }
    d.setAttribute("data-cards", c);
  };
  try {
    var d = document.documentElement, s = window.localStorage, t = s.getItem("baraha-theme");
    if (s.getItem("baraha-four-colour") === "1") d.classList.add("four-colour");
    if (t === "light" || t === "dark") d.setAttribute("data-theme", t);
    window.barahaCards(s.getItem("baraha-card-size"));
  } catch (e) { /* storage refused (private mode): the default colours */ }
})();

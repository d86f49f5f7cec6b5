// The phone's own settings (app.js, Settings panel), applied before the first paint so that
// a dark or four-colour table, or larger cards, never flash in the other colours or sizes. A file, not an inline
// script: the Content-Security-Policy allows scripts from this server only.
(function () {
  try {
    var d = document.documentElement, s = window.localStorage, t = s.getItem("baraha-theme");
    if (s.getItem("baraha-four-colour") === "1") d.classList.add("four-colour");
    if (t === "light" || t === "dark") d.setAttribute("data-theme", t);
    var c = s.getItem("baraha-card-size");
    if (c === "large" || c === "largest") d.setAttribute("data-cards", c);
  } catch (e) { /* storage refused (private mode): the default colours */ }
})();

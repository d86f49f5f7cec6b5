/* Runs in <head> before the first paint (not deferred): the four-colour deck and the theme
   chosen in Settings, so that a dark or four-colour table never flashes in other colours. */
(function () {
  try {
    var d = document.documentElement, s = window.localStorage, t = s.getItem("baraha-theme");
    if (s.getItem("baraha-four-colour") === "1") d.classList.add("four-colour");
    if (t === "light" || t === "dark") d.setAttribute("data-theme", t);
  } catch (e) { /* private mode: the defaults */ }
})();

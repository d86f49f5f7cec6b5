/* The offline page (shown by the service worker when the server cannot be reached):
   ask the server every few seconds, and reload the page the player wanted once it answers. */
(function () {
  "use strict";
  var delay = 1000, timer = null, busy = false;
  var status = document.getElementById("offline-status");

  function back() {
    // Served in place of the page that failed to load: reloading it brings the game back.
    if (location.pathname === "/offline") location.replace("/");
    else location.reload();
  }
  function later() {
    busy = false;
    delay = Math.min(Math.round(delay * 1.5), 8000);
    // The words come from the page, in its language (data-later has {s} for the seconds).
    if (status) status.textContent = (status.getAttribute("data-later") || "No answer yet. Trying again in {s} s.")
      .replace("{s}", String(Math.ceil(delay / 1000)));
    clearTimeout(timer);
    timer = setTimeout(probe, delay);
  }
  function probe() {
    if (busy) return;
    busy = true;
    clearTimeout(timer);
    if (status) status.textContent = status.getAttribute("data-trying") || "Trying again…";
    fetch("/ping", { cache: "no-store" }).then(function (r) {
      if (r.ok) back(); else later();
    }, later);
  }
  var retry = document.getElementById("offline-retry");
  if (retry) retry.addEventListener("click", function () { delay = 1000; probe(); });
  window.addEventListener("online", probe);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) probe(); });
  timer = setTimeout(probe, delay);
})();

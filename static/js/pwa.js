/* Baraha as an installable app: register the service worker where the browser allows one.
   Browsers give service workers only to secure origins (https://, or http://localhost):
   over plain http on a LAN this does nothing and the game works exactly the same. */
(function () {
  "use strict";
  if (!window.isSecureContext || !("serviceWorker" in navigator)) return;
  function register() {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
      /* no offline shell this time; the game does not need it */
    });
  }
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
})();

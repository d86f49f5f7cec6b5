/* The offline page carries every language (the fetching phone's shown, the others in
   <template>s): show the phone's language of the moment, its `baraha-lang` cookie (set in
   Settings) or else the browser's languages, as the server would choose. Runs at the end of
   <body>, before the deferred offline.js reads the words it shows. */
(function () {
  var m = document.cookie.match(/(?:^|; )baraha-lang=([a-z]+)/), w = m && m[1];
  var d = document.documentElement;
  if (!w) {
    var langs = navigator.languages || [navigator.language || ""];
    w = "en";
    for (var i = 0; i < langs.length; i++) {
      var p = String(langs[i]).toLowerCase().split("-")[0];
      if (p === "fil" || p === "tl") { w = "fil"; break; }
      if (p === "en") break;
    }
  }
  if (d.lang === w) return;
  var t = document.querySelector('template[data-lang="' + w + '"]');
  var o = document.getElementById("offline-page");
  if (!t || !o) return;
  o.replaceWith(t.content.cloneNode(true));
  d.lang = w;
  document.title = t.getAttribute("data-title");
})();

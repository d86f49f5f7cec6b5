/* Baraha's service worker: keeps the app shell on the phone, never the game.
   Rendered by webapp/web/pwa.py; the version is a hash of the static files and of this
   template, so any change to them installs a new worker, which drops the old cache.

   - navigations: network first; when the server cannot be reached, the offline page
     (it says "Reconnecting…" and reloads by itself once the server answers again);
   - /static/: cache first (the URLs carry ?v=<content hash>, so a cached file is never stale);
   - everything else (table pages and partials, /api/, /socket.io/, posts) goes to the
     network untouched and is never stored. */
"use strict";

var VERSION = {{ version|tojson }};
var CACHE = "baraha-shell-" + VERSION;
var SHELL = {{ shell|tojson }};
var OFFLINE = {{ offline|tojson }};

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE)
      .then(function (cache) { return cache.addAll(SHELL); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (keys) {
        return Promise.all(keys.filter(function (k) {
          return k.indexOf("baraha-") === 0 && k !== CACHE;
        }).map(function (k) { return caches.delete(k); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

function offlinePage() {
  return caches.match(OFFLINE).then(function (hit) {
    return hit || new Response("Reconnecting…", {
      status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" }
    });
  });
}

function cacheFirst(request) {
  return caches.match(request).then(function (hit) {
    if (hit) return hit;
    return fetch(request).then(function (response) {
      var url = new URL(request.url);
      if (response.ok && url.searchParams.has("v")) {     // fingerprinted: safe to keep
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
      }
      return response;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Network first; the page itself is never stored (a table page is game state).
    event.respondWith(fetch(request).catch(offlinePage));
    return;
  }
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(cacheFirst(request));
  }
  // Anything else is not answered here: the browser goes to the network as usual.
});

// Referee's service worker: the static files come from its cache, pages and API answers always from the
// network (match data is never cached here); a page asked for while the network is down gets the offline
// page. Static files have content-hashed names, so a cached one never goes stale.
"use strict";
const SCOPE = {{ scope|tojson }};  // a space's own worker keeps its own cache: "referee-static-" or "referee-/s/<slug>-"
const CACHE = "referee-" + SCOPE + "static-" + {{ version|tojson }};
const PRECACHE = {{ precache|tojson }};
const OFFLINE = {{ offline|tojson }};
const STATIC = {{ static_prefix|tojson }};
const HASHED = /\.[0-9a-f]{10}\.[^./]+$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("referee-" + SCOPE + "static-") && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Network first, always: the offline page only when the network fails. Nothing is stored.
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE).then((page) => page || Response.error())));
    return;
  }
  if (url.pathname.startsWith(STATIC) && HASHED.test(url.pathname)) {
    event.respondWith(caches.open(CACHE).then((cache) => cache.match(request).then((hit) => hit || fetch(request).then((response) => {
      if (response.ok) cache.put(request, response.clone());
      return response;
    }))));
  }
  // Everything else (pages fetched by htmx, the API, exports, sheets) goes to the network untouched.
});

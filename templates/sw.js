// Referee's service worker: the static files come from its cache, pages and API answers always from the
// network; a page asked for while the network is down gets the offline page — except a match's table and its
// entry form (issue 49: a whole deal with no connection), of which it keeps the last copy fetched while online
// (PAGES, below). Static files have content-hashed names, so a cached one never goes stale.
"use strict";
const SCOPE = {{ scope|tojson }};  // a space's own worker keeps its own cache: "referee-static-" or "referee-/s/<slug>-"
const CACHE = "referee-" + SCOPE + "static-" + {{ version|tojson }};
const PRECACHE = {{ precache|tojson }};
const OFFLINE = {{ offline|tojson }};
const STATIC = {{ static_prefix|tojson }};
const HASHED = /\.[0-9a-f]{10}\.[^./]+$/;
// The rules on the phone (issue 49): Pyodide's files (named by its version) and the rules' zip and worker (named by
// their content) are kept in a cache of their own, across versions of the app (13 MB are not fetched again for a
// changed style sheet); a newer one of the same file replaces the older.
const PHONE = {{ phone_prefix|tojson }};
const PHONE_CACHE = "referee-phone";
const PHONE_PRECACHE = {{ phone_precache|tojson }};
const PHONE_OFFLINE = {{ phone_offline|tojson }};  // all of them: kept once a match's table asks (see "keep")
function family(path) { return path.replace(/\/pyodide\/[^/]+\//, "/pyodide/*/").replace(/\.[0-9a-f]{10}\./, ".*."); }
function keepPhone(cache, request, response) {
  return cache.keys().then((kept) => Promise.all(kept.map((old) => {
    const path = new URL(old.url).pathname;
    const now = new URL(request.url).pathname;
    return path !== now && family(path) === family(now) ? cache.delete(old) : null;
  }))).then(() => cache.put(request, response));
}

// A match's table (/matches/<id>) and its entry form for the next deal (/matches/<id>/deals/new), each the last copy
// this phone fetched while online (never a correction's form, an API answer or another page), kept under this
// worker's scope (a space's pages under its own prefix, in its own cache) and served only when the network fails,
// marked <html data-kept="<when it was fetched>"> so the page knows it may be out of date (static/entry.js gives
// a kept entry form a fresh idempotency key). The last KEPT_PAGES pages are kept; older ones go.
const PAGES = "referee-" + SCOPE + "pages";
const KEPT_PAGES = 40;
const LOGOUT = {{ logout|tojson }};
const ROOT = SCOPE ? SCOPE.slice(0, -1) : "";  // the space's prefix (/s/<slug>), or nothing
function keptPage(url) {
  const path = new URL(url).pathname;
  return path.startsWith(ROOT + "/matches/") && /^\/matches\/\d+(\/deals\/new)?\/?$/.test(path.slice(ROOT.length));
}
// Sign-outs begun, and those still on their way. A page is kept only if no sign-out began after its fetch did, and
// none was on its way then (its answer may be for the session being ended): the table asks for its entry form to be
// kept, and that fetch may end after a sign-out has forgotten the pages. ``since`` is ``keepingFrom()`` taken when
// the page's fetch began.
let signOuts = 0;
let signingOut = 0;
function keepingFrom() { return signingOut ? -1 : signOuts; }
function keepPage(path, response, since) {
  if (!response.ok || response.redirected || !(response.headers.get("Content-Type") || "").startsWith("text/html")) return null;
  const still = () => since === signOuts;
  return response.clone().text().then((html) => !still() ? null : caches.open(PAGES).then((cache) => !still() ? null :
    cache.put(path, new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Referee-Kept": String(Date.now()) } }))
      .then(() => cache.keys()).then((keys) => Promise.all(keys.slice(0, Math.max(0, keys.length - KEPT_PAGES)).map((old) => cache.delete(old))))));
}
function keptCopy(path) {
  return caches.open(PAGES).then((cache) => cache.match(path)).then((hit) => hit && hit.text().then((html) =>
    new Response(html.replace("<html", '<html data-kept="' + hit.headers.get("Referee-Kept") + '"'),
                 { headers: { "Content-Type": "text/html; charset=utf-8" } })));
}
// A page asks for its match's pages to be kept ({kind: "keep", urls}): the entry form before it is ever opened, the
// table on the first visit (before this worker controlled the page). Fetched as the page would (its cookies).
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.kind !== "keep" || !Array.isArray(data.urls)) return;
  // The rules on the phone too (a form opened with no connection answers its taps on the phone).
  const rules = caches.open(PHONE_CACHE).then((cache) => Promise.all(PHONE_OFFLINE.map((url) =>
    cache.match(url).then((hit) => hit || fetch(url).then((response) => response.ok && keepPhone(cache, new Request(url), response))))))
    .catch(() => null);
  event.waitUntil(Promise.all([rules].concat(data.urls.map((url) => {
    const at = new URL(url, self.location.origin);
    if (at.origin !== self.location.origin || !keptPage(at.href)) return null;
    const since = keepingFrom();
    return fetch(at.pathname, { credentials: "same-origin" }).then((response) => keepPage(at.pathname, response, since)).catch(() => null);
  }))));
});

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE))
    .then(() => caches.open(PHONE_CACHE)).then((cache) => Promise.all(PHONE_PRECACHE.map((url) =>
      cache.match(url).then((hit) => hit || fetch(url).then((response) => response.ok && keepPhone(cache, new Request(url), response))))))
    .then(() => self.skipWaiting()));
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
  if (request.method === "POST" && new URL(request.url).pathname === LOGOUT) {
    // Signing out forgets the pages kept for offline: the next person at this phone does not find them. Forgotten
    // before the sign-out is sent, so the page it leads to finds them gone.
    signOuts += 1;
    signingOut += 1;
    event.respondWith(caches.delete(PAGES).then(() => fetch(request)).finally(() => { signingOut -= 1; }));
    return;
  }
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Network first, always: the offline page only when the network fails (a match's kept page, for its table and
    // its entry form: PAGES).
    const kept = keptPage(request.url);
    const fresh = !url.pathname.endsWith("/new") || !url.search;  // an entry form opened with a first answer is not kept
    const since = keepingFrom();
    event.respondWith(fetch(request).then((response) => {
      if (kept && fresh) event.waitUntil(keepPage(url.pathname, response, since) || Promise.resolve());
      return response;
    }).catch(() => (kept ? keptCopy(url.pathname) : Promise.resolve(null))
      .then((page) => page || caches.match(OFFLINE).then((offline) => offline || Response.error()))));
    return;
  }
  if (url.pathname.startsWith(PHONE)) {
    event.respondWith(caches.open(PHONE_CACHE).then((cache) => cache.match(request).then((hit) => hit || fetch(request).then((response) => {
      if (response.ok) keepPhone(cache, request, response.clone());
      return response;
    }))));
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

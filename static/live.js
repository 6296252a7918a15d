// Referee: live pages follow the other phones (the match page, the entry form's head, the director's page, the
// board, a shared table: one mechanism), and the table stays readable offline.
//  - The part of a page marked data-live asks its URL every data-every ms (else 1.5 s) while the page is visible,
//    with If-None-Match: its data-etag. Referee answers 304 (nothing changed: one small query; a shared table 204)
//    or the part as it is now, which is swapped in ("referee:live") — open <details> stay open, and nothing
//    being typed is touched (the entry form's fields are not in that part).
//  - The match page's table is kept on this phone (IndexedDB, not the HTTP cache) each time it is drawn; when
//    the connection is gone, the page says "Offline — the table as of 21:14", and the offline page (served by
//    the service worker) shows the last table seen instead of a bare "No connection".
//  - Logging out forgets the kept tables.
//  - A table phone whose link the director revoked is told so (403 with Referee-Refusal: link-replaced), never
//    "offline"; the director's page follows the event the same way (its region names its own offline words).
//  - Pushed (issue 49): each request asks with ?wait=1, and Referee holds it until what the part shows changed (then
//    answers it: another phone's deal appears within one round trip of its save) or 25 s passed (304); the next
//    is sent at once. A long poll rather than an event stream: a whole answer passes every proxy, and the held
//    requests have threads of their own (REFEREE_LIVE_WAITERS, referee/web/push.py). Where Referee answers
//    "Referee-Push: off" (no thread free for it, or a server that holds nothing) the page asks every 1.5 s as it
//    always did, without ?wait=1, and tries to be held again 20 asks later. A held request that fails (a proxy
//    that cuts it, a lost connection) is followed at once by a plain one, which alone says "offline"; after two
//    held requests failed where the plain one did not, the page keeps to the plain poll.
(function () {
  "use strict";
  var EVERY_MS = 1500;
  var HELD_MS = 40000;  // a held request longer than this (Referee answers within 25 s) is given up: a plain one
  var PUSH_FAILURES = 2;  // held requests failed in a row before the page keeps to the plain poll
  var DB_NAME = "referee";
  var STORE = "tables";
  var KEEP = 20;  // tables kept on the phone, the most recently seen

  var say = window.refereeWords.say;  // static/app.js
  function clock(at) {
    var lang = document.documentElement.lang || undefined;
    try { return new Date(at).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }); }
    catch (e) { return new Date(at).toTimeString().slice(0, 5); }
  }

  // ---- the tables kept on this phone (IndexedDB) ---------------------------------------------
  function openDb() {
    return new Promise(function (resolve, reject) {
      if (!window.indexedDB) { reject(new Error("no IndexedDB")); return; }
      var request = window.indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = function () { request.result.createObjectStore(STORE, { keyPath: "id" }); };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }
  function withStore(mode, work) {
    return openDb().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var result = work(tx.objectStore(STORE));
        tx.oncomplete = function () { db.close(); resolve(result && result.result !== undefined ? result.result : result); };
        tx.onerror = function () { db.close(); reject(tx.error); };
      });
    });
  }
  function allKept() {
    return withStore("readonly", function (store) { return store.getAll(); }).then(function (rows) {
      return (rows || []).sort(function (a, b) { return b.at - a.at; });
    });
  }
  function keepTable(region) {
    var id = region.dataset.match;
    if (!id) return;
    var row = {
      id: String(id), html: region.outerHTML, title: region.dataset.title || document.title,
      heading: (document.querySelector("h1.match-title") || {}).outerHTML || "", at: Date.now(),
      lang: document.documentElement.lang || "", url: window.location.pathname,
    };
    withStore("readwrite", function (store) { store.put(row); }).then(allKept).then(function (rows) {
      var old = rows.slice(KEEP);
      if (old.length) return withStore("readwrite", function (store) { old.forEach(function (r) { store.delete(r.id); }); });
    }).catch(function () { /* private mode or no IndexedDB: the page still works, only without the copy */ });
  }
  function forgetTables() {
    return withStore("readwrite", function (store) { store.clear(); }).catch(function () { /* nothing kept */ });
  }
  window.refereeTables = { all: allKept, forget: forgetTables };

  // ---- following the match -------------------------------------------------------------------
  function region() { return document.querySelector("[data-live]"); }
  var lastSeen = Date.now();  // when this page last had the match as Referee has it
  var timer = null;
  var inFlight = false;
  var stopped = false;
  var held = true;  // the next request asks to be held (?wait=1)
  var pushed = false;  // Referee said it holds this page's requests (Referee-Push: held): ask again at once
  var pushFailures = 0;
  var plainAsks = 0;  // after "Referee-Push: off": asks sent plain before the page tries to be held again
  var PLAIN_AFTER_OFF = 20;
  var suspect = false;  // a held request failed: the plain one sent after it tells whose fault it was

  function openDetails(el) {
    // Which <details> are open, by the id of the nearest element that has one and their place under it.
    var open = {};
    el.querySelectorAll("details").forEach(function (d) {
      if (!d.open) return;
      var owner = d.id ? d : (d.parentElement && d.parentElement.closest("[id]"));
      var key = d.id || ((owner ? owner.id : "") + ":" + Array.prototype.indexOf.call(
        (owner || el).querySelectorAll("details"), d));
      open[key] = true;
    });
    return open;
  }
  function reopen(el, open) {
    el.querySelectorAll("details").forEach(function (d) {
      var owner = d.id ? d : (d.parentElement && d.parentElement.closest("[id]"));
      var key = d.id || ((owner ? owner.id : "") + ":" + Array.prototype.indexOf.call(
        (owner || el).querySelectorAll("details"), d));
      if (open[key] && !d.open) d.open = true;
    });
  }
  function busyEntry() {
    var form = document.getElementById("entry");
    return !!(form && (form.getAttribute("aria-busy") === "true" || form.querySelector(".htmx-request")));
  }

  function swapIn(old, html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    var fresh = template.content.querySelector("#" + old.id) || template.content.firstElementChild;
    if (!fresh) return null;
    var open = openDetails(old);
    old.replaceWith(fresh);
    reopen(fresh, open);
    if (window.htmx) window.htmx.process(fresh);
    document.dispatchEvent(new CustomEvent("referee:live", { detail: { element: fresh } }));
    return fresh;
  }

  // The note shown or hidden: "referee:live-state" (board.js lays the board out again).
  function showState(el, offline) {
    var note = el && el.querySelector("#offline-note, #live-state");
    var was = note ? note.hidden : null;
    setState(el, offline);
    if (note && note.hidden !== was) {
      document.dispatchEvent(new CustomEvent("referee:live-state", { detail: { element: el, offline: !note.hidden } }));
    }
  }
  function setState(el, offline) {
    if (!el) return;
    var note = el.querySelector("#offline-note, #live-state");
    if (!note) return;
    if (offline === "signed-out") {
      note.textContent = say("live_signed_out", "Signed out: reload the page to sign in and follow the table again.");
      note.hidden = false;
    } else if (offline === "replaced") {
      // Not a connection problem: the director revoked this table's link (Referee says so: Referee-Refusal).
      note.textContent = say("live_replaced", "This table's link was replaced by the director: scan the new card. " +
                             "What this phone has typed is kept, and sent once the new card is opened.");
      note.hidden = false;
      document.body.classList.add("is-replaced");
      return;
    } else if (offline) {
      var key = el.dataset.offline || "live_offline";  // the director's page: "the event as of …"
      note.textContent = say(key, "Offline — the table as of {time}. Deals saved on this phone are sent " +
                             "when the connection is back.", { time: clock(lastSeen) });
      note.hidden = false;
    } else {
      note.hidden = true;
      note.textContent = "";
    }
    document.body.classList.remove("is-replaced");
    document.body.classList.toggle("is-offline", !!offline);
  }

  function poll() {
    timer = null;
    var el = region();
    if (!el || stopped || inFlight) return;
    if (document.visibilityState === "hidden") return;  // asked again when the page is shown
    if (busyEntry()) { schedule(); return; }  // the form is being re-rendered: its own answer has the head
    inFlight = true;
    var asking = held && plainAsks === 0 && pushFailures < PUSH_FAILURES && window.AbortController && window.URL;
    if (plainAsks > 0) plainAsks -= 1;
    var url = el.dataset.live;
    var abort = null;
    var options = {
      credentials: "same-origin", cache: "no-store", redirect: "follow",
      headers: { "If-None-Match": el.dataset.etag || "", "HX-Request": "true" },
    };
    if (asking) {
      var target = new URL(url, window.location.href);  // data-live is Referee's own URL (its /s/<slug> too)
      target.searchParams.set("wait", "1");
      url = target.pathname + target.search;
      var controller = new window.AbortController();
      options.signal = controller.signal;
      abort = window.setTimeout(function () { controller.abort(); }, HELD_MS);
    }
    window.fetch(url, options).then(function (response) {
      if (abort !== null) window.clearTimeout(abort);
      pushed = !!asking && response.headers.get("Referee-Push") === "held";
      if (asking && !pushed) plainAsks = PLAIN_AFTER_OFF;  // not held here (now): the usual pace, plain, a while
      if (asking && response.status >= 500) throw new Error(String(response.status));  // a proxy's 502/504
      if (asking) pushFailures = 0;
      if (response.redirected) {  // the session ended: the login page came back instead
        stopped = true;
        showState(region(), "signed-out");
        return null;
      }
      if (response.status === 304 || response.status === 204) {  // unchanged (a shared table says 204)
        lastSeen = Date.now();
        showState(region(), false);
        return null;
      }
      if (response.status === 404) { stopped = true; return null; }
      if (response.status === 403 && response.headers.get("Referee-Refusal") === "link-replaced") {
        showState(region(), "replaced");  // asked again: once the new card is opened, this page follows again
        return null;
      }
      if (!response.ok) throw new Error(String(response.status));
      return response.text().then(function (html) {
        var current = region();
        if (!current || current.id !== el.id || busyEntry()) return;  // the page moved on meanwhile
        var etag = response.headers.get("ETag");
        var fresh = swapIn(current, html);
        if (fresh && etag) fresh.dataset.etag = etag;
        lastSeen = Date.now();
        showState(fresh, false);
        if (fresh && fresh.id === "live-table") keepTable(fresh);
      });
    }).then(function () {
      if (!asking && suspect) pushFailures += 1;  // the connection is there: it was the held request that failed
      suspect = false;
      held = true;
      return pushed ? 0 : undefined;
    }, function () {
      if (abort !== null) window.clearTimeout(abort);
      pushed = false;
      if (asking) {  // a held request failed: a plain one, at once, says whether the connection is there
        suspect = true;
        held = false;
        return 0;
      }
      suspect = false;  // the connection is gone: not the held requests' fault
      held = true;
      showState(region(), true);
      return undefined;
    }).then(function (delay) {
      inFlight = false;
      schedule(delay);
    });
  }
  function every() {
    var el = region();
    return (el && Number(el.dataset.every)) || EVERY_MS;
  }
  function schedule(delay) {
    if (stopped || timer !== null) return;
    timer = window.setTimeout(poll, delay === undefined ? every() : delay);
  }
  function now() {
    if (timer !== null) { window.clearTimeout(timer); timer = null; }
    schedule(0);
  }
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") now(); });
  window.addEventListener("online", now);
  window.addEventListener("offline", function () { showState(region(), true); });

  // ---- the offline page: the last table seen, instead of a bare "No connection" ----------------
  function showKept() {
    var slot = document.getElementById("offline-table");
    if (!slot) return;
    var root = document.documentElement.dataset.root || "";  // a space's prefix (spaces on): not the route's
    var path = window.location.pathname;
    var m = (root && path.indexOf(root + "/") === 0 ? path.slice(root.length) : path).match(/^\/matches\/(\d+)(\/|$)/);
    allKept().then(function (rows) {
      var row = m && rows.filter(function (r) { return r.id === m[1]; })[0];
      if (row) {
        // The page's own heading stays "No connection" (one h1): the match's title comes as the table's heading.
        slot.innerHTML = row.heading.replace(/^<h1\b/, "<h2").replace(/<\/h1>$/, "</h2>") + row.html;
        var table = slot.querySelector("#live-table");
        if (table) {
          table.removeAttribute("data-live");  // nothing to follow: it is a copy
          table.querySelectorAll("button, input, select, textarea").forEach(function (c) { c.disabled = true; });
          var note = table.querySelector("#offline-note");
          if (note) {
            note.textContent = say("live_offline", "Offline — the table as of {time}. Deals saved on this phone are " +
                                   "sent when the connection is back.", { time: clock(row.at) });
            note.hidden = false;
          }
        }
        slot.hidden = false;
        document.body.classList.add("is-offline", "has-kept-table");
        document.dispatchEvent(new CustomEvent("referee:live", { detail: { element: slot } }));
        return;
      }
      var list = document.getElementById("kept-tables");
      if (!list || !rows.length) return;
      rows.forEach(function (r) {
        var li = document.createElement("li");
        var a = document.createElement("a");
        a.href = (document.documentElement.dataset.root || "") + "/matches/" + r.id;
        a.textContent = r.title;
        li.appendChild(a);
        li.appendChild(document.createTextNode(" — " + say("as_of", "as of {time}", { time: clock(r.at) })));
        list.appendChild(li);
      });
      list.parentElement.hidden = false;
    }).catch(function () { /* nothing kept on this phone */ });
  }

  // ---- start ---------------------------------------------------------------------------------
  document.addEventListener("submit", function (event) {
    if (event.target.closest && event.target.closest("form.logout")) forgetTables();
  }, true);
  var first = region();
  if (first && first.id === "live-table") keepTable(first);
  if (first) schedule(0);  // held by Referee until something changes (or answered at once: "Referee-Push: off")
  showKept();
})();

// Referee on a phone: the service worker (installable app, offline page) and the screen kept awake.
// No inline scripts anywhere (CSP): base.html marks the pages that want the screen on with <body data-awake>.
(function () {
  "use strict";
  var script = document.currentScript;

  // Browsers allow service workers only in a secure context: https, or localhost.
  if ("serviceWorker" in navigator && window.isSecureContext && script && script.dataset.sw) {
    navigator.serviceWorker.register(script.dataset.sw, { scope: script.dataset.scope || "/" }).catch(function () { /* the app works without it */ });
  }

  // A space this browser is signed in to (spaces on): remembered on the phone, for the service's home page to list.
  if (script && script.dataset.space) {
    try {
      var known = JSON.parse(localStorage.getItem("referee.spaces") || "[]").filter(function (s) { return s && s.slug !== script.dataset.space; });
      known.unshift({ slug: script.dataset.space, name: script.dataset.spaceName, url: script.dataset.spaceHome, seen: Date.now() });
      localStorage.setItem("referee.spaces", JSON.stringify(known.slice(0, 50)));
    } catch (e) { /* private mode: nothing kept */ }
  }

  // Screen Wake Lock: keep the screen on while a match or a deal entry is open, unless turned off here.
  // body[data-awake] says where it stands: wanted → on | off | released | unavailable | refused.
  var body = document.body;
  var bar = document.getElementById("awake");
  if (!body.hasAttribute("data-awake") || !bar) return;
  var KEY = "referee.keep-screen-on";
  var toggle = document.getElementById("awake-toggle");
  var state = document.getElementById("awake-state");
  var note = document.getElementById("awake-note");
  var sentinel = null;
  var asking = false;

  function wanted() {
    try { return window.localStorage.getItem(KEY) !== "off"; } catch (e) { return true; }
  }
  function remember(on) {
    try { window.localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* private mode: this page only */ }
  }
  function show(where) {
    body.setAttribute("data-awake", where);
    var on = wanted();
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
    state.textContent = on ? (state.dataset.on || "On") : (state.dataset.off || "Off");  // words from the page: its language
  }

  bar.hidden = false;
  if (!("wakeLock" in navigator)) {
    // Plain http on a LAN address, or an older browser: say what would make it work, nothing more.
    toggle.hidden = true;
    note.hidden = false;
    body.setAttribute("data-awake", "unavailable");
    return;
  }

  function acquire() {
    if (!wanted() || sentinel || asking || document.visibilityState !== "visible") return;
    asking = true;
    navigator.wakeLock.request("screen").then(function (lock) {
      asking = false;
      if (!wanted()) { lock.release(); return; }  // turned off while asking
      sentinel = lock;
      show("on");
      lock.addEventListener("release", function () {
        sentinel = null;
        if (wanted()) show("released");  // the page was hidden: asked again when it is visible
      });
    }).catch(function () {
      asking = false;
      show("refused");  // e.g. battery saver; tapping the toggle or coming back to the page asks again
    });
  }
  function release() {
    if (sentinel) { var lock = sentinel; sentinel = null; lock.release(); }
  }

  toggle.addEventListener("click", function () {
    var on = !wanted();
    remember(on);
    if (on) { show("wanted"); acquire(); } else { release(); show("off"); }
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") acquire();
  });
  window.addEventListener("pageshow", acquire);  // back from the back/forward cache
  show(wanted() ? "wanted" : "off");
  acquire();
})();

// Referee: the little JavaScript beyond htmx. No inline scripts anywhere.
// window.refereeWords: the sentences in the page's language (base.html's meta) for every script; English if missing.
(function () {
  "use strict";
  function words() {
    try { return JSON.parse(document.getElementById("script-words").content) || {}; } catch (e) { return {}; }
  }
  function say(key, english, values, noun) {
    var text = words()[key];
    if (noun && text && typeof text === "object") text = text[noun];
    if (typeof text !== "string") text = english;
    Object.keys(values || {}).forEach(function (name) { text = text.split("{" + name + "}").join(values[name]); });
    return text;
  }
  function noun(name) { return (words().nouns || {})[name] || name; }
  window.refereeWords = { words: words, say: say, noun: noun };
})();
(function () {
  "use strict";
  var say = window.refereeWords.say;
  // A request htmx does not swap (404, 409, 500...): say so at the top instead of failing silently.
  document.addEventListener("htmx:responseError", function (event) {
    var flash = document.getElementById("flash");
    if (!flash) return;
    var text = say("went_wrong", "Something went wrong ({status}).", { status: event.detail.xhr.status });
    var signIn = null;
    try {
      var doc = new DOMParser().parseFromString(event.detail.xhr.responseText, "text/html");
      var p = doc.querySelector(".error-page p");
      if (p) text = p.textContent;
      // Signed out (401): the fragment's link to sign in and come back, kept only if it is this site's login page.
      signIn = event.detail.xhr.status === 401 ? doc.querySelector("#signed-out a.sign-in") : null;
    } catch (e) { /* keep the generic text */ }
    flash.textContent = text;
    var href = signIn && signIn.getAttribute("href");
    if (href && href.indexOf((document.documentElement.dataset.root || "") + "/login?") === 0) {
      var link = document.createElement("a");
      link.className = "sign-in";
      link.href = href;
      link.textContent = signIn.textContent;
      flash.appendChild(document.createTextNode(" "));
      flash.appendChild(link);
    }
    flash.hidden = false;
    window.scrollTo(0, 0);
  });
  document.addEventListener("htmx:sendError", function () {
    var flash = document.getElementById("flash");
    if (!flash) return;
    flash.textContent = say("unreachable", "Referee cannot be reached. Your entry is still here: try again.");
    flash.hidden = false;
  });
  // New match: the "who deals first" chips show the names as they are typed.
  function mirror(input) {
    document.querySelectorAll('[data-mirror="' + input.name + '"]').forEach(function (span) {
      span.textContent = input.value.trim() || say("player", "Player {number}", { number: Number(input.name.slice(7)) + 1 });
    });
  }
  document.addEventListener("input", function (event) {
    var input = event.target;
    if (input.name && input.name.indexOf("player-") === 0) mirror(input);
  });
  document.querySelectorAll('input[name^="player-"]').forEach(mirror);
  // A field that only makes sense with one choice (a number of deals: "a number of deals" a round) chooses it.
  document.addEventListener("input", function (event) {
    var chooses = event.target.dataset && event.target.dataset.chooses;
    if (!chooses || !event.target.value) return;
    var parts = chooses.split("=");
    var choice = document.querySelector('input[name="' + parts[0] + '"][value="' + parts[1] + '"]');
    if (choice && !choice.checked) { choice.checked = true; choice.dispatchEvent(new Event("change", { bubbles: true })); }
  });
  // Text typed while a request is on its way must survive that request's swap: remember what is
  // typed after each request starts, and put it back into the swapped-in field with the same id.
  var typed = {};
  document.addEventListener("htmx:beforeRequest", function () {
    typed = {};
    var flash = document.getElementById("flash");
    if (flash) flash.hidden = true;
  });
  document.addEventListener("input", function (event) {
    var field = event.target;
    if (field.id && field.tagName === "INPUT" && field.type === "text") typed[field.id] = field.value;
  });
  document.addEventListener("htmx:afterSwap", function () {
    Object.keys(typed).forEach(function (id) {
      var field = document.getElementById(id);
      if (field && field.value !== typed[id]) field.value = typed[id];
    });
  });
  // The round clock (issue 37, _round_clock.html): the time left counted down from data-ends (the end, in UTC; empty
  // while paused: the page shows the time left as the server had it) by the server's clock — the Date of one answer
  // of the server tells how far this device's clock is off. At 0: "Last deal".
  var skew = 0, synced = false;
  function sync(clock) {
    if (synced || !window.fetch || !clock.dataset.sync) return;
    synced = true;
    var asked = Date.now();
    fetch(clock.dataset.sync, { cache: "no-store", credentials: "same-origin" }).then(function (response) {
      var server = Date.parse(response.headers.get("Date") || "");
      // the Date header is to the second: its middle, against the middle of the request's way there and back
      if (!isNaN(server)) skew = server + 500 - (asked + Date.now()) / 2;
    }).catch(function () { /* this device's own clock, then */ });
  }
  var SOON = 300; // the last five minutes are shown in amber (as _round_clock.html draws them)
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    document.querySelectorAll("[data-clock]").forEach(function (clock) {
      if (!clock.dataset.ends) return;
      sync(clock);
      var left = Math.max(0, Math.ceil((Date.parse(clock.dataset.ends) - (Date.now() + skew)) / 1000));
      if (isNaN(left)) return;
      var hours = Math.floor(left / 3600), minutes = Math.floor(left % 3600 / 60), seconds = left % 60;
      var time = clock.querySelector("[data-clock-time]");
      var text = (hours ? hours + ":" + pad(minutes) : pad(minutes)) + ":" + pad(seconds);
      if (time && time.textContent !== text) {
        time.textContent = text;
        time.setAttribute("datetime", "PT" + Math.floor(left / 60) + "M" + seconds + "S");
      }
      var last = clock.querySelector("[data-clock-last]");
      if (last && last.hidden !== (left > 0)) last.hidden = left > 0;
      clock.classList.toggle("up", left === 0);
      clock.classList.toggle("soon", left > 0 && left <= SOON);
    });
  }
  tick();
  setInterval(tick, 250);
})();

// Referee: the little JavaScript beyond htmx. No inline scripts anywhere.
(function () {
  "use strict";
  // The sentences in the page's language (a meta element of base.html); English if it is missing.
  function say(key, english, values) {
    var text = english;
    try {
      var words = JSON.parse(document.getElementById("script-words").content);
      if (typeof words[key] === "string") text = words[key];
    } catch (e) { /* English */ }
    Object.keys(values || {}).forEach(function (name) { text = text.split("{" + name + "}").join(values[name]); });
    return text;
  }
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
    if (href && href.indexOf("/login?") === 0) {
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
})();

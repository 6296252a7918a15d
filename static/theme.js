// Referee: the colour theme chosen on this phone (light, dark, or automatic = follow the phone),
// applied before the page is painted. Loaded in <head> without defer; CSP forbids inline scripts.
// A tap always switches to the opposite of what is shown; choosing what the phone itself shows is
// "automatic" again (stored as nothing), so no tap is ever a no-op and two taps come back to automatic.
(function () {
  "use strict";
  var KEY = "referee-theme";
  var SIGNS = { auto: "◐", light: "☀", dark: "☾" };
  // English until the page's words are read (static/app.js's refereeWords; a page without them, unavailable.html, stays English)
  var WORDS = { auto: "Theme: automatic ({scheme})", light: "Theme: light", dark: "Theme: dark",
                schemes: { light: "light", dark: "dark" }, tap: "{theme} — tap for {next}" };
  var phone = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  function phoneScheme() { return phone && phone.matches ? "dark" : "light"; }
  function stored() {
    try { var t = localStorage.getItem(KEY); return t === "light" || t === "dark" ? t : "auto"; } catch (e) { return "auto"; }
  }
  function shown(theme) { return theme === "auto" ? phoneScheme() : theme; }
  function fill(text, values) {
    return String(text).replace(/\{(\w+)\}/g, function (all, name) { return name in values ? values[name] : all; });
  }
  function readWords() {  // static/app.js, run by then (a deferred script: before DOMContentLoaded)
    var given = window.refereeWords ? window.refereeWords.words().theme : null;
    if (given) for (var key in WORDS) if (given[key]) WORDS[key] = given[key];
  }
  function apply(theme) {
    if (theme === "auto") document.documentElement.removeAttribute("data-theme");
    else document.documentElement.setAttribute("data-theme", theme);
    var button = document.getElementById("theme-toggle");
    if (button) {
      var now = shown(theme), next = now === "dark" ? "light" : "dark";
      var name = theme === "auto" ? fill(WORDS.auto, { scheme: WORDS.schemes[now] }) : WORDS[theme];
      button.textContent = SIGNS[theme];
      button.setAttribute("aria-label", fill(WORDS.tap, { theme: name, next: WORDS.schemes[next] }));
      button.title = name;
    }
  }
  function choose(theme) {
    var next = shown(theme) === "dark" ? "light" : "dark";
    var chosen = next === phoneScheme() ? "auto" : next;  // what the phone shows anyway: follow the phone again
    try {
      if (chosen === "auto") localStorage.removeItem(KEY); else localStorage.setItem(KEY, chosen);
    } catch (e) { /* private mode: this page only */ }
    return chosen;
  }
  var current = stored();
  apply(current);
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("theme-toggle");
    if (!button) return;
    readWords();
    button.hidden = false;
    current = stored();
    apply(current);
    button.addEventListener("click", function () {
      current = choose(current);
      apply(current);
    });
    // the phone switching between light and dark while the page is open: an automatic theme's label follows
    if (phone && phone.addEventListener) phone.addEventListener("change", function () { apply(current); });
  });
})();

// Referee: the colour theme chosen on this phone (light, dark, or automatic = follow the phone),
// applied before the page is painted. Loaded in <head> without defer; CSP forbids inline scripts.
(function () {
  "use strict";
  var KEY = "referee-theme";
  var NAMES = { auto: "Theme: automatic", light: "Theme: light", dark: "Theme: dark" };
  var SIGNS = { auto: "◐", light: "☀", dark: "☾" };
  function stored() {
    try { var t = localStorage.getItem(KEY); return t === "light" || t === "dark" ? t : "auto"; } catch (e) { return "auto"; }
  }
  function apply(theme) {
    if (theme === "auto") document.documentElement.removeAttribute("data-theme");
    else document.documentElement.setAttribute("data-theme", theme);
    var button = document.getElementById("theme-toggle");
    if (button) {
      button.textContent = SIGNS[theme];
      button.setAttribute("aria-label", NAMES[theme] + " (tap to change)");
      button.title = NAMES[theme];
    }
  }
  apply(stored());
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("theme-toggle");
    if (!button) return;
    button.hidden = false;
    apply(stored());
    button.addEventListener("click", function () {
      var next = { auto: "light", light: "dark", dark: "auto" }[stored()];
      try { localStorage.setItem(KEY, next); } catch (e) { /* private mode: this page only */ }
      apply(next);
    });
  });
})();

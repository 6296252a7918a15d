// The service's pages (spaces on, issue 48): "Your spaces" on the root page — the spaces this phone was signed in to,
// as static/device.js keeps them in localStorage "referee.spaces" ({slug, name, url, seen}), newest first, each
// with a button to forget it on this phone; the copy buttons of a space's secrets; and the match page's "Bring the
// other phones", kept folded on this phone once folded. The words come from the page (data-*): no text here.
(function () {
  "use strict";
  var KEY = "referee.spaces";

  function known() {
    try {
      var list = JSON.parse(localStorage.getItem(KEY) || "[]");
      return Array.isArray(list) ? list.filter(function (s) { return s && typeof s.slug === "string" && typeof s.url === "string"; }) : [];
    } catch (e) { return []; }
  }

  function sameOrigin(url) {
    try { return new URL(url, location.href).origin === location.origin; } catch (e) { return false; }
  }

  function showSpaces() {
    var section = document.getElementById("my-spaces");
    var list = document.getElementById("my-spaces-list");
    if (!section || !list) { return; }
    var spaces = known().filter(function (s) { return sameOrigin(s.url); })
      .sort(function (a, b) { return (b.seen || 0) - (a.seen || 0); });
    list.textContent = "";
    spaces.forEach(function (space) {
      var item = document.createElement("li");
      item.className = "my-space";
      var link = document.createElement("a");
      link.className = "match-link";
      link.href = space.url;
      link.dataset.slug = space.slug;
      var name = document.createElement("span");
      name.className = "space-title";
      name.textContent = space.name || space.slug;
      link.appendChild(name);
      if (space.seen) {
        var seen = document.createElement("span");
        seen.className = "match-game";
        var when = new Date(space.seen).toLocaleDateString(document.documentElement.lang || undefined, { day: "numeric", month: "short", year: "numeric" });
        seen.textContent = (section.dataset.seen || "{date}").replace("{date}", when);
        link.appendChild(seen);
      }
      var forget = document.createElement("button");
      forget.type = "button";
      forget.className = "button small forget-space";
      forget.textContent = section.dataset.forget || "×";
      forget.setAttribute("aria-label", (section.dataset.forgetLabel || "{name}").replace("{name}", space.name || space.slug));
      forget.addEventListener("click", function () {
        try {
          localStorage.setItem(KEY, JSON.stringify(known().filter(function (s) { return s.slug !== space.slug; })));
        } catch (e) { /* private mode: nothing kept anyway */ }
        showSpaces();
      });
      item.appendChild(link);
      item.appendChild(forget);
      list.appendChild(item);
    });
    section.hidden = spaces.length === 0;
  }

  function copyButtons() {
    document.querySelectorAll("button[data-copy]").forEach(function (button) {
      var source = document.getElementById(button.dataset.copy);
      if (!source || !navigator.clipboard) { return; }
      button.hidden = false;
      var label = button.textContent;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(source.textContent.trim()).then(function () {
          button.textContent = "✓ " + (button.dataset.copied || label);
          setTimeout(function () { button.textContent = label; }, 2500);
        }, function () { /* not allowed: the text is there to select */ });
      });
    });
  }

  function bringPanel() {
    var panel = document.getElementById("bring-phones");
    if (!panel || !panel.dataset.foldKey) { return; }
    try {
      if (localStorage.getItem(panel.dataset.foldKey) === "folded") { panel.open = false; }
    } catch (e) { /* nothing kept: it stays as the page says */ }
    panel.addEventListener("toggle", function () {
      try { localStorage.setItem(panel.dataset.foldKey, panel.open ? "open" : "folded"); } catch (e) { /* private mode */ }
    });
  }

  function ready() {
    showSpaces();
    copyButtons();
    bringPanel();
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", ready); } else { ready(); }
  // Back to the root page from a space (the browser's back button): the list as this phone keeps it now.
  window.addEventListener("pageshow", function (e) { if (e.persisted) { showSpaces(); } });
}());

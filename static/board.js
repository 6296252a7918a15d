// Referee: the board on the club room's screen (templates/event_board.html) fits the screen it is on.
//  - The standings: as many rows as the screen holds, in as many columns as its width holds, a page at a time,
//    each page held PAGE_MS (about 8 s: long enough to find one's name). Every row is on screen within about
//    CYCLE_MS (30 s): where more pages than that would take are needed, the type is made smaller, down to
//    MIN_PX (still readable from across a room), and only then are the pages held a little less. The width comes
//    first (issue 47): the type is made smaller, down to FEWEST_PAGES_FROM of it, where more columns save a page.
//  - The tables (or, after a draw, who sits where): as many as fit beside the standings, turned on the same clock.
//  - live.js asks for the board again every few seconds (data-live on #board, as every live page): after each
//    swap the page shown is kept.
//  - A narrow screen (a phone) is not paged: it scrolls, as any page.
(function () {
  "use strict";
  var PAGE_MS = 8000;
  var CYCLE_MS = 30000;
  var MIN_PAGE_MS = 5000;
  var MIN_PX = 18;
  var FEWEST_PAGES_FROM = 0.6;  // of the largest type: how much smaller it may be set to save pages (issue 47)
  var WIDE = "(min-width: 700px)";
  var state = { page: 0, shownAt: Date.now(), scale: 1, timer: null };  // scale: of the type, as last laid out

  function board() { return document.getElementById("board"); }
  function pageWords(page, pages) {
    var words = document.getElementById("board-words");
    var text = words ? words.dataset.page : "page {page} of {pages}";
    return text.split("{page}").join(String(page)).split("{pages}").join(String(pages));
  }
  function bottomLimit() { return window.innerHeight - 6; }

  // The standings' rows, set in columns of `perColumn` rows: one table a column, each with the heading.
  function columns(region, rows, perColumn) {
    var table = region.querySelector("table.standings");
    var wrap = region.querySelector("[data-columns]");
    if (!table || !wrap) return [];
    wrap.classList.add("standings-columns");
    Array.prototype.slice.call(wrap.querySelectorAll("table.standings")).forEach(function (t, i) { if (i) t.remove(); });
    var made = [table];
    var body = table.tBodies[0];
    rows.forEach(function (row) { body.appendChild(row); });
    for (var at = perColumn; at < rows.length; at += perColumn) {
      var copy = table.cloneNode(false);
      copy.appendChild(table.tHead.cloneNode(true));
      var tbody = document.createElement("tbody");
      rows.slice(at, at + perColumn).forEach(function (row) { tbody.appendChild(row); });
      copy.appendChild(tbody);
      wrap.appendChild(copy);
      made.push(copy);
    }
    return made;
  }

  // How the standings fit: rows a column (from the first row's height and the room under the heading) and
  // columns on one line (the tables that start at the first one's height).
  function measure(region, rows) {
    rows.forEach(function (row) { row.hidden = false; });
    var first = rows[0];
    var table = region.querySelector("table.standings");
    var note = region.querySelector("[data-page-note]");
    var reserve = note ? Math.max(note.getBoundingClientRect().height, 24) : 24;
    var top = table.tBodies[0].getBoundingClientRect().top;
    var rowHeight = first.getBoundingClientRect().height || 1;
    var perColumn = Math.max(3, Math.floor((bottomLimit() - reserve - top) / rowHeight));
    var made = columns(region, rows, perColumn);
    var line = made[0].getBoundingClientRect().top;
    var across = made.filter(function (t) { return Math.abs(t.getBoundingClientRect().top - line) < 2; }).length;
    return { perColumn: perColumn, across: Math.max(1, across), tables: made };
  }

  function layoutStandings(region) {
    var rows = Array.prototype.slice.call(region.querySelectorAll("table.standings tbody tr"));
    if (!rows.length) return { pages: 1, show: function () {} };
    var fit = measure(region, rows);
    var perPage = fit.perColumn * fit.across;
    var pages = Math.max(1, Math.ceil(rows.length / perPage));
    var perColumn = fit.perColumn;
    return {
      pages: pages,
      show: function (page) {
        var from = page * perPage;
        var shown = rows.slice(from, from + perPage);
        columns(region, rows, perColumn).forEach(function (t, i) {
          var inPage = i >= page * fit.across && i < (page + 1) * fit.across;
          t.hidden = !inPage;
        });
        rows.forEach(function (row) { row.hidden = shown.indexOf(row) < 0; });
        note(region, page, pages);
      },
    };
  }

  // A list (tables, or who sits where): as many items as fit above the bottom of the screen, a page each tick.
  function layoutItems(region) {
    var list = region.querySelector("[data-items]");
    var items = list ? Array.prototype.slice.call(list.children) : [];
    if (!items.length) return { pages: 1, show: function () {} };
    items.forEach(function (item) { item.hidden = false; });
    var limit = bottomLimit() - 30;
    var fits = items.filter(function (item) { return item.getBoundingClientRect().bottom <= limit; }).length;
    var perPage = Math.max(1, fits);
    var pages = Math.ceil(items.length / perPage);
    return {
      pages: pages,
      show: function (page) {
        items.forEach(function (item, i) { item.hidden = !(i >= page * perPage && i < (page + 1) * perPage); });
        note(region, page, pages);
      },
    };
  }

  function note(region, page, pages) {
    var el = region.querySelector("[data-page-note]");
    if (!el) return;
    el.hidden = pages <= 1;
    el.textContent = pageWords(page + 1, pages);
  }

  function fontPx(el) { return parseFloat(window.getComputedStyle(el).fontSize) || 16; }

  var layouts = [];
  var pageMs = PAGE_MS;
  // The board laid out with its type at `scale`: each region's pages, whether the standings are wider than their
  // place (a column cut off), and the standings' type size.
  function attempt(el, scale) {
    el.style.fontSize = scale === 1 ? "" : (scale * 100) + "%";
    var regions = Array.prototype.slice.call(el.querySelectorAll("[data-pager]"));
    var made = regions.map(function (region) {
      return region.dataset.pager === "rows" ? layoutStandings(region) : layoutItems(region);
    });
    var wrap = el.querySelector("[data-columns]");
    var table = el.querySelector("table.standings");
    return { layouts: made, pages: made.length ? made[0].pages : 1, px: table ? fontPx(table) : fontPx(el),
             tooWide: !!wrap && wrap.scrollWidth > wrap.clientWidth + 1 };
  }
  function layout() {
    var el = board();
    if (!el) return;
    if (!window.matchMedia(WIDE).matches) {  // a phone: every row, scrolled as any page
      el.classList.remove("paged");
      el.style.fontSize = "";
      layouts = [];
      return;
    }
    el.classList.add("paged");
    var budget = Math.floor(CYCLE_MS / PAGE_MS);
    // Issue 47: the width is used before the pages — of the type sizes from the largest down to FEWEST_PAGES_FROM
    // of it (never below MIN_PX), the one that shows every row in the fewest pages (more columns side by side), the
    // largest of those; no column cut off. Where none fits within CYCLE_MS: at MIN_PX, held shorter.
    var scale = 1, best = null, tried;
    for (;;) {
      tried = attempt(el, scale);
      var fits = !tried.tooWide && tried.pages <= budget;
      if (fits && (!best || tried.pages < best.pages)) best = { scale: scale, pages: tried.pages };
      if ((best && (best.pages === 1 || scale < FEWEST_PAGES_FROM)) || tried.px * 0.92 < MIN_PX) break;
      scale *= 0.92;
    }
    if (best && best.scale !== scale) tried = attempt(el, best.scale);
    state.scale = best ? best.scale : scale;
    layouts = tried.layouts;
    pageMs = tried.pages > budget ? Math.max(MIN_PAGE_MS, Math.floor(CYCLE_MS / tried.pages)) : PAGE_MS;
    if (state.page >= most()) state.page = 0;
    show();
  }
  function show() {
    layouts.forEach(function (l) { l.show(state.page % l.pages); });
  }
  function most() { return layouts.reduce(function (n, l) { return Math.max(n, l.pages); }, 1); }
  function tick() {
    if (!layouts.length) return;
    if (Date.now() - state.shownAt >= pageMs) {
      state.page = (state.page + 1) % Math.max(1, most());
      state.shownAt = Date.now();
      show();
    }
  }

  function start() {
    layout();
    if (state.timer === null) state.timer = window.setInterval(tick, 250);
  }
  // The board came again (static/live.js swapped in a changed one; a 304 leaves it as it is): laid out at the
  // scale found, on the page it was at.
  document.addEventListener("referee:live", function () { if (board()) layout(); });
  // Its "Offline — the event as of …" shown or hidden (live.js): the rows laid out again in the room left.
  document.addEventListener("referee:live-state", function () { if (board()) layout(); });
  var resized = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resized);
    resized = window.setTimeout(layout, 200);
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

// Referee: the deal-entry form at a real table — nothing entered is lost.
//  - taps made while a request is on its way are queued and replayed on the re-rendered form;
//  - Save cannot be sent twice, and says it is busy;
//  - what is being entered is kept on the phone (a draft per match and deal) and comes back;
//  - a Save that cannot reach Referee, or reaches it signed out, waits in an outbox on the phone and is sent by
//    itself later, with its idempotency key, so it is entered exactly once. An entry leaves the outbox only when
//    Referee says it is stored (204 with HX-Redirect, also when it was stored before: Idempotent-Replayed), or
//    when the entry form holds it again; every other answer keeps it, and says why.
// Plain http on a LAN is enough: localStorage and fetch, no service worker. No inline scripts.
(function () {
  "use strict";
  var ROOT = document.documentElement.dataset.root || "";  // a space's prefix (/s/<slug>), or nothing
  var OUTBOX = "referee.outbox";
  var DRAFT = "referee.draft.";
  var SENT = "referee.sent";
  var say = window.refereeWords.say;
  var nounWord = window.refereeWords.noun;  // the page's sentences: static/app.js
  var NO_CONNECTION_EN = "Not sent — no connection. Kept on this phone; sent when the connection is back.";
  var REPLACED_EN = "This table's link was replaced by the director: scan the new card. What this phone has typed " +
    "is kept, and sent once the new card is opened.";
  var RETRY_MS = 15000;
  var SEND_TIMEOUT_MS = 20000;  // an outbox send with no answer by then is given up (kept, tried again later)

  // ---- storage -----------------------------------------------------------------------------
  function load(key, fallback) {
    try {
      var raw = window.localStorage.getItem(key);
      return raw ? JSON.parse(raw) : fallback;
    } catch (e) { return fallback; }
  }
  function keep(key, value) {
    try {
      if (value === null || value === undefined) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* private mode or full: the form still works, only without a copy */ }
  }
  function storedKeys(prefix) {
    var keys = [];
    try {
      for (var i = 0; i < window.localStorage.length; i++) {
        var k = window.localStorage.key(i);
        if (k && k.indexOf(prefix) === 0) keys.push(k);
      }
    } catch (e) { /* nothing stored */ }
    return keys;
  }
  function markSent(key) {
    if (!key) return;
    var sent = load(SENT, []).filter(function (k) { return k !== key; });
    sent.push(key);
    keep(SENT, sent.slice(-50));
  }
  function wasSent(key) { return !!key && load(SENT, []).indexOf(key) >= 0; }

  // ---- the form ----------------------------------------------------------------------------
  function entryForm() { return document.getElementById("entry"); }
  function inEntry(el) { return !!(el && el.closest && el.closest("#entry")); }
  function pairs(form) {
    var out = [];
    new FormData(form).forEach(function (value, name) { if (typeof value === "string") out.push([name, value]); });
    return out;
  }
  function value(list, name) {
    for (var i = 0; i < list.length; i++) if (list[i][0] === name) return list[i][1];
    return "";
  }
  function without(list, names) { return list.filter(function (p) { return names.indexOf(p[0]) < 0; }); }
  function withField(list, name, val) { return without(list, [name]).concat([[name, val]]); }
  function csrfNow() {
    var input = document.querySelector("input[name='csrf_token']");
    return input ? input.value : "";
  }
  function comparable(list) { return JSON.stringify(without(list, ["csrf_token", "idempotency_key", "op"])); }
  function draftKey(form) {
    return DRAFT + form.dataset.match + "." + form.dataset.kind + "." + form.dataset.deal;
  }
  function label(noun, number) { return noun.charAt(0).toUpperCase() + noun.slice(1) + " " + number; }

  // redirect "manual": a redirect (to the login page) is never taken for Referee's answer to what was sent.
  function post(url, list, signal) {
    return window.fetch(url, {
      method: "POST", credentials: "same-origin", redirect: "manual", headers: { "HX-Request": "true" },
      body: new URLSearchParams(list), signal: signal,
    });
  }
  function swapForm(html) {
    var old = entryForm();
    if (!old) return null;
    var template = document.createElement("template");
    template.innerHTML = html;
    var fresh = template.content.querySelector("form#entry");
    if (!fresh) return null;
    old.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
    pristineFor(fresh);
    return fresh;
  }
  // signIn: the page to come back to after signing in (a "Sign in" link follows the text).
  function status(text, bad, signIn) {
    var line = document.getElementById("send-status");
    if (!line) return;
    line.textContent = text || "";
    if (text && signIn) {
      line.appendChild(document.createTextNode(" "));
      line.appendChild(signInLink(signIn));
    }
    line.hidden = !text;
    line.classList.toggle("bad", !!bad);
  }
  function signInLink(next) {
    var link = document.createElement("a");
    link.className = "sign-in";
    link.href = ROOT + "/login?next=" + encodeURIComponent(next);
    link.textContent = say("sign_in", "Sign in");
    return link;
  }
  function matchPage(match) { return ROOT + "/matches/" + encodeURIComponent(match); }
  // This page's path as the routes name it: without the space's prefix (spaces on), whose pages are all under it.
  function routePath() {
    var path = window.location.pathname;
    return ROOT && path.indexOf(ROOT + "/") === 0 ? path.slice(ROOT.length) : path;
  }

  // ---- drafts ------------------------------------------------------------------------------
  var pristine = {};  // draft key → the form as the server first gave it (nothing entered yet)
  var restoring = false;
  function pristineFor(form) {
    var key = draftKey(form);
    if (!(key in pristine)) pristine[key] = comparable(pairs(form));
  }
  function saveDraft() {
    var form = entryForm();
    if (!form || restoring) return;
    var list = pairs(form);
    var key = draftKey(form);
    if (wasSent(value(list, "idempotency_key"))) return;
    if (comparable(list) === pristine[key]) keep(key, null);
    else keep(key, { fields: without(list, ["csrf_token", "op"]), at: Date.now() });
  }
  function pruneDrafts(form) {
    var now = Date.now();
    var prefix = DRAFT + form.dataset.match + ".new.";
    storedKeys(DRAFT).forEach(function (k) {
      var d = load(k, null);
      var old = !d || now - (d.at || 0) > 7 * 24 * 3600 * 1000;
      var passed = k.indexOf(prefix) === 0 && Number(k.slice(prefix.length)) < Number(form.dataset.deal);
      if (old || passed || (d && wasSent(value(d.fields || [], "idempotency_key")))) keep(k, null);
    });
  }
  function draftNote(show) {
    var note = document.getElementById("draft-note");
    if (!show) { if (note) note.remove(); return; }
    var form = entryForm();
    if (note || !form) return;
    note = document.createElement("div");
    note.id = "draft-note";
    note.className = "draft-note";
    note.setAttribute("role", "status");
    var text = document.createElement("p");
    text.textContent = say("restored", "Restored what you were entering.");
    var discard = document.createElement("button");
    discard.type = "button";
    discard.className = "button small";
    discard.id = "draft-discard";
    discard.textContent = say("discard", "Discard");
    discard.addEventListener("click", discardDraft);
    note.appendChild(text);
    note.appendChild(discard);
    form.parentNode.insertBefore(note, form);
  }
  function restoreDraft() {
    var form = entryForm();
    if (!form) return;
    var key = draftKey(form);
    var draft = load(key, null);
    if (!draft || !draft.fields || comparable(draft.fields) === pristine[key]) return;
    if (comparable(draft.fields) === comparable(pairs(form))) { draftNote(true); return; }
    restoring = true;
    var list = withField(withField(draft.fields, "csrf_token", csrfNow()), "op", "refresh");
    post(form.getAttribute("action"), list).then(function (response) {
      return response.text().then(function (html) {
        if (response.status === 200 || response.status === 422) {
          swapForm(html);
          draftNote(true);
        }
      });
    }).catch(function () { /* offline: the draft stays for the next try */ }).then(function () { restoring = false; });
  }
  function discardDraft() {
    var form = entryForm();
    if (!form) return;
    keep(draftKey(form), null);
    window.fetch(form.getAttribute("action"), { credentials: "same-origin", headers: { "HX-Request": "true" } })
      .then(function (response) { return response.text(); })
      .then(function (html) { swapForm(html); draftNote(false); })
      .catch(function () { draftNote(false); });
  }

  // ---- requests in flight, and the taps made meanwhile ---------------------------------------
  var pending = [];   // XHRs of entry-form requests on their way
  var queue = [];     // taps made meanwhile: {op} or {set: name, value, checked}
  var replaying = false;
  var saving = null;  // the form as posted by the Save in flight
  var lastSave = null;  // the Save that just came back without success (for the error handlers)
  var hold = false;   // after a failed request: replay once the connection is back
  var nextBefore = "";
  var lastTap = null;
  var leaving = null;  // a Discard or "enter it as the next deal" on its way: {key: its draft, idempotency, op}

  function busy() {
    var form = entryForm();
    if (form) form.setAttribute("aria-busy", pending.length ? "true" : "false");
  }
  function drain() {
    if (pending.length || !queue.length || hold || saving) return;
    var form = entryForm();
    if (!form) { queue = []; return; }
    var lastSet = null;
    while (queue.length && queue[0].set) {
      var tap = queue.shift();
      var input = Array.prototype.find.call(form.querySelectorAll("input.live"), function (el) {
        return el.name === tap.set && (el.type !== "radio" || el.value === tap.value);
      });
      if (input) {
        if (input.type === "radio" || input.type === "checkbox") input.checked = tap.checked;
        else input.value = tap.value;
        lastSet = input;
      }
    }
    replaying = true;
    try {
      if (queue.length) {
        var op = queue.shift().op;
        var button = Array.prototype.find.call(form.querySelectorAll("button[name='op']"), function (b) { return b.value === op; });
        if (button) button.click();
        else window.setTimeout(drain, 0);  // no longer offered (the entry moved on): the next tap
      } else if (lastSet) {
        lastSet.dispatchEvent(new Event("change", { bubbles: true }));
      }
    } finally { replaying = false; }
  }

  document.addEventListener("click", function (event) {
    lastTap = event.target;
    var button = event.target.closest && event.target.closest("#entry button[name='op']");
    if (!button || replaying) return;
    var isSave = button.value === "save";
    if (saving && isSave) { event.preventDefault(); event.stopPropagation(); return; }  // a double tap
    if (hold && !pending.length && !queue.length) hold = false;  // nothing waits before it: goes as usual
    if (pending.length || queue.length || hold) {
      event.preventDefault();
      event.stopPropagation();
      if (!(isSave && queue.some(function (t) { return t.op === "save"; }))) queue.push({ op: button.value });
      if (hold && !pending.length) { hold = false; drain(); }
      return;
    }
  }, true);

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (replaying || !inEntry(input) || !input.classList || !input.classList.contains("live")) return;
    if (hold && !pending.length && !queue.length) hold = false;
    if (pending.length || queue.length || hold) {
      event.stopPropagation();
      queue.push({ set: input.name, value: input.value, checked: input.checked });
    }
  }, true);

  // The entry form's Save asks for the table in its answer (one round trip a deal, issue 49): stored, Referee
  // answers with the match page itself (200, Referee-Table: its address), shown here without asking for it again.
  document.addEventListener("htmx:configRequest", function (event) {
    var params = event.detail.parameters;
    if (inEntry(event.detail.elt) && params && params.op === "save") event.detail.headers["Referee-Answer"] = "table";
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!inEntry(event.detail.elt)) return;
    var form = entryForm();
    pending.push(event.detail.xhr);
    nextBefore = form ? form.dataset.next : "";
    var params = event.detail.requestConfig && event.detail.requestConfig.parameters;
    if (params && (params.op === "discard" || params.op === "renumber") && form) {
      // The entry is thrown away, or moves to another deal number: its draft for this number goes.
      leaving = { key: draftKey(form), idempotency: value(pairs(form), "idempotency_key"), op: params.op };
    }
    if (params && params.op === "save" && form) {
      saving = pairs(form).concat([["op", "save"]]);
      var save = document.getElementById("save");
      if (save) { save.setAttribute("aria-disabled", "true"); save.disabled = true; }
      status(say("saving", "Saving…"));
      savingRow(form);
    }
    busy();
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var i = pending.indexOf(event.detail.xhr);
    if (i < 0) return;
    pending.splice(i, 1);
    var xhr = event.detail.xhr;
    if (leaving && xhr.status < 400) {
      keep(leaving.key, null);
      if (leaving.op === "discard") { markSent(leaving.idempotency); dropFromOutbox(leaving.idempotency); queue = []; }
      leaving = null;
    } else if (leaving) {
      leaving = null;
    }
    var table = xhr.status === 200 ? xhr.getResponseHeader("Referee-Table") : null;
    if (saving && ((xhr.status === 204 && xhr.getResponseHeader("HX-Redirect")) || table)) {
      var form = entryForm();
      markSent(value(saving, "idempotency_key"));
      if (form) keep(draftKey(form), null);
      queue = [];
      if (table) { saving = null; showTable(xhr.responseText, table); }
    } else if (saving) {
      noSavingRow();
      // Only a Save that got no answer (no connection, a timeout) goes to the outbox, from the error handlers that
      // follow; one Referee answered (a 422 beside the fields, a 409) is settled — a 401 went to the outbox already
      // (htmx:beforeSwap, below).
      lastSave = xhr.status === 0 ? saving : null;
      saving = null;
    }
    busy();
    window.setTimeout(drain, 30);
  });

  // ---- the new row at once, confirmed by Referee's answer ------------------------------------------
  // At Save, the table's new row is shown from what the phone knows — the head's totals and the preview's scores
  // (worked out by the rules on the phone once they are ready, else by Referee's last answer) — marked "Saving…",
  // in place of the form; Referee's answer (the table itself) replaces it, or brings the form back as it was.
  function savingRow(form) {
    var preview = document.getElementById("preview");
    var standing = document.getElementById("entry-standing");
    if (form.dataset.kind !== "new" || !preview || !preview.dataset.scores || !standing ||
        !standing.dataset.players || document.getElementById("taken")) return;
    var players, scores, byName;
    var totals = (standing.dataset.totals || "").split(" ").map(Number);
    try { players = JSON.parse(standing.dataset.players); byName = JSON.parse(preview.dataset.scores); } catch (e) { return; }
    scores = players.map(function (p) { return Number(byName[p] || 0); });
    if (players.length !== scores.length || players.length !== totals.length) return;
    var figure = new Intl.NumberFormat(document.documentElement.lang || undefined);
    function cell(tag, text) { var el = document.createElement(tag); el.textContent = text; return el; }
    function row(parent, head, cells) {
      var tr = document.createElement("tr");
      tr.appendChild(head);
      cells.forEach(function (c) { tr.appendChild(c); });
      parent.appendChild(tr);
      return tr;
    }
    var card = document.createElement("section");
    card.className = "card saving-table";
    card.id = "saving-table";
    card.setAttribute("role", "status");
    var title = cell("h1", label(nounWord(form.dataset.noun || "deal"), figure.format(Number(form.dataset.deal))));
    var table = document.createElement("table");
    table.className = "scores";
    row(table.appendChild(document.createElement("thead")), cell("th", "#"),
        players.map(function (p) { return cell("th", p); }));
    var body = table.appendChild(document.createElement("tbody"));
    body.className = "deal saving";
    body.dataset.deal = form.dataset.deal;
    row(body, cell("th", figure.format(Number(form.dataset.deal))), scores.map(function (n) {
      return cell("td", (n > 0 ? "+" : "") + figure.format(n));
    })).querySelector("th").setAttribute("scope", "row");
    row(table.appendChild(document.createElement("tfoot")), cell("th", say("totals", "Totals")),
        totals.map(function (t, i) { return cell("td", figure.format(t + scores[i])); }));
    card.appendChild(title);
    card.appendChild(table);
    card.appendChild(cell("p", say("saving", "Saving…"))).className = "saving-note";
    form.parentNode.insertBefore(card, form);
    form.hidden = true;
    window.scrollTo(0, 0);
  }
  function noSavingRow() {
    var card = document.getElementById("saving-table");
    if (card) card.remove();
    var form = entryForm();
    if (form && form.hidden) form.hidden = false;
  }
  // Back or Forward to an address this document does not show (the entry's, after its Save showed the table; even
  // after a reload of the table, Chromium keeps the two as one document's entries): that page, loaded.
  function withoutHash(href) { return href.split("#")[0]; }
  var shownUrl = withoutHash(window.location.href);
  window.addEventListener("popstate", function () {
    if (withoutHash(window.location.href) !== shownUrl) window.location.reload();  // an #anchor: only a scroll
  });
  // Referee's answer to the Save: the match page, shown as if it had been opened (its address, title and body;
  // a script it loads that this page has not, loaded), with no second request.
  function showTable(html, url) {
    var doc;
    try { doc = new DOMParser().parseFromString(html, "text/html"); } catch (e) { doc = null; }
    if (!doc || !doc.getElementById("live-table")) { window.location.href = url; return; }
    // A page of its own in the history, as if opened: Back comes to the entry's address, loaded afresh (the saved
    // entry does not come back as if unsaved: its key was sent), as after a redirect.
    window.history.pushState({ referee: "table" }, "", url);
    shownUrl = withoutHash(window.location.href);
    document.title = doc.title;
    var had = Array.prototype.map.call(document.querySelectorAll("script[src]"), function (el) { return el.src; });
    Array.prototype.slice.call(document.body.attributes).forEach(function (a) { document.body.removeAttribute(a.name); });
    Array.prototype.forEach.call(doc.body.attributes, function (a) { document.body.setAttribute(a.name, a.value); });
    document.body.replaceChildren.apply(document.body, Array.prototype.map.call(doc.body.childNodes, function (n) {
      return document.importNode(n, true);
    }));
    Array.prototype.forEach.call(doc.querySelectorAll("script[src]"), function (old) {
      var src = new URL(old.getAttribute("src"), window.location.href).href;
      if (had.indexOf(src) >= 0) return;
      var script = document.createElement("script");
      Array.prototype.forEach.call(old.attributes, function (a) { script.setAttribute(a.name, a.value); });
      document.head.appendChild(script);
    });
    window.scrollTo(0, 0);
    if (window.htmx) window.htmx.process(document.body);
    showOutbox();
  }

  function saveAgain() {
    var save = document.getElementById("save");
    if (save) { save.disabled = false; save.removeAttribute("aria-disabled"); }
  }
  function failed(event, text) {
    var elt = event.detail.elt;
    if (!inEntry(elt) && !(event.detail.requestConfig && inEntry(event.detail.requestConfig.elt))) return false;
    event.stopPropagation();  // said beside Save, not at the top of the page
    noSavingRow();
    saveAgain();
    if (lastSave) {
      var form = entryForm();
      if (text === say("no_connection", NO_CONNECTION_EN) && form) {
        var match = form.dataset.match;
        toOutbox(form, lastSave, null, function () { toKeptTable(match); });
        status(say("no_connection", NO_CONNECTION_EN), true);
      } else {
        status(text, true);
      }
      lastSave = null;
      return true;
    }
    if (text === say("no_connection", NO_CONNECTION_EN)) {
      // The tap did not reach Referee: the form still shows it; send it again when the connection is back.
      // A tap that changes the entry on the server (a call, a trick...) is sent again; a refresh of the
      // preview is not needed: the form itself already holds what was tapped and typed.
      var params = event.detail.requestConfig && event.detail.requestConfig.parameters;
      var op = params && params.op;
      if (op && op !== "save" && op !== "refresh") queue.unshift({ op: op });
      hold = true;
      previewOffline();
      status(say("tapped_kept", "No connection — what you tapped is kept and sent when the connection is back."), true);
      window.setTimeout(function () { hold = false; drain(); }, 5000);
    } else {
      status(text, true);
    }
    return true;
  }
  // Without the connection the preview cannot be worked out: say so instead of leaving an old line in view (the
  // next answer from Referee replaces it).
  function previewOffline() {
    var text = say("preview_offline", "The preview needs the connection. What you enter is kept on this phone and " +
                   "checked by Referee when it arrives.");
    var preview = document.getElementById("preview");
    if (preview) {
      preview.classList.add("is-stale");
      var line = preview.querySelector(".preview-offline");
      if (!line) {
        line = document.createElement("p");
        line.className = "preview-offline";
        preview.insertBefore(line, preview.firstChild);
      }
      line.textContent = text;
    }
    var bar = document.getElementById("bar-summary");
    if (bar) { bar.textContent = text; bar.classList.add("muted"); bar.classList.remove("bad"); }
  }
  window.addEventListener("offline", function () { if (entryForm() && !rules.ready) previewOffline(); });

  function errorText(xhr) {
    var text = say("not_saved", "Not saved: Referee answered {status}. Your entry is kept here.", { status: xhr.status });
    try {
      var doc = new DOMParser().parseFromString(xhr.responseText, "text/html");
      var p = doc.querySelector(".error-page p");
      if (p) text = p.textContent;
    } catch (e) { /* keep the generic text */ }
    return text;
  }
  document.addEventListener("htmx:sendError", function (event) { failed(event, say("no_connection", NO_CONNECTION_EN)); }, true);
  document.addEventListener("htmx:timeout", function (event) { failed(event, say("no_connection", NO_CONNECTION_EN)); }, true);
  // A 409 that is the form again (another phone entered this deal first, or changed the deal being corrected) is
  // swapped in like a 422: it says what happened, with the entry kept and the choices.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (xhr.status === 200 && xhr.getResponseHeader("Referee-Table") && inEntry(event.detail.elt)) {
      event.detail.shouldSwap = false;  // the table itself: shown by showTable, not swapped into the form
      return;
    }
    if (xhr.status === 401 && inEntry(event.detail.elt)) {
      // The session ended (Referee's "signed out" fragment): nothing is swapped, the form keeps every field, and it
      // says so beside Save — not an error of the page.
      event.detail.shouldSwap = false;
      event.detail.isError = false;
      signedOut(saving);
      return;
    }
    if (xhr.status === 403 && xhr.getResponseHeader("Referee-Refusal") === "link-replaced" && inEntry(event.detail.elt)) {
      // The director revoked this table's link: the Save waits in the outbox, sent once the new card is opened.
      event.detail.shouldSwap = false;
      event.detail.isError = false;
      replaced(saving);
      return;
    }
    if (xhr.status === 409 && inEntry(event.detail.elt) && xhr.responseText.indexOf('id="entry"') >= 0) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  // A Save (`saved`: the form as posted) waits in the outbox, sent by itself once signed in again (from the match
  // page the link goes back to); a tap Referee did not take is kept by the form and the draft on this phone.
  function signedOut(saved) {
    noSavingRow();
    var form = entryForm();
    saveAgain();
    if (saved && form) {
      toOutbox(form, saved, "signed_out");
      outboxStatus(form);
    } else {
      status(say("signed_out_entry", "Signed out: sign in again — what you entered is kept on this phone."), true,
             window.location.pathname + window.location.search);
    }
  }
  function replaced(saved) {
    noSavingRow();
    var form = entryForm();
    saveAgain();
    if (saved && form) {
      toOutbox(form, saved, "replaced");
      outboxStatus(form);
    } else {
      status(say("live_replaced", REPLACED_EN), true);
    }
  }
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    // A correction made against an older version comes back (409) as the form with a warning: show it.
    if (inEntry(event.detail.elt) && xhr.status === 409 && xhr.responseText.indexOf('id="entry"') >= 0) {
      event.stopPropagation();
      lastSave = null;
      swapForm(xhr.responseText);
      return;
    }
    failed(event, errorText(xhr));
  }, true);

  document.addEventListener("htmx:afterSettle", function (event) {
    var form = entryForm();
    if (!form || !inEntry(event.detail.elt)) return;
    if (event.detail.elt === form) {
      pristineFor(form);
      outboxStatus(form);
      showNext(form);
      typedMeanwhile(form);
    }
    saveDraft();
  });

  // A number typed while the form's last request was on its way stays in its field, but the answer was worked out
  // without it (its preview still says it is to be entered): have it looked at again, as if it were typed now.
  function typedMeanwhile(form) {
    Array.prototype.forEach.call(form.querySelectorAll("input[type='text']"), function (input) {
      if (input.value !== input.defaultValue) input.dispatchEvent(new Event("input", { bubbles: true }));
    });
  }

  // After a tap, bring what is to be entered next into view (above the save bar), so the common deal
  // needs no swipe: only when the next step changed, or the tap was inside it (a Joker Judge trick).
  // Nothing moves under the thumb (issue 49): the form's swaps settle at once (hx-swap "settle:0ms": htmx would put
  // the old classes back for 20 ms and then the new ones), so this runs in the same task as the answer is swapped
  // in, before the browser paints it: the answer is shown already scrolled, and never scrolls later. (It used to
  // scroll ~35 ms after the answer, and again a frame after that: a thumb that aimed at the answer tapped elsewhere.)
  function showNext(form) {
    var next = (form.dataset.next || "").split(".")[0];
    if (!next) return;
    var step = Array.prototype.find.call(form.querySelectorAll("[data-step]"), function (el) {
      return el.dataset.step.split(" ").indexOf(next) >= 0;
    });
    if (!step) return;
    var tappedInside = lastTap && lastTap.closest && lastTap.closest("[data-step]") &&
      lastTap.closest("[data-step]").dataset.step === step.dataset.step;
    if (next === (nextBefore || "").split(".")[0] && !tappedInside) return;
    reveal(step);
  }
  function reveal(step) {
    // Scroll as little as needed for the whole step to sit between the top and the save bar.
    var bar = document.getElementById("entry-bar");
    var bottom = bar ? bar.getBoundingClientRect().top : window.innerHeight;
    var box = step.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= bottom) return;
    var dy = box.bottom - bottom + 8;
    if (box.top - dy < 0) dy = box.top - 8;
    window.scrollBy(0, dy);
  }

  // The keyboard's Next key goes to the next number, Done closes the keyboard.
  document.addEventListener("keydown", function (event) {
    var input = event.target;
    if (event.key !== "Enter" || !inEntry(input) || input.tagName !== "INPUT") return;
    var hint = input.getAttribute("enterkeyhint");
    if (hint === "next") {
      event.preventDefault();
      var fields = Array.prototype.slice.call(input.form.querySelectorAll("input[type='text']"));
      var following = fields[fields.indexOf(input) + 1];
      if (following) following.focus();
    } else if (hint === "done") {
      event.preventDefault();
      input.blur();
    }
  });

  var draftTimer = null;
  document.addEventListener("input", function (event) {
    if (!inEntry(event.target)) return;
    window.clearTimeout(draftTimer);
    draftTimer = window.setTimeout(saveDraft, 250);
  });
  document.addEventListener("change", function (event) { if (inEntry(event.target)) saveDraft(); });
  window.addEventListener("pagehide", saveDraft);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") saveDraft();
    else sendOutbox();
  });

  // ---- the outbox --------------------------------------------------------------------------
  function toOutbox(form, list, problem, then) {
    var key = value(list, "idempotency_key");
    var items = load(OUTBOX, []).filter(function (item) { return item.key !== key; });
    items.push({
      key: key, url: form.getAttribute("action"), match: form.dataset.match, number: form.dataset.deal,
      kind: form.dataset.kind, noun: form.dataset.noun || "deal", draft: draftKey(form),
      fields: withField(list, "op", "save"), at: Date.now(), state: "waiting", problem: problem || null,
      scores: previewScores(form),
    });
    keep(OUTBOX, items);
    showOutbox();
    standingAfter(form, key, list, then);
  }
  // Where the match stands once this deal (saved with no connection) is stored, as the rules on the phone work it
  // out from the form's seed (the tally before it): what each player still needs, and whether the match ends with
  // it — kept with the deal for the table ("needs N", "ends once sent"). Then ``then`` (at once without the rules).
  function standingAfter(form, key, list, then) {
    var done = false;
    function go() { if (!done) { done = true; if (then) then(); } }
    if (!rules.ready || form.dataset.kind !== "new" || !form.dataset.rulesSeed) { go(); return; }
    askFollowing(form, [list], [], function (after) {
      if (after && !after.unscored) {
        changeItem(key, function (i) {
          i.after = { to_go: after.to_go, finished: after.finished, ends: after.ends || "", note: after.note,
                      turn: after.turn, standing_line: after.standing_line, enter: after.enter, tags: after.tags };
        });
        showOutbox();
      }
      go();
    });
    window.setTimeout(go, 1500);
  }
  // The deal's score as the preview shows it (the rules' result for what is saved: {player: points}), or null when
  // the preview is not the answer to this form (stale, waiting for the server, or not a result).
  function previewScores(form) {
    var preview = document.getElementById("preview");
    if (!preview || !preview.dataset.scores || preview.classList.contains("is-stale") || !form.contains(preview)) return null;
    try { return JSON.parse(preview.dataset.scores); } catch (e) { return null; }
  }
  function dropFromOutbox(key) {
    keep(OUTBOX, load(OUTBOX, []).filter(function (item) { return item.key !== key; }));
  }
  function changeItem(key, change) {
    var all = load(OUTBOX, []);
    all.forEach(function (item) { if (item.key === key) change(item); });
    keep(OUTBOX, all);
  }
  // Why a waiting entry is not sent yet: "signed_out" (401), "replaced" (403: the table's link was revoked; sent once
  // the new card is opened), "answered" (403, 5xx: Referee answered `status`),
  // "offline" (no answer: no connection, or none in SEND_TIMEOUT_MS); null: not tried yet.
  function problemText(item) {
    if (item.problem === "held") {
      return say("held_back", "Not sent yet: the " + (item.noun || "deal") + " before it was not stored. Settle that " +
                 "one first.", {}, item.noun || "deal");
    }
    if (item.problem === "signed_out") return say("signed_out", "Signed out: sign in again, then it is sent.");
    if (item.problem === "replaced") return say("live_replaced", REPLACED_EN);
    if (item.problem === "answered") {
      return say("not_sent_yet", "Not sent yet: Referee answered {status}. Kept on this phone; sent again shortly.",
                 { status: item.status });
    }
    return say("no_connection", NO_CONNECTION_EN);
  }
  // The entry form of a waiting entry says why it waits, beside Save.
  function outboxStatus(form) {
    var key = value(pairs(form), "idempotency_key");
    var item = load(OUTBOX, []).filter(function (i) { return i.key === key && i.state === "waiting"; })[0];
    if (!item) return false;
    status(problemText(item), true, item.problem === "signed_out" ? matchPage(item.match) : null);
    return true;
  }
  function stillWaiting(item, problem, code, html) {
    var token = "";
    if (code === 403) {
      // The form's security token is from an earlier session (signed in again since): the page that refused it
      // carries the session's own, for the next try.
      try {
        var input = new DOMParser().parseFromString(html, "text/html").querySelector("input[name='csrf_token']");
        token = input ? input.value : "";
      } catch (e) { /* the next try takes the page's */ }
    }
    changeItem(item.key, function (i) {
      i.problem = problem;
      i.status = code || null;
      i.token = token || i.token || null;
    });
    showOutbox();
    var form = entryForm();
    if (form) outboxStatus(form);
  }
  function refusalWhy(html) {
    try {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var el = doc.querySelector("#taken p, .error-page p, #bar-summary");
      return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
    } catch (e) { return ""; }
  }
  function openRefused(item) {
    // A normal post of the entry: the form opens with the errors beside the fields. The entry leaves the outbox
    // once that form holds it, or the table shows it stored (settleOpened), not before: a post that gets neither
    // (the login page, no connection) loses nothing.
    changeItem(item.key, function (i) { i.opened = true; });
    var form = document.createElement("form");
    form.method = "post";
    form.action = item.url;
    form.hidden = true;
    withField(withField(item.fields, "csrf_token", csrfNow() || value(item.fields, "csrf_token")), "op", "save")
      .forEach(function (p) {
        var input = document.createElement("input");
        input.type = "hidden";
        input.name = p[0];
        input.value = p[1];
        form.appendChild(input);
      });
    document.body.appendChild(form);
    form.submit();
  }

  var sendingOutbox = false;
  function sendOutbox() {
    if (sendingOutbox) return;
    var all = load(OUTBOX, []);
    var items = all.filter(function (item) { return item.state === "waiting"; });
    // A match's deals go in their order (deal 2 entered offline after deal 1 is sent after it), and none goes while
    // an earlier one of its match was refused: Referee would take it as the next deal after another phone's.
    var held = items.filter(function (item) {
      return all.some(function (other) {
        return other.state === "refused" && other.kind === "new" && item.kind === "new" &&
          String(other.match) === String(item.match) && Number(other.number) < Number(item.number);
      });
    });
    held.forEach(function (item) { if (item.problem !== "held") changeItem(item.key, function (i) { i.problem = "held"; }); });
    if (held.length) showOutbox();
    items = items.filter(function (item) { return held.indexOf(item) < 0; });
    if (!items.length) return;
    sendingOutbox = true;
    var first = items[0];
    var item = first.kind !== "new" ? first : items.filter(function (i) {
      return i.kind === "new" && String(i.match) === String(first.match);
    }).sort(byNumber)[0];
    var list = withField(item.fields, "csrf_token", item.token || csrfNow() || value(item.fields, "csrf_token"));
    // An entry kept before forms said which deal they are for: it is for the deal its form was opened for.
    if (!value(list, "number") && item.kind === "new" && item.number) list = withField(list, "number", String(item.number));
    var control = typeof window.AbortController === "function" ? new window.AbortController() : null;
    var timer = control ? window.setTimeout(function () { control.abort(); }, SEND_TIMEOUT_MS) : null;
    post(item.url, list, control ? control.signal : undefined).then(function (response) {
      return response.text().then(function (html) { return arrived(item, response, html); });
    }).catch(function () {
      stillWaiting(item, "offline");  // no connection, or no answer in time: tried again later
      return false;
    }).then(function (more) {
      window.clearTimeout(timer);
      sendingOutbox = false;
      if (more) sendOutbox();
    });
  }

  // What Referee answered to an entry sent from the outbox; true: send the next one.
  function arrived(item, response, html) {
    var form = entryForm();
    var here = form && value(pairs(form), "idempotency_key") === item.key;
    var code = response.status;
    var to = response.headers.get("HX-Redirect");
    if (code === 204 && to) {  // stored now, or stored by an earlier send of it (Idempotent-Replayed)
      dropFromOutbox(item.key);
      markSent(item.key);
      keep(item.draft, null);
      if (here) { window.location.href = to; return false; }
      var hook = outboxHook();
      if (hook && String(hook.match) === String(item.match)) { window.location.reload(); return false; }
      showOutbox();
      return true;
    }
    if (code === 401 || response.type === "opaqueredirect") {  // signed out (or sent to the login page)
      stillWaiting(item, "signed_out", code);
      return false;  // the others would be refused alike: all are sent once signed in again
    }
    if (code === 403 && response.headers.get("Referee-Refusal") === "link-replaced") {
      stillWaiting(item, "replaced", code, html);  // sent again once the new card is opened
      return false;
    }
    if (code < 400 || code === 403 || code === 408 || code === 429 || code >= 500) {
      stillWaiting(item, "answered", code, html);  // not a refusal of the entry: tried again later
      return false;
    }
    // Refused (422 wrong, 409 match changed, 400...): the entry stays, with what Referee said.
    if (here && (code === 422 || code === 409) && swapForm(html)) {
      dropFromOutbox(item.key);  // the form holds it now, with the errors beside the fields
      // Another phone entered that deal first: the form's head says so, with the choices; else the errors.
      if (html.indexOf('id="taken"') < 0) {
        status(say("not_accepted_here", "Referee did not accept this " + item.noun +
                   ": see the messages beside the fields.", {}, item.noun), true);
      }
    } else {
      // Another phone entered that deal first (409 with the deal it entered): never stored under another
      // number by itself — the phone offers to open it, with the choice to discard it or enter it as the next.
      var taken = code === 409 && html.indexOf('id="taken"') >= 0;
      changeItem(item.key, function (i) {
        i.state = "refused"; i.status = code; i.taken = taken; i.why = refusalWhy(html); i.problem = null;
      });
    }
    showOutbox();
    return true;
  }

  // A Save that waits in the outbox goes back to the table as a stored one does, when the service worker keeps the
  // table (templates/sw.js): the table shows the deal at once, waiting to send. Without a kept table the form stays.
  function toKeptTable(match) {
    var table = matchPage(match);
    if (!window.caches || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    window.caches.match(table).then(function (hit) {
      if (hit && entryForm() && entryForm().dataset.match === String(match)) window.location.href = table;
    }).catch(function () { /* the form stays, its entry in the outbox */ });
  }
  // On a match's table, online: the service worker keeps its entry form for the next deal (and the table itself on
  // the first visit, which it did not see), so that both open with no connection.
  function keepPages() {
    var enter = document.getElementById("enter-deal");
    if (!enter || !navigator.serviceWorker || window.navigator.onLine === false) return;
    var urls = [enter.getAttribute("href").split("?")[0]];
    if (!navigator.serviceWorker.controller) urls.push(window.location.pathname);
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ kind: "keep", urls: urls });
    }).catch(function () { /* no service worker: the form needs the connection to open */ });
  }
  // A kept entry form (served by the service worker with no connection, <html data-kept>) may have been opened
  // before: it gets a key of its own, so that it is stored as a deal of its own — or, when a deal of its number
  // already waits in the outbox, that deal's key (saving it again replaces it; it is never stored twice).
  function keptForm(form) {
    if (!document.documentElement.dataset.kept || form.dataset.kind !== "new") return;
    var input = form.querySelector("input[name='idempotency_key']");
    if (!input) return;
    var asked = new URLSearchParams(window.location.search).get("waiting");
    var same = load(OUTBOX, []).filter(function (item) {
      return asked && item.key === asked && item.state === "waiting" && String(item.match) === form.dataset.match;
    })[0];
    input.value = same ? same.key : freshKey();
    pristine[draftKey(form)] = comparable(pairs(form));
    if (!same && waitingFrom(form).length) {
      // Kept for the deal that was next online, with deals saved here since: the form for the deal after them is
      // worked out by the rules on the phone once they are ready (keptNext); until then nothing can be tapped.
      form.inert = true;
      form.classList.add("is-following");
      var can = form.dataset.rulesSeed && window.Worker && window.WebAssembly;
      if (can) status(say("next_on_phone", "Working out the next " + form.dataset.noun + " on this phone…", {}, form.dataset.noun));
      else cannotFollow();
    }
  }
  // The kept form cannot become the deal after the waiting ones (no rules on this phone, or they failed to load): it
  // stays closed, saying so — it is not offered for a deal that is not the next.
  function cannotFollow() {
    var form = entryForm();
    if (!form || !form.classList.contains("is-following")) return;
    status(say("next_unknown", "This phone cannot work out the next " + form.dataset.noun + ": it opens once the " +
               "waiting ones are sent.", {}, form.dataset.noun), true);
  }
  // Waiting deals in their order (the number of the deal each is for).
  function byNumber(a, b) { return Number(a.number) - Number(b.number); }
  // The deals of this form's match waiting to send, from the deal the form was kept for on, in their order.
  function waitingFrom(form) {
    return load(OUTBOX, []).filter(function (item) {
      return item.state === "waiting" && item.kind === "new" && String(item.match) === form.dataset.match &&
        Number(item.number) >= Number(form.dataset.deal);
    }).sort(byNumber);
  }
  // A kept table says at once that it is a copy, and of when (static/live.js says the same once its follow fails):
  // said from the start, the note never pushes the buttons down under a thumb.
  function keptTable() {
    var at = Number(document.documentElement.dataset.kept);
    var note = document.getElementById("offline-note");
    if (!at || !note || entryForm()) return;
    var time = new Date(at).toLocaleTimeString(document.documentElement.lang || undefined,
                                               { hour: "2-digit", minute: "2-digit" });
    note.textContent = say("live_offline", "Offline — the table as of {time}. Deals saved on this phone are sent when " +
                           "the connection is back.", { time: time });
    note.hidden = false;
  }
  function freshKey() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID().replace(/-/g, "");
    var key = "";
    while (key.length < 32) key += Math.floor(Math.random() * 16).toString(16);
    return key;
  }

  // The deals waiting to send, on the table as rows of their own (muted, "⏳ waiting to send", each player's score
  // and running total as the phone's rules worked them out), and the totals with them, marked ⏳: what the table
  // will say once Referee has them. Referee's answer wins: a stored deal comes back as a normal row.
  function waitingRows(items) {
    var board = document.querySelector("#scoreboard");
    var live = document.getElementById("live-table");
    if (!board || !live) return;
    Array.prototype.forEach.call(live.querySelectorAll("tbody.is-waiting"), function (el) { el.remove(); });
    Array.prototype.forEach.call(board.querySelectorAll(".waiting-mark"), function (el) { el.remove(); });
    nextDealShown(null);
    var cards = Array.prototype.slice.call(board.querySelectorAll(".total-card[data-player]"));
    var players = cards.map(function (card) { return card.dataset.player; });
    var totals = {};
    cards.forEach(function (card) {
      var total = card.querySelector(".total");
      totals[card.dataset.player] = Number(total.dataset.total) || 0;
      if (total.classList.contains("with-waiting")) total.textContent = figure(totals[card.dataset.player]);
      total.classList.remove("with-waiting");
    });
    var shown = items.filter(function (item) {
      return item.state === "waiting" && item.kind === "new" && !document.getElementById("deal-" + item.number);
    }).sort(byNumber);
    if (!shown.length) return;
    var table = live.querySelector("table.scores");
    if (!table) {
      table = document.createElement("table");
      table.className = "scores";
      var head = table.createTHead().insertRow();
      // The names as the totals write them (soft hyphens where a long name may break), as the table's head does.
      var names = cards.map(function (card) {
        var who = card.querySelector(".who");
        return who && who.firstChild ? who.firstChild.textContent.trim() : card.dataset.player;
      });
      ["#"].concat(names).forEach(function (name) {
        var th = document.createElement("th");
        th.scope = "col";
        th.textContent = name;
        head.appendChild(th);
      });
      var none = Array.prototype.find.call(live.querySelectorAll("p.muted.center"), function () { return true; });
      if (none) { none.hidden = true; none.insertAdjacentElement("afterend", table); }
      else board.insertAdjacentElement("afterend", table);
    }
    var marked = false;
    shown.forEach(function (item) {
      var body = document.createElement("tbody");
      body.id = "waiting-" + item.number;
      body.className = "deal is-waiting";
      var row = body.insertRow();
      row.className = "deal-scores";
      var th = document.createElement("th");
      th.scope = "row";
      th.textContent = item.number;
      row.appendChild(th);
      players.forEach(function (p) {
        var td = row.insertCell();
        var score = document.createElement("span");
        score.className = "score";
        var scored = item.scores && typeof item.scores[p] === "number";
        score.textContent = scored ? (item.scores[p] > 0 ? "+" : "") + figure(item.scores[p]) : "—";
        td.appendChild(score);
        if (scored) {
          totals[p] += item.scores[p];
          var running = document.createElement("span");
          running.className = "running";
          running.textContent = figure(totals[p]);
          td.appendChild(running);
        }
      });
      if (item.scores) marked = true;
      var note = body.insertRow().insertCell();
      note.colSpan = players.length + 1;
      note.className = "waiting-line";
      note.textContent = say("row_waiting", "⏳ waiting to send");
      if (item.state === "waiting") {
        // Opened with no connection, the kept form holds this deal as it was saved: saved again, it replaces it.
        var change = document.createElement("a");
        change.className = "waiting-correct";
        change.href = matchPage(item.match) + "/deals/new?waiting=" + encodeURIComponent(item.key);
        change.textContent = say("correct_waiting", "Correct");
        note.appendChild(document.createTextNode(" · "));
        note.appendChild(change);
      }
      table.appendChild(body);
    });
    if (!marked) return;
    var last = shown[shown.length - 1].after;
    if (last && shown.every(function (item) { return !!item.scores; })) nextDealShown(last);
    cards.forEach(function (card) {
      var total = card.querySelector(".total");
      total.textContent = figure(totals[card.dataset.player]);
      total.classList.add("with-waiting");
      var mark = document.createElement("span");
      mark.className = "waiting-mark";
      mark.title = say("total_waiting", "with the deals waiting to send");
      mark.setAttribute("aria-label", mark.title);
      mark.textContent = "⏳";
      total.appendChild(document.createTextNode(" "));
      total.appendChild(mark);
    });
  }
  // The table after the deals waiting to send, as the rules on the phone worked it out when the last was saved
  // (``after``; null: the table as Referee drew it): what each player still needs, whose deal is next and their
  // role tags, the standing's line and the button's words — the deal that "Enter deal" opens with no connection.
  var drawn = [];  // [element, what Referee drew (HTML)]
  function redraw(el, html) {
    if (!el) return;
    if (!drawn.some(function (d) { return d[0] === el; })) drawn.push([el, el.innerHTML]);
    el.innerHTML = html;
  }
  function escaped(text) {
    var span = document.createElement("span");
    span.textContent = text;
    return span.innerHTML;
  }
  function nextDealShown(after) {
    drawn.forEach(function (d) { if (d[0].isConnected) { d[0].innerHTML = d[1]; d[0].hidden = false; } });
    drawn = [];
    if (!after || typeof after.turn !== "string") return;
    Array.prototype.forEach.call(document.querySelectorAll("#scoreboard .total-card[data-player]"), function (card) {
      var p = card.dataset.player;
      if (after.to_go && typeof after.to_go[p] === "string") redraw(card.querySelector(".to-go"), escaped(after.to_go[p]));
      var who = card.querySelector(".who");
      if (!who || !after.tags) return;
      var name = who.firstElementChild && who.firstElementChild.tagName === "A" ? who.firstElementChild.outerHTML
        : escaped(who.firstChild ? who.firstChild.textContent.trim() : p);
      redraw(who, name + (after.tags[p] || []).map(function (t) { return ' <i class="tag">' + escaped(t) + "</i>"; })
        .join(""));
    });
    var turn = document.querySelector("#live-table p.turn");
    if (turn && after.finished) {  // the match ends with them: no next deal (the table of a finished match)
      redraw(turn, "");
      turn.hidden = true;
    } else if (turn) {
      redraw(turn, after.turn + (after.standing_line ? '<br><span class="muted" id="standing-note">' +
                                 escaped(after.standing_line) + "</span>" : ""));
    }
    var enter = document.getElementById("enter-deal");
    if (enter && after.enter) redraw(enter, escaped(after.enter));
  }
  function figure(n) {
    try { return new Intl.NumberFormat(document.documentElement.lang || "en").format(n); } catch (e) { return String(n); }
  }

  // "1 deal waiting to send" on the match page (the #outbox hook, or before "Enter deal").
  function outboxHook() {
    var hook = document.getElementById("outbox");
    var m = routePath().match(/^\/matches\/(\d+)\/?$/);
    if (hook) return { el: hook, match: hook.dataset.match || (m && m[1]), inserted: false };
    var enter = document.getElementById("enter-deal");
    if (!m || !(enter || document.querySelector(".scoreboard"))) return null;
    var made = document.getElementById("outbox-made");
    if (!made) {
      made = document.createElement("div");
      made.id = "outbox-made";
      if (enter) enter.parentNode.insertBefore(made, enter);
      else document.querySelector(".scoreboard").insertAdjacentElement("afterend", made);
    }
    return { el: made, match: m[1], inserted: true };
  }
  // The standing after the last waiting deal, when the match ends with them (the phone's rules said so as it was
  // saved): no next deal is offered (Referee would refuse it); the table says the match ends once they are sent.
  function endsWith(waiting) {
    var news = waiting.filter(function (item) { return item.kind === "new"; })
      .sort(byNumber);
    var last = news.length ? news[news.length - 1].after : null;
    return last && last.finished ? last : null;
  }
  function offerNext(show) {
    Array.prototype.forEach.call(document.querySelectorAll("#enter-deal, .quick-start"), function (el) {
      if (!show) { if (!el.hidden) { el.hidden = true; el.dataset.endsOffline = "1"; } }
      else if (el.dataset.endsOffline) { el.hidden = false; el.removeAttribute("data-ends-offline"); }
    });
  }
  function showOutbox() {
    var hook = outboxHook();
    var entry = entryForm();
    if (!hook && !entry) return;
    var match = hook ? hook.match : entry.dataset.match;
    var items = load(OUTBOX, []).filter(function (item) { return String(item.match) === String(match); });
    if (hook) waitingRows(items);
    if (hook) offerNext(!endsWith(items.filter(function (item) { return item.state === "waiting"; })));
    if (hook) {
      hook.el.textContent = "";
      hook.el.hidden = !items.length;
      var waiting = items.filter(function (item) { return item.state === "waiting"; });
      if (waiting.length) {
        var noun = waiting[0].noun || "deal";
        var note = document.createElement("div");
        note.className = "outbox-note";
        note.setAttribute("role", "status");
        var p = document.createElement("p");
        p.textContent = say(waiting.length === 1 ? "waiting_one" : "waiting_many",
                            "{count} " + noun + (waiting.length === 1 ? "" : "s") + " waiting to send",
                            { count: waiting.length }, noun);
        var button = document.createElement("button");
        button.type = "button";
        button.className = "button small";
        button.textContent = say("send_now", "Send now");
        button.addEventListener("click", sendOutbox);
        note.appendChild(p);
        note.appendChild(button);
        var ends = endsWith(waiting);
        if (ends) {
          var end = document.createElement("p");
          end.className = "outbox-ends";
          end.id = "outbox-ends";
          end.textContent = ends.ends + (ends.note ? " " + ends.note : "");
          note.appendChild(end);
        }
        if (waiting[0].problem) {
          var why = document.createElement("p");
          why.className = "outbox-why";
          why.textContent = problemText(waiting[0]);
          if (waiting[0].problem === "signed_out") {
            why.appendChild(document.createTextNode(" "));
            why.appendChild(signInLink(window.location.pathname + window.location.search));
          }
          note.appendChild(why);
        }
        hook.el.appendChild(note);
      }
      items.filter(function (item) { return item.state === "refused"; }).forEach(function (item) {
        var note = document.createElement("div");
        note.className = "outbox-note refused";
        note.setAttribute("role", "alert");
        var p = document.createElement("p");
        var what = label(nounWord(item.noun || "deal"), item.number);
        p.textContent = item.taken
          ? say("taken_elsewhere", "{what} was not stored: another phone entered it first.", { what: what })
          : say("not_accepted", "{what} was not accepted by Referee.", { what: what });
        var button = document.createElement("button");
        button.type = "button";
        button.className = "button small";
        button.textContent = item.taken ? say("open_it", "Open it") : say("open_to_fix", "Open it to fix");
        button.addEventListener("click", function () { openRefused(item); });
        note.appendChild(p);
        if (item.why && !item.taken) {
          var why = document.createElement("p");
          why.className = "outbox-why";
          why.textContent = item.why;
          note.appendChild(why);
        }
        note.appendChild(button);
        hook.el.appendChild(note);
      });
    }
  }

  // ---- start -------------------------------------------------------------------------------
  // Where "Open it" led: the refused entry's form (it holds the entry now), or the table with it stored (the
  // post went through after all); anywhere else the entry stays in the outbox.
  function settleOpened() {
    var form = entryForm();
    var key = form ? value(pairs(form), "idempotency_key") : "";
    var table = routePath().match(/^\/matches\/(\d+)\/?$/);
    var query = new URLSearchParams(window.location.search);
    var shown = query.get("new") || query.get("changed");
    var items = load(OUTBOX, []);
    var kept = items.filter(function (item) {
      if (item.state !== "waiting" && item.key === key) return false;
      if (!item.opened) return true;
      delete item.opened;
      var stored = table && table[1] === String(item.match) && shown === String(item.number);
      if (stored) markSent(item.key);
      return !stored;
    });
    if (items.length) keep(OUTBOX, kept);
  }

  function start() {
    settleOpened();
    var form = entryForm();
    if (form) keptForm(form);
    else keptTable();
    if (form) {
      pristineFor(form);
      pruneDrafts(form);
      // Opened from the table with its first answer (?upcard=…, ?contract=…): bring the next step into view.
      if (window.location.search && form.dataset.kind === "new") showNext(form);
      if (!outboxStatus(form)) restoreDraft();
    }
    showOutbox();
    sendOutbox();
    keepPages();
  }
  window.addEventListener("online", function () {
    hold = false;
    drain();
    sendOutbox();
    var form = entryForm();  // the preview said it needed the connection: work it out again
    if (form && document.querySelector("#preview.is-stale") && !pending.length && !queue.length) {
      var refresh = form.querySelector("button[name='op'][value='refresh']");
      if (refresh) refresh.click();
    }
  });
  document.addEventListener("referee:live", showOutbox);
  window.setInterval(function () { if (window.navigator.onLine !== false) sendOutbox(); }, RETRY_MS);
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    // Back/Forward from the cache: a saved entry must not come back as if unsaved.
    var form = entryForm();
    if (form && wasSent(value(pairs(form), "idempotency_key"))) { window.location.reload(); return; }
    saving = null;
    pending = [];
    busy();
    if (form) restoreDraft();
    showOutbox();
    sendOutbox();
  });
  start();

  // ---- the rules on the phone (issue 49) -----------------------------------------------------
  // After the entry page's first paint, a Web Worker (static/rules-worker.js) loads Pyodide and the rules' zip —
  // from the service worker's cache after the first time. Once it is ready (<html data-rules="ready">), a tap that
  // saves nothing is answered by it: the same Python and templates as the server's entry view, in the page's words
  // (referee.phone.answer). The answer goes through htmx as the server's would (the request's XMLHttpRequest is
  // answered on the phone, never sent), so the queue, the draft and the next step work as they do with the server.
  // Save, "discard" and "enter it as the next deal" always go to the server, as does any tap the worker leaves to it.
  var rules = { worker: null, ready: false, taps: {}, next: 1 };
  var PAGE_ONLY = ["save", "discard", "renumber"];
  function rulesState(value) { document.documentElement.setAttribute("data-rules", value); }
  function startRules() {
    var form = entryForm();
    if (rules.worker || !form || !form.dataset.rulesSeed || !window.Worker || !window.WebAssembly) return;
    var seed;
    try { seed = JSON.parse(form.dataset.rulesSeed); } catch (e) { return; }
    try {
      rules.worker = new Worker(seed.worker, { type: "module" });
    } catch (e) { return; }
    rulesState("loading");
    rules.started = performance.now();
    rules.worker.onmessage = function (event) {
      var m = event.data;
      if (m.kind === "ready") {
        // One tap answered and thrown away first (the form as it is): the templates are compiled and the modules
        // imported before the first real tap, which then answers as quickly as every other.
        rules.taps[0] = function () {
          rules.ready = true;
          document.documentElement.setAttribute("data-rules-ms", String(Math.round(performance.now() - rules.started)));
          document.documentElement.setAttribute("data-rules-from", m.from || "start");  // or "snapshot": kept
          rulesState("ready");
          typedAtOnce();
          keptNext();
        };
        var form = entryForm();
        rules.worker.postMessage({ kind: "tap", id: 0, request: form ? tapRequest(form, pairs(form)) : "{}" });
      } else if (m.kind === "failed") {
        stopRules();
      } else if (m.kind === "failed-tap") {
        console.error("The rules on this phone could not answer a tap (Referee answers it): " + m.error);
      } else if (m.kind === "answer") {
        var done = rules.taps[m.id];
        delete rules.taps[m.id];
        if (done) done(m.html);
      }
    };
    rules.worker.onerror = stopRules;
    var here = window.location.href;
    rules.worker.postMessage({ kind: "load", pyodide: new URL(seed.pyodide, here).href,
                               bundle: new URL(seed.bundle, here).href });
  }
  // A kept form (no connection), once the rules on the phone are ready: for the deal after those waiting to send
  // (deal 2 when deal 1 waits: its number, its dealer by the rules, the totals with them), or saying that the match
  // ends with them; a waiting deal's own (?waiting=<key>: to correct it); then its first answer (?upcard=…: a
  // quick-start link of the table), as Referee would have opened it.
  function keptNext() {
    var form = entryForm();
    if (!form || !document.documentElement.dataset.kept || form.dataset.kind !== "new") return;
    if (new URLSearchParams(window.location.search).get("waiting")) { refillKept(); return; }
    var chain = waitingFrom(form);
    if (!chain.length) { firstAnswer(); return; }
    var key = value(pairs(form), "idempotency_key");
    askFollowing(form, chain.map(function (item) { return item.fields; }),
                 [["csrf_token", csrfNow()], ["idempotency_key", key]], function (after) {
      var now = entryForm();
      if (!now || value(pairs(now), "idempotency_key") !== key) return;
      if (!after || after.unscored) { cannotFollow(); return; }
      if (after.finished) { matchEnds(now, after); return; }
      var fresh = swapForm(after.html);
      if (!fresh) return;
      var h1 = fresh.querySelector("#entry-head h1");
      if (h1 && h1.firstChild) document.title = h1.firstChild.textContent.trim() + " · Referee";
      status("", false);
      firstAnswer();
    });
  }
  // The rules on the phone, asked where the match stands after ``waiting`` (each a deal's fields, in order, from
  // this form's deal on) and for the form after them (``fields``: its key and token); ``done(answer or null)``.
  function askFollowing(form, waiting, fields, done) {
    var id = rules.next++;
    rules.taps[id] = function (json) {
      var answer = null;
      try { answer = json ? JSON.parse(json) : null; } catch (e) { answer = null; }
      done(answer);
    };
    var head = document.getElementById("entry-head");
    rules.worker.postMessage({ kind: "following", id: id, request: '{"seed":' + form.dataset.rulesSeed +
      ',"fields":' + JSON.stringify(fields) + ',"waiting":' + JSON.stringify(waiting) + ',"head":' +
      JSON.stringify(head ? head.outerHTML : "") + "}" });
  }
  // The match ends with the deals waiting to send: no form (Referee would refuse it), said where it was.
  function matchEnds(form, after) {
    var card = document.createElement("div");
    card.className = "card notice";
    card.id = "match-ends";
    card.setAttribute("role", "status");
    var p = document.createElement("p");
    var b = document.createElement("b");
    b.textContent = after.ends;
    p.appendChild(b);
    if (after.note) p.appendChild(document.createTextNode(" " + after.note));
    var back = document.createElement("a");
    back.className = "button";
    back.href = matchPage(form.dataset.match);
    back.textContent = "‹ " + say("back_to_table", "Table");
    card.appendChild(p);
    card.appendChild(back);
    form.replaceWith(card);
    var bar = document.getElementById("send-status");
    if (bar) bar.textContent = "";
  }
  // A quick-start link's first answer (?upcard=hearts), opened with no connection: the kept form answers it on the
  // phone, as Referee answers the link online (the entry read from the query).
  function firstAnswer() {
    var form = entryForm();
    var asked = [];
    new URLSearchParams(window.location.search).forEach(function (v, k) {
      if (k !== "lang" && k !== "waiting") asked.push([k, v]);
    });
    if (!form || !asked.length) return;
    var key = value(pairs(form), "idempotency_key");
    var fields = without(pairs(form), asked.map(function (p) { return p[0]; }).concat(["op"]))
      .concat(asked).concat([["op", "refresh"]]);
    var id = rules.next++;
    rules.taps[id] = function (html) {
      if (html === null || !entryForm() || value(pairs(entryForm()), "idempotency_key") !== key) return;
      var fresh = swapForm(html);
      if (!fresh) return;
      saveDraft();
      showNext(fresh);
    };
    rules.worker.postMessage({ kind: "tap", id: id, request: tapRequest(form, fields) });
  }
  // A kept form (no connection) for a deal that already waits in the outbox opens with that deal as it was saved,
  // worked out by the rules on the phone: changed and saved again, it replaces the waiting one.
  function refillKept() {
    var form = entryForm();
    if (!form || !document.documentElement.dataset.kept) return;
    var key = value(pairs(form), "idempotency_key");
    var item = load(OUTBOX, []).filter(function (i) { return i.key === key && i.state === "waiting"; })[0];
    if (!item) return;
    var id = rules.next++;
    rules.taps[id] = function (html) {
      if (html === null || !entryForm() || value(pairs(entryForm()), "idempotency_key") !== key) return;
      swapForm(html);
      outboxStatus(entryForm());
    };
    var fields = withField(withField(item.fields, "csrf_token", csrfNow()), "op", "refresh");
    rules.worker.postMessage({ kind: "tap", id: id, request: tapRequest(form, fields) });
  }
  function stopRules() {
    // The phone cannot run the rules (an old phone, no WebAssembly): every tap goes to the server, as before.
    rules.ready = false;
    if (rules.worker) rules.worker.terminate();
    var waiting = rules.taps;
    rules.taps = {};
    Object.keys(waiting).forEach(function (id) { waiting[id](null); });
    rulesState("failed");
    cannotFollow();
  }
  function afterFirstPaint() {
    window.requestAnimationFrame(function () { window.setTimeout(startRules, 0); });
  }
  if (document.readyState === "complete") afterFirstPaint();
  else window.addEventListener("load", afterFirstPaint);

  // Typed numbers: the server is asked once typing stops (hx-trigger "input delay:350ms"); the phone answers each
  // keystroke (a pause of 50 ms lets "70" arrive as one number).
  function typedAtOnce() {
    if (!rules.ready || !window.htmx) return;
    Array.prototype.forEach.call(document.querySelectorAll("#entry [hx-trigger='input delay:350ms']"), function (el) {
      el.setAttribute("hx-trigger", "input delay:50ms");
      window.htmx.process(el);
    });
  }
  document.addEventListener("htmx:afterSettle", typedAtOnce);
  function tapRequest(form, fields) {
    var head = document.getElementById("entry-head");
    return '{"seed":' + form.dataset.rulesSeed + ',"fields":' + JSON.stringify(fields) + ',"head":' +
      JSON.stringify(head ? head.outerHTML : "") + "}";
  }
  // The request's XMLHttpRequest, answered with the phone's HTML as Referee would answer it (200, the form).
  function answeredHere(xhr, html) {
    [["readyState", 4], ["status", 200], ["statusText", "OK"], ["responseURL", ""], ["response", html],
     ["responseText", html]].forEach(function (p) {
      Object.defineProperty(xhr, p[0], { value: p[1], configurable: true });
    });
    xhr.getResponseHeader = function () { return null; };
    xhr.getAllResponseHeaders = function () { return ""; };
    if (xhr.onload) xhr.onload.call(xhr);
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig;
    if (!rules.ready || !inEntry(event.detail.elt) || !config || config.verb !== "post") return;
    var form = entryForm();
    var op = config.parameters && config.parameters.op;
    if (!form || !form.dataset.rulesSeed || PAGE_ONLY.indexOf(op) >= 0) return;
    var fields = [];
    config.formData.forEach(function (value, name) { if (typeof value === "string") fields.push([name, value]); });
    var request = tapRequest(form, fields);
    var xhr = event.detail.xhr;
    var send = xhr.send, abort = xhr.abort, state = "phone";
    xhr.abort = function () {  // htmx replaced this tap with a newer one: nothing is shown for it
      if (state === "server") return abort.call(xhr);
      state = "aborted";
      if (xhr.onabort) xhr.onabort.call(xhr);
    };
    xhr.send = function (body) {
      var id = rules.next++;
      rules.taps[id] = function (html) {
        if (state === "aborted") return;
        if (html === null) { state = "server"; send.call(xhr, body); return; }
        answeredHere(xhr, html);
      };
      rules.worker.postMessage({ kind: "tap", id: id, request: request });
    };
  });
})();

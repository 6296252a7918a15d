// Referee: the deal-entry form at a real table — nothing entered is lost.
//  - taps made while a request is on its way are queued and replayed on the re-rendered form;
//  - Save cannot be sent twice, and says it is busy;
//  - what is being entered is kept on the phone (a draft per match and deal) and comes back;
//  - a Save that cannot reach Referee waits in an outbox on the phone and is sent by itself later,
//    with its idempotency key, so it is entered exactly once.
// Plain http on a LAN is enough: localStorage and fetch, no service worker. No inline scripts.
(function () {
  "use strict";
  var OUTBOX = "referee.outbox";
  var DRAFT = "referee.draft.";
  var SENT = "referee.sent";
  // The sentences in the page's language (a meta element of base.html, read when needed); English if it is missing.
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
  function nounWord(noun) { return (words().nouns || {})[noun] || noun; }
  var NO_CONNECTION_EN = "Not sent — no connection. Kept on this phone; sent when the connection is back.";
  var RETRY_MS = 15000;

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

  function post(url, list) {
    return window.fetch(url, {
      method: "POST", credentials: "same-origin", headers: { "HX-Request": "true" },
      body: new URLSearchParams(list),
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
  function status(text, bad) {
    var line = document.getElementById("send-status");
    if (!line) return;
    line.textContent = text || "";
    line.hidden = !text;
    line.classList.toggle("bad", !!bad);
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
      status("Saving…");
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
    if (saving && xhr.status === 204 && xhr.getResponseHeader("HX-Redirect")) {
      var form = entryForm();
      markSent(value(saving, "idempotency_key"));
      if (form) keep(draftKey(form), null);
      queue = [];
    } else if (saving) {
      // Only a Save that got no answer (no connection, a timeout) goes to the outbox, from the error handlers that
      // follow; one Referee answered (a 422 beside the fields, a 409) is settled.
      lastSave = xhr.status === 0 ? saving : null;
      saving = null;
    }
    busy();
    window.setTimeout(drain, 30);
  });

  function failed(event, text) {
    var elt = event.detail.elt;
    if (!inEntry(elt) && !(event.detail.requestConfig && inEntry(event.detail.requestConfig.elt))) return false;
    event.stopPropagation();  // said beside Save, not at the top of the page
    var save = document.getElementById("save");
    if (save) { save.disabled = false; save.removeAttribute("aria-disabled"); }
    if (lastSave) {
      var form = entryForm();
      if (text === say("no_connection", NO_CONNECTION_EN) && form) {
        toOutbox(form, lastSave);
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
  window.addEventListener("offline", function () { if (entryForm()) previewOffline(); });

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
    if (xhr.status === 409 && inEntry(event.detail.elt) && xhr.responseText.indexOf('id="entry"') >= 0) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
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
      var waiting = load(OUTBOX, []).some(function (item) { return item.key === value(pairs(form), "idempotency_key"); });
      if (waiting) status(say("no_connection", NO_CONNECTION_EN), true);
      showNext(form);
    }
    saveDraft();
  });

  // After a tap, bring what is to be entered next into view (above the save bar), so the common deal
  // needs no swipe: only when the next step changed, or the tap was inside it (a Joker Judge trick).
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
    window.requestAnimationFrame(function () { if (step.isConnected) reveal(step); });
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
  function toOutbox(form, list) {
    var key = value(list, "idempotency_key");
    var items = load(OUTBOX, []).filter(function (item) { return item.key !== key; });
    items.push({
      key: key, url: form.getAttribute("action"), match: form.dataset.match, number: form.dataset.deal,
      kind: form.dataset.kind, noun: form.dataset.noun || "deal", draft: draftKey(form),
      fields: withField(list, "op", "save"), at: Date.now(), state: "waiting",
    });
    keep(OUTBOX, items);
    showOutbox();
  }
  function dropFromOutbox(key) {
    keep(OUTBOX, load(OUTBOX, []).filter(function (item) { return item.key !== key; }));
  }
  function openRefused(item) {
    // A normal post of the entry: the form opens with the errors beside the fields.
    dropFromOutbox(item.key);
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
    var items = load(OUTBOX, []).filter(function (item) { return item.state === "waiting"; });
    if (!items.length) return;
    sendingOutbox = true;
    var item = items[0];
    var list = withField(item.fields, "csrf_token", csrfNow() || value(item.fields, "csrf_token"));
    // An entry kept before forms said which deal they are for: it is for the deal its form was opened for.
    if (!value(list, "number") && item.kind === "new" && item.number) list = withField(list, "number", String(item.number));
    post(item.url, list).then(function (response) {
      var form = entryForm();
      var here = form && value(pairs(form), "idempotency_key") === item.key;
      if (response.status === 204 || (response.ok && response.redirected)) {
        dropFromOutbox(item.key);
        markSent(item.key);
        keep(item.draft, null);
        var to = response.headers.get("HX-Redirect") || response.url;
        if (here) { window.location.href = to; return; }
        var hook = outboxHook();
        if (hook && String(hook.match) === String(item.match)) { window.location.reload(); return; }
        showOutbox();
        sendingOutbox = false;
        sendOutbox();
        return;
      }
      if (response.status >= 500) { sendingOutbox = false; return; }  // try again later
      // Refused (422 wrong, 409 match changed, 400 expired form...): open it with the errors.
      return response.text().then(function (html) {
        if (here && (response.status === 422 || response.status === 409) && swapForm(html)) {
          dropFromOutbox(item.key);
          // Another phone entered that deal first: the form's head says so, with the choices; else the errors.
          if (html.indexOf('id="taken"') < 0) {
            status(say("not_accepted_here", "Referee did not accept this " + item.noun +
                       ": see the messages beside the fields.", {}, item.noun), true);
          }
        } else {
          // Another phone entered that deal first (409 with the deal it entered): never stored under another
          // number by itself — the phone offers to open it, with the choice to discard it or enter it as the next.
          var taken = response.status === 409 && html.indexOf('id="taken"') >= 0;
          var all = load(OUTBOX, []);
          all.forEach(function (i) {
            if (i.key === item.key) { i.state = "refused"; i.status = response.status; i.taken = taken; }
          });
          keep(OUTBOX, all);
        }
        showOutbox();
        sendingOutbox = false;
        sendOutbox();
      });
    }).catch(function () { sendingOutbox = false; });
  }

  // "1 deal waiting to send" on the match page (the #outbox hook, or before "Enter deal").
  function outboxHook() {
    var hook = document.getElementById("outbox");
    var m = window.location.pathname.match(/^\/matches\/(\d+)\/?$/);
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
  function showOutbox() {
    var hook = outboxHook();
    var entry = entryForm();
    if (!hook && !entry) return;
    var match = hook ? hook.match : entry.dataset.match;
    var items = load(OUTBOX, []).filter(function (item) { return String(item.match) === String(match); });
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
        note.appendChild(button);
        hook.el.appendChild(note);
      });
    }
  }

  // ---- start -------------------------------------------------------------------------------
  function start() {
    var form = entryForm();
    if (form) {
      pristineFor(form);
      pruneDrafts(form);
      // Opened from the table with its first answer (?upcard=…, ?contract=…): bring the next step into view.
      if (window.location.search && form.dataset.kind === "new") showNext(form);
      if (load(OUTBOX, []).some(function (item) { return item.key === value(pairs(form), "idempotency_key"); })) {
        status(say("no_connection", NO_CONNECTION_EN), true);
      } else {
        restoreDraft();
      }
    }
    showOutbox();
    sendOutbox();
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
})();

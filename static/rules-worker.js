// The rules on the phone (issue 49): a Web Worker that loads Pyodide (CPython for WebAssembly) and the rules' zip
// (referee/games, the web games' forms, the entry templates and catalogues: referee.phone.bundle), then answers
// each tap of the entry form as the server's entry view would (referee.phone.answer: the same Python, the same
// templates, the same words). The page (static/entry.js) starts it after its first paint; the service worker keeps
// Pyodide's files and the zip, so from the second time on nothing is downloaded.
// Messages: {kind: "load", pyodide, bundle} → {kind: "ready", ms, from: "start" | "snapshot"} or {kind: "failed", error};
//           {kind: "tap", id, request} → {kind: "answer", id, html} (html null: the server must answer);
//           {kind: "following", id, request} → {kind: "answer", id, html} (html: JSON of where the match stands after
//           the deals waiting to send, and the next deal's form — referee.phone.answer.Rules.following; null: unknown).
"use strict";
let rules = null;
let loading = null;

// Pyodide's memory once the rules are imported, kept on the phone (Cache Storage, by the rules' zip's digest): the
// next entry page starts from it — CPython's start and the imports already done — in a tenth of the time (a 31 MB
// copy into WebAssembly's memory instead of ~2 s of CPU on a desktop, 6-15 s on a phone). Made once a phone and a
// version of the rules; any failure to keep or to read it is a start from nothing, as before.
const SNAPSHOTS = "referee-rules-snapshot";
const IMPORT = "import sys\nsys.path.insert(0, '/rules.zip')\nfrom referee.phone.answer import Rules\n" +
               "rules = Rules('/rules.zip')";

async function keptSnapshot(key) {
  if (!self.caches) return null;  // not a secure context (Referee on the local network over plain HTTP)
  try {
    const hit = await (await caches.open(SNAPSHOTS)).match(key);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch (e) {
    return null;
  }
}

async function keepSnapshot(key, snapshot) {
  if (!self.caches) return;
  try {
    const cache = await caches.open(SNAPSHOTS);
    await Promise.all((await cache.keys()).filter((r) => r.url !== key).map((r) => cache.delete(r)));  // older rules
    await cache.put(key, new Response(snapshot, { headers: { "Content-Type": "application/octet-stream" } }));
  } catch (e) { /* the next page starts from nothing: slower, not wrong */ }
}

async function load(indexURL, bundleURL) {
  const started = performance.now();
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  const key = bundleURL.replace(/\.zip$/, ".snapshot");
  const [snapshot, zipped] = await Promise.all([
    keptSnapshot(key),
    fetch(bundleURL).then((r) => { if (!r.ok) throw new Error("rules " + r.status); return r.arrayBuffer(); }),
  ]);
  let py = null;
  let from = "snapshot";
  if (snapshot) {
    try {
      py = await loadPyodide({ indexURL, fullStdLib: false, _loadSnapshot: snapshot });
      py.FS.writeFile("/rules.zip", new Uint8Array(zipped));  // the files are not in the memory: what imports later reads
    } catch (e) {
      py = null;
    }
  }
  if (!py) {
    from = "start";
    py = await loadPyodide({ indexURL, fullStdLib: false, _makeSnapshot: !!self.caches });
    py.FS.writeFile("/rules.zip", new Uint8Array(zipped));
    py.runPython(IMPORT);
    if (self.caches) {
      try {
        keepSnapshot(key, py.makeMemorySnapshot());  // before any object of Python's is handed to JavaScript
      } catch (e) { /* as above */ }
    }
  }
  rules = py.globals.get("rules");
  return { ms: performance.now() - started, from };
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.kind === "load") {
    if (!loading) loading = load(message.pyodide, message.bundle);
    try {
      const loaded = await loading;
      self.postMessage({ kind: "ready", ms: Math.round(loaded.ms), from: loaded.from });
    } catch (error) {
      self.postMessage({ kind: "failed", error: String(error) });
    }
  } else if (message.kind === "tap" || message.kind === "following") {
    let html = null;
    try {
      if (rules) html = message.kind === "tap" ? rules.answer_json(message.request) : rules.following_json(message.request);
    } catch (error) {
      html = null;  // whatever went wrong here, the server answers
      self.postMessage({ kind: "failed-tap", error: String(error) });
    }
    self.postMessage({ kind: "answer", id: message.id, html: html === undefined ? null : html });
  }
};

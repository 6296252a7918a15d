// The rules on the phone (issue 49): a Web Worker that loads Pyodide (CPython for WebAssembly) and the rules' zip
// (referee/games, the web games' forms, the entry templates and catalogues: referee.phone.bundle), then answers
// each tap of the entry form as the server's entry view would (referee.phone.answer: the same Python, the same
// templates, the same words). The page (static/entry.js) starts it after its first paint; the service worker keeps
// Pyodide's files and the zip, so from the second time on nothing is downloaded.
// Messages: {kind: "load", pyodide, bundle} → {kind: "ready", ms} or {kind: "failed", error};
//           {kind: "tap", id, request} → {kind: "answer", id, html} (html null: the server must answer);
//           {kind: "following", id, request} → {kind: "answer", id, html} (html: JSON of where the match stands after
//           the deals waiting to send, and the next deal's form — referee.phone.answer.Rules.following; null: unknown).
"use strict";
let rules = null;
let loading = null;

async function load(indexURL, bundleURL) {
  const started = performance.now();
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  const [py, zipped] = await Promise.all([
    loadPyodide({ indexURL, fullStdLib: false }),
    fetch(bundleURL).then((r) => { if (!r.ok) throw new Error("rules " + r.status); return r.arrayBuffer(); }),
  ]);
  py.FS.writeFile("/rules.zip", new Uint8Array(zipped));
  py.runPython("import sys\nsys.path.insert(0, '/rules.zip')\nfrom referee.phone.answer import Rules\n" +
               "rules = Rules('/rules.zip')");
  rules = py.globals.get("rules");
  return performance.now() - started;
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.kind === "load") {
    if (!loading) loading = load(message.pyodide, message.bundle);
    try {
      self.postMessage({ kind: "ready", ms: Math.round(await loading) });
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

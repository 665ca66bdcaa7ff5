// The rules worker: companion/rules, unchanged, running under Pyodide in a Web Worker, so a
// phone without the network checks and scores exactly as the server does.
//
// Served by companion/web/offline as /offline-kit/<fingerprint>/rules-worker.js, a module
// worker, with KIT filled in: where Pyodide and the rules archive are, relative to this
// script. Every file comes from our own origin; Pyodide is asked for no package, and any
// package URL would be ours too, so it never reaches for a CDN. No rule is written here.
//
// In:  {id, call, body, language}  call: a path rules_worker.py answers ("rounds/score",
//      "tricks/resolve", "pages/resolver", ...); body: the API's
//      request; language (optional): the player's ("de"), in which a refusal's error is said
//      as the server's pages say it (English for a language the app lacks); without it, the
//      API's English
// Out: {type: "ready", pyodide, python, ms, pyodide_ms} once started (ms in all; pyodide_ms
//      of it to load Pyodide, the rest to fetch, unpack and import the rules), or
//      {type: "failed", error};
//      {id, status, body} for each call: the status and body the JSON API answers.
const KIT = __KIT__;
const FOLDER = "/home/pyodide/offline-rules";
const MODULE = "rules_worker";

async function start() {
  const began = performance.now();
  const indexURL = new URL(KIT.pyodide, self.location.href).href;
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL, packageBaseUrl: indexURL, packages: [] });
  const loaded = performance.now();
  const archive = await fetch(new URL(KIT.rules, self.location.href));
  if (!archive.ok) {
    throw new Error("the rules archive answered " + archive.status);
  }
  pyodide.unpackArchive(await archive.arrayBuffer(), "zip", { extractDir: FOLDER });
  pyodide.runPython("import sys\nsys.path.insert(0, " + JSON.stringify(FOLDER) + ")");
  const answer = pyodide.pyimport(MODULE).answer;
  const python = pyodide.runPython("import sys\nsys.version.split()[0]");
  const ms = performance.now() - began;
  return { answer, pyodide: pyodide.version, python, ms, pyodide_ms: loaded - began };
}

const started = start();
started.then(
  ({ answer, ...info }) => self.postMessage({ type: "ready", ...info }),
  (error) => self.postMessage({ type: "failed", error: String(error) })
);

self.onmessage = async (event) => {
  const { id, call, body, language } = event.data || {};
  let info;
  try {
    info = await started;
  } catch (error) {
    self.postMessage({ id, status: 503, body: { error: "The rules did not load: " + error } });
    return;
  }
  let reply;
  try {
    const request = [String(call), JSON.stringify(body === undefined ? null : body)];
    if (language !== undefined && language !== null) {
      request.push(String(language));
    }
    reply = JSON.parse(info.answer(...request));
  } catch (error) {
    reply = { status: 500, body: { error: "The rules worker failed: " + error } };
  }
  self.postMessage({ id, status: reply.status, body: reply.body });
};

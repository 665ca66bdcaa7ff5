// Time a page's first render by the offline rules worker, under node with the vendored
// Pyodide, as the phone runs it: load Pyodide, unpack the rules archive, import the worker's
// Python side and Jinja, then ask for a page three times (the first pays for its templates;
// the others show a render alone).
//
// Usage: node scripts/first_render.mjs <pyodide folder> <rules.zip> <call> <body JSON> [language]
// Prints one JSON line of milliseconds: pyodide, unpack, import, jinja, first, second, third, each as
// the process's CPU time (steadier than the clock on a busy machine) and, after "/", the wall
// clock.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const [folder, rules, call, body, language = "en"] = process.argv.slice(2);
if (!folder || !rules || !call || !body) {
  console.error("usage: node scripts/first_render.mjs <pyodide> <rules.zip> <call> <body> [language]");
  process.exit(2);
}
const times = {};
let start = performance.now();
let cpu = process.cpuUsage();
function lap(name) {
  const now = performance.now();
  const used = process.cpuUsage(cpu);
  times[name] = `${Math.round((used.user + used.system) / 1000)}/${Math.round(now - start)}`;
  start = now;
  cpu = process.cpuUsage();
}
const indexURL = resolve(folder) + "/";
const { loadPyodide } = await import(pathToFileURL(join(indexURL, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL, packages: [] });
lap("pyodide");
const place = "/home/pyodide/offline-rules";
pyodide.unpackArchive(new Uint8Array(readFileSync(rules)), "zip", { extractDir: place });
lap("unpack");
pyodide.globals.set("PLACE", place);
pyodide.runPython("import sys\nsys.path.insert(0, PLACE)\nimport rules_worker");
lap("import");
// What any page's first render imports, whatever its template: Jinja and the page models.
pyodide.runPython("import jinja2, jinja2.ext, companion.pages.render, companion.pages.resolver");
lap("jinja");
pyodide.globals.set("CALL", call);
pyodide.globals.set("BODY", body);
pyodide.globals.set("LANGUAGE", language);
const ask = "import json\nanswer = json.loads(rules_worker.answer(CALL, BODY, LANGUAGE))\nanswer['status']";
for (const name of ["first", "second", "third"]) {
  const status = pyodide.runPython(ask);
  lap(name);
  if (status !== 200) {
    console.error(pyodide.runPython("json.dumps(answer)"));
    process.exit(1);
  }
}
console.log(JSON.stringify(times));

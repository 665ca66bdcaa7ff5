// Compile the standard library a rules worker's start imports, with Pyodide's own CPython,
// at kit-build time (scripts/offline_kit.py runs this under node; never at run time).
//
// Pyodide's python_stdlib.zip holds sources only, so every start of the rules worker on a
// phone compiled some 140 modules (Pyodide's own start, json, gettext, dataclasses, ...)
// again, in WebAssembly not yet optimised: most of its start. Compiled once here, by the
// very interpreter the phone runs (so the bytecode is for its exact version and magic
// number), each start only unmarshals them.
//
// Usage: node scripts/compile_stdlib.mjs <pyodide folder> <compiled zip> [module ...]
// The folder holds the checked copies of pyodide.mjs, pyodide.asm.*, python_stdlib.zip and
// pyodide-lock.json; the modules are those the rules import besides what Pyodide's start
// does. scripts/compile_stdlib.py, run inside Pyodide, does the work.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const [folder, output, ...modules] = process.argv.slice(2);
if (!folder || !output) {
  console.error("usage: node scripts/compile_stdlib.mjs <pyodide folder> <zip> [module ...]");
  process.exit(2);
}
const indexURL = resolve(folder) + "/";
const { loadPyodide } = await import(pathToFileURL(join(indexURL, "pyodide.mjs")).href);
// A fixed hash seed: sets and frozensets among the constants are marshalled in one order,
// so the same sources give the same bytes on every machine.
const pyodide = await loadPyodide({ indexURL, packages: [], env: { PYTHONHASHSEED: "0" } });
const here = dirname(fileURLToPath(import.meta.url));
pyodide.globals.set("MODULES", pyodide.toPy(modules));
pyodide.runPython(readFileSync(join(here, "compile_stdlib.py"), "utf8"));
writeFileSync(output, pyodide.FS.readFile(pyodide.globals.get("OUTPUT")));

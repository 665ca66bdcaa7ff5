// Compile the rules archive's modules, with Pyodide's own CPython, at kit-build time
// (scripts/offline_kit.py runs this under node; never at run time).
//
// The server builds the rules archive from the installed package when the kit is first asked
// for (companion/web/offline/kit.py), with a Python of its own version; the phone runs
// Pyodide's. So the bytecode for the phone is made here, by that very interpreter, for the
// sources as they are now, and the server ships it beside a source only while the source is
// still those bytes. Checked-hash bytecode (PEP 552): should a source ever differ, CPython on
// the phone compiles the source instead, so a stale file costs time, never a wrong rule.
//
// Usage: node scripts/compile_rules.mjs <pyodide folder> <out folder> <name=path> ...
// Each <name> is the module's path inside the rules archive; its bytecode is written to
// <out folder>/<name>c. The cache tag ("cpython-314") is printed.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [folder, output, ...pairs] = process.argv.slice(2);
if (!folder || !output) {
  console.error("usage: node scripts/compile_rules.mjs <pyodide folder> <out> <name=path> ...");
  process.exit(2);
}
const indexURL = resolve(folder) + "/";
const { loadPyodide } = await import(pathToFileURL(join(indexURL, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL, packages: [], env: { PYTHONHASHSEED: "0" } });
// Where the worker unpacks the archive (worker/rules-worker.js): the names in tracebacks.
const unpacked = "/home/pyodide/offline-rules";
const names = [];
for (const pair of pairs) {
  const [name, path] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
  pyodide.FS.mkdirTree(dirname(`${unpacked}/${name}`));
  pyodide.FS.writeFile(`${unpacked}/${name}`, readFileSync(path));
  names.push(name);
}
pyodide.globals.set("UNPACKED", unpacked);
pyodide.globals.set("NAMES", pyodide.toPy(names));
const tag = pyodide.runPython(`
import py_compile, sys
for name in NAMES:
    py_compile.compile(
        f"{UNPACKED}/{name}",
        cfile=f"{UNPACKED}/{name}c",
        doraise=True,
        invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH,
    )
sys.implementation.cache_tag
`);
for (const name of names) {
  mkdirSync(dirname(join(output, name)), { recursive: true });
  writeFileSync(join(output, name + "c"), pyodide.FS.readFile(`${unpacked}/${name}c`));
}
console.log(tag);

"""Run inside Pyodide by scripts/compile_stdlib.mjs (the names ``MODULES`` come from there):
python_stdlib.zip again, with the modules a rules worker's start imports as bytecode.

Which modules: those Pyodide's own start has imported, and those ``MODULES`` (the rules'
standard library imports) import in turn, as this very interpreter finds them. Each becomes a
``.pyc`` beside the place of its ``.py``, which is left out (zipimport prefers the ``.pyc``,
as Pyodide's own builds ship them); every other file stays as it was, in the same order, with
the same date. The bytecode is unchecked-hash (PEP 552): nothing to compare with on the phone,
and no date in it, so the zip's bytes depend on the sources alone.
"""

import importlib
import sys

for _name in MODULES:  # noqa: F821  (set by compile_stdlib.mjs)
    importlib.import_module(_name)  # one the phone lacks fails the build, not the phone

STDLIB = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip"
#: Where each was loaded from (not ``__file__``: the modules frozen into the interpreter name
#: their source in the zip too, but are not loaded from it).
ORIGINS = [getattr(module.__spec__, "origin", None) for module in list(sys.modules.values())]
IMPORTED = {origin[len(STDLIB) + 1 :] for origin in ORIGINS if (origin or "").startswith(STDLIB)}
# Imported only now, to do the work: not counted among what a start imports.
import os  # noqa: E402
import py_compile  # noqa: E402
import zipfile  # noqa: E402

WORK = "/tmp/compile-stdlib"
OUTPUT = "/tmp/python_stdlib.zip"


def compiled(name: str, source: bytes) -> bytes:
    """The ``.pyc`` of one module, named as zipimport would name its source."""
    path = os.path.join(WORK, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as file:
        file.write(source)
    target = py_compile.compile(
        path,
        cfile=path + "c",
        dfile=f"{STDLIB}/{name}",
        doraise=True,
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )
    with open(target, "rb") as file:
        return file.read()


with zipfile.ZipFile(STDLIB) as source, zipfile.ZipFile(OUTPUT, "w") as target:
    for info in source.infolist():
        data = source.read(info)
        if info.filename in IMPORTED:
            info = zipfile.ZipInfo(info.filename + "c", info.date_time)
            data = compiled(info.filename[:-1], data)
        info.compress_type = zipfile.ZIP_DEFLATED
        target.writestr(info, data, compresslevel=9)

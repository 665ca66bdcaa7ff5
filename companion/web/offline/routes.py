"""Routes of the offline kit (companion/web/offline/kit.py says what it holds).

- ``/offline-kit/manifest.json`` names the kit's files with their URLs, sizes (as stored and
  as downloaded by a browser that accepts gzip) and totals, and the worker to start: a page
  can show what "keep for offline play" costs and how far the download is. It is asked again
  each time (``no-cache``, with an ETag: 304 while the kit is unchanged).
- ``/offline-kit/<fingerprint>/<name>`` is one file of the kit, kept by the phone for a year
  (``immutable``): a new kit has new fingerprints. Another fingerprint or name is a 404; a
  server without the vendored Pyodide answers 503 and says so, and the app works on.
"""

from __future__ import annotations

from flask import abort, current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from companion.web import compression, security
from companion.web.assets import IMMUTABLE
from companion.web.offline import bp
from companion.web.offline.kit import MISSING, WORKER_SCRIPT, KitFile, KitMissing, current_kit

#: The rules worker compiles WebAssembly (Pyodide): its own policy allows that, nothing more.
WORKER_POLICY = security.CONTENT_SECURITY_POLICY.replace(
    "script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'"
)


def kit_missing(error: KitMissing) -> ResponseReturnValue:
    """503, saying the kit is not installed here (the details go to the log only)."""
    current_app.logger.warning("offline kit unavailable: %s", error)
    response = jsonify(error=MISSING)
    response.headers["Cache-Control"] = "no-store"
    return response, 503


def file_url(file: KitFile) -> str:
    return url_for("offline.kit_file", fingerprint=file.fingerprint, name=file.name)


@bp.get("/manifest.json")
def manifest() -> ResponseReturnValue:
    """What the kit holds, where, and how large it is."""
    try:
        kit = current_kit()
    except KitMissing as error:
        return kit_missing(error)
    files = [
        {
            "name": file.name,
            "url": file_url(file),
            "size": file.plain.size,
            "download_size": file.download_size,
            "sha256": file.plain.sha256,
        }
        for file in kit.files.values()
    ]
    response = jsonify(
        {
            "pyodide": kit.pyodide,
            "python": kit.python,
            "worker": file_url(kit.worker),
            "files": files,
            "size": sum(file["size"] for file in files),
            "download_size": sum(file["download_size"] for file in files),
        }
    )
    response.set_etag(kit.fingerprint)
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


@bp.get("/<fingerprint>/<name>")
def kit_file(fingerprint: str, name: str) -> ResponseReturnValue:
    """One file of the kit, for a year."""
    try:
        kit = current_kit()
    except KitMissing as error:
        return kit_missing(error)
    file = kit.files.get((fingerprint, name))
    if file is None:
        abort(404)
    response = serve(file)
    if file.name == WORKER_SCRIPT:
        response.headers["Content-Security-Policy"] = WORKER_POLICY
    return response


def serve(file: KitFile) -> Response:
    """The file, gzipped if it has a gzip variant and the browser accepts it; 304 when the
    browser holds it already."""
    gzipped = file.gzipped is not None and compression.accepts_gzip(request)
    variant = file.gzipped if gzipped and file.gzipped is not None else file.plain
    etag = compression.gzip_etag(file.etag) if gzipped else file.etag
    response = compression.file_answer(
        variant.data, variant.path, file.mimetype, etag, gzipped, download_name=file.name
    )
    if file.gzipped is not None:
        response.vary.add("Accept-Encoding")
    response.headers["Cache-Control"] = IMMUTABLE
    return response.make_conditional(
        request, accept_ranges=not gzipped, complete_length=None if gzipped else variant.size
    )

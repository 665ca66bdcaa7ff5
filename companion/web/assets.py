"""Static files under names that change with their content, cached for a year.

``url_for('static', filename='style.css')`` gives ``/static/style.3f2a91c0.css``: the
fingerprint is the start of the SHA-256 of the file's content. A phone may then keep the file
for good (``Cache-Control: public, max-age=31536000, immutable``) and never ask again: when
the file changes, its name changes, and the pages link the new name. The templates are left as
they are; a ``url_defaults`` hook rewrites the name and the static view accepts it.

- A fingerprint is computed once per file and kept. In debug mode the file's modification time
  is checked on every link, so an edited stylesheet shows at once; the static view checks it on
  every request anyway (it reads the file's metadata to answer), so a worker never serves new
  content as immutable under an old name.
- A fingerprinted name whose fingerprint is not the current content's (a page from before a
  deployment) gets the current file with ``no-cache``: better an up-to-date stylesheet than a
  404 that leaves the page unstyled; it is just not kept under that name.
- The plain name (``/static/style.css``) still works, with ``no-cache``: the phone keeps it but
  asks every time, and gets 304 while it is unchanged.
- Every answer has an ETag from the content (the same on every worker and server, unlike
  modification times) and answers 304 to a matching ``If-None-Match``. Text files of at least
  ``compression.MIN_SIZE`` bytes are sent gzipped to clients that accept it, compressed once
  per content (ETag ``"<tag>-gzip"``); the plain variant supports byte ranges.
- Stylesheets and scripts are served without comments and needless blanks
  (``companion.web.minify``); the fingerprint and the ETag still come from the file itself.

Why ours and not WhiteNoise or flask-static-digest: their ETags, old names and stale files
fail our tests, and they add a build step (docs/development.md, "Measurements behind the
design").
"""

from __future__ import annotations

import hashlib
import mimetypes
import os
import posixpath
import re
import stat as stat_module
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import NotFound
from werkzeug.security import safe_join

from companion.web import compression
from companion.web.minify import minify

#: Hex digits of the content hash in a file name.
FINGERPRINT_LENGTH = 8
#: Hex digits of the content hash in an ETag (the whole hash would only make headers longer).
ETAG_LENGTH = 20
#: A year: the longest lifetime caches are asked to honour.
IMMUTABLE = "public, max-age=31536000, immutable"
#: Files kept in memory (with their gzip variant) up to this size; larger ones are streamed.
MEMORY_LIMIT = 1024 * 1024
#: Where the app keeps its fingerprints.
EXTENSION = "companion.web.assets"

#: A fingerprinted file name: the plain name's stem, the fingerprint, the extension if any.
FINGERPRINTED = re.compile(
    rf"^(?P<stem>.+?)\.(?P<hash>[0-9a-f]{{{FINGERPRINT_LENGTH}}})(?P<ext>\.[^./]+)?$"
)


@dataclass(frozen=True)
class Asset:
    """One static file as last read: where it is, what it was (to notice a change) and what
    it holds."""

    path: str
    mtime_ns: int
    size: int
    digest: str  #: SHA-256 of the content, hex
    mimetype: str
    #: the content as served (``companion.web.minify``), or None for a file over
    #: ``MEMORY_LIMIT``; ``digest`` is the file's own, so a fingerprint names the source
    data: bytes | None

    @property
    def fingerprint(self) -> str:
        return self.digest[:FINGERPRINT_LENGTH]

    @property
    def etag(self) -> str:
        return self.digest[:ETAG_LENGTH]

    @property
    def served_size(self) -> int:
        return self.size if self.data is None else len(self.data)

    def unchanged(self, stat: os.stat_result) -> bool:
        return stat.st_mtime_ns == self.mtime_ns and stat.st_size == self.size


def read_asset(path: str, stat: os.stat_result) -> Asset:
    """Read and hash the file at ``path``."""
    digest = hashlib.sha256()
    chunks = []
    with open(path, "rb") as file:
        while chunk := file.read(65536):
            digest.update(chunk)
            if stat.st_size <= MEMORY_LIMIT:
                chunks.append(chunk)
    mimetype = mimetypes.guess_type(path)[0] or "application/octet-stream"
    data = None
    if stat.st_size <= MEMORY_LIMIT:  # stylesheets and scripts go out minified
        data = minify(b"".join(chunks), posixpath.splitext(path)[1])
    return Asset(path, stat.st_mtime_ns, stat.st_size, digest.hexdigest(), mimetype, data)


class Fingerprints:
    """The static files read so far, by path; the fingerprinted name of each link made, by
    static folder and plain name; and the gzip variant of each file's current content."""

    def __init__(self) -> None:
        self.assets: dict[str, Asset] = {}
        self.links: dict[tuple[str, str], tuple[Asset, str]] = {}
        self.gzipped: dict[str, tuple[str, bytes]] = {}  #: by path: the digest, the bytes

    def link(self, folder: str, filename: str, recheck: bool) -> str | None:
        """The fingerprinted name of ``filename`` in ``folder``; ``None`` if no such file.
        A page links several static files: without ``recheck`` a link made before costs one
        dictionary look-up, as long as the file was not found changed since."""
        made = self.links.get((folder, filename))
        if made is not None and not recheck and self.assets.get(made[0].path) is made[0]:
            return made[1]
        path = safe_join(folder, filename)
        asset = self.find(path, recheck) if path else None
        if asset is None:
            return None
        name = fingerprinted(filename, asset.fingerprint)
        self.links[(folder, filename)] = (asset, name)
        return name

    def find(self, path: str, recheck: bool) -> Asset | None:
        """The file at ``path`` (``None`` if there is none): as kept, or read again if it
        was never read or, with ``recheck``, if it changed since."""
        kept = self.assets.get(path)
        if kept is not None and not recheck:
            return kept
        try:
            stat = os.stat(path)
        except OSError:
            return None
        if kept is not None and kept.unchanged(stat):
            return kept
        if not stat_module.S_ISREG(stat.st_mode):
            return None
        asset = read_asset(path, stat)
        self.assets[path] = asset
        return asset

    def gzip_of(self, asset: Asset) -> bytes:
        """The gzipped content, compressed once per content (the variant of an older content
        of the same file is dropped)."""
        assert asset.data is not None
        kept = self.gzipped.get(asset.path)
        if kept is not None and kept[0] == asset.digest:
            return kept[1]
        compressed = compression.gzip_bytes(asset.data, compression.STATIC_LEVEL)
        self.gzipped[asset.path] = (asset.digest, compressed)
        return compressed


def fingerprints() -> Fingerprints:
    """The fingerprints of the current app."""
    kept: Fingerprints = current_app.extensions[EXTENSION]
    return kept


def fingerprinted(filename: str, fingerprint: str) -> str:
    """``css/style.css`` with fingerprint ``3f2a91c0`` is ``css/style.3f2a91c0.css``."""
    folder, name = posixpath.split(filename)
    stem, ext = posixpath.splitext(name)
    return posixpath.join(folder, f"{stem}.{fingerprint}{ext}")


def split_fingerprint(filename: str) -> tuple[str, str] | None:
    """The plain name and the fingerprint of a fingerprinted name; ``None`` for a name
    without one."""
    folder, name = posixpath.split(filename)
    match = FINGERPRINTED.match(name)
    if match is None:
        return None
    plain = match["stem"] + (match["ext"] or "")
    return posixpath.join(folder, plain), match["hash"]


def static_path(filename: str) -> str | None:
    """The file in the static folder that ``filename`` names, ``None`` if outside it."""
    folder = current_app.static_folder
    return safe_join(folder, filename) if folder else None


def add_fingerprint(endpoint: str, values: dict[str, Any]) -> None:
    """Give a link to a static file the fingerprint of its content (``url_defaults`` hook);
    a name that is no file of the static folder is left as it is."""
    if endpoint != "static":
        return
    filename = values.get("filename")
    if not filename or not isinstance(filename, str):
        return
    name = linked_name(filename)
    if name is not None:
        values["filename"] = name


def linked_name(filename: str) -> str | None:
    """The name a link to the static file ``filename`` carries now (fingerprinted), without
    building a URL; ``None`` if there is no such file. A scoreboard's ETag names its
    stylesheets and scripts this way on every poll: a dictionary look-up per file."""
    folder = current_app.static_folder
    if not folder:
        return None
    return fingerprints().link(folder, filename, recheck=current_app.debug)


def linked_names(filenames: Sequence[str]) -> list[str | None]:
    """:func:`linked_name` of each of ``filenames``, the app looked up once for them all: a
    kept page's ETag names every file it links, at every poll."""
    folder = current_app.static_folder
    if not folder:
        return [None for _ in filenames]
    kept, recheck = fingerprints(), current_app.debug
    return [kept.link(folder, filename, recheck) for filename in filenames]


def resolve(filename: str) -> tuple[Asset, str | None]:
    """The file a static URL names and the fingerprint it asked for (``None`` for a plain
    name); 404 if there is no such file. A file whose own name looks fingerprinted is served
    under that name."""
    kept = fingerprints()
    path = static_path(filename)
    asset = kept.find(path, recheck=True) if path else None
    if asset is not None:
        return asset, None
    split = split_fingerprint(filename)
    if split is not None:
        plain, wanted = split
        path = static_path(plain)
        asset = kept.find(path, recheck=True) if path else None
        if asset is not None:
            return asset, wanted
    raise NotFound()


def serve_static(filename: str) -> ResponseReturnValue:
    """The static view: the file, for a year if its fingerprint is current, else for
    revalidation; gzipped where worth it and accepted; 304 when the client has it."""
    asset, wanted = resolve(filename)
    gzipped = (
        asset.data is not None
        and asset.served_size >= compression.MIN_SIZE
        and compression.compressible(asset.mimetype)
        and compression.accepts_gzip(request)
    )
    if gzipped:
        packed = fingerprints().gzip_of(asset)
        etag = compression.gzip_etag(asset.etag)
        response = compression.file_answer(packed, None, asset.mimetype, etag, gzipped=True)
    else:
        response = compression.file_answer(asset.data, asset.path, asset.mimetype, asset.etag)
    if compression.compressible(asset.mimetype):
        response.vary.add("Accept-Encoding")
    response.last_modified = asset.mtime_ns / 1e9  # type: ignore[assignment]
    if wanted is not None and wanted == asset.fingerprint:
        response.headers["Cache-Control"] = IMMUTABLE
    else:
        response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(
        request,
        accept_ranges=not gzipped,
        complete_length=None if gzipped else asset.served_size,
    )


def init_app(app: Flask) -> None:
    """Fingerprint the links to static files and serve them under those names."""
    app.extensions[EXTENSION] = Fingerprints()
    app.url_defaults(add_fingerprint)
    if app.has_static_folder:
        app.view_functions["static"] = serve_static

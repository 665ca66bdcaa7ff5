"""Gzip for text responses, for clients that accept it.

Phones on a weak connection at the table pay for every byte: HTML, CSS, JavaScript, JSON and
SVG shrink to a fifth or less with gzip (standard library, no dependency). The rules:

- Only text types (``COMPRESSIBLE``), only bodies of at least ``MIN_SIZE`` bytes (below that
  the gzip header and the CPU cost more than they save), only when ``Accept-Encoding`` allows
  gzip, never for HEAD, 1xx, 204, 206 or 304, never for a streamed or passed-through body
  (``send_file``), nor for one that already negotiated its encoding (it says so with ``Vary:
  Accept-Encoding``, like the static files of ``companion.web.assets``, which compress and cache
  theirs once per fingerprint).
- Every response of a compressible type says ``Vary: Accept-Encoding``, so shared caches keep
  the two variants apart.
- A compressed variant has its own ETag, the plain one with ``-gzip`` appended: caches must
  never mistake one variant for the other. Conditional GET keeps working: a request whose
  ``If-None-Match`` names a ``-gzip`` tag is shown to the views with the plain tag added, so a
  view that checks its ETag answers 304; the 304 then carries the tag the client holds.

Why ours and not Flask-Compress: it fails our own tests of what gzip may be applied to and of
the ETags of both variants (docs/development.md, "Measurements behind the design").
"""

from __future__ import annotations

import gzip
import os
import re
import threading
from collections import OrderedDict
from functools import lru_cache

from flask import Flask, Request, current_app, request
from werkzeug.http import parse_accept_header, parse_etags, quote_etag
from werkzeug.utils import send_file
from werkzeug.wrappers import Response

#: Bodies smaller than this are sent as they are.
MIN_SIZE = 500
#: Pages are compressed on every request, with zlib's default, the balance of time and size
#: (docs/development.md, "Measurements behind the design"). Static files, compressed once
#: per content, take the smallest, ``STATIC_LEVEL``.
LEVEL = 6
STATIC_LEVEL = 9
#: Gzipped bodies kept by strong ETag, most recently used last (a few hundred KB at most).
KEPT: OrderedDict[tuple[str, int, int], bytes] = OrderedDict()
KEPT_LIMIT = 256
KEPT_LOCK = threading.Lock()
#: Appended to an ETag for the gzip variant of the same content.
ETAG_SUFFIX = "-gzip"
#: Media types worth compressing besides ``text/*`` and the ``+json`` / ``+xml`` families.
COMPRESSIBLE = frozenset(
    {
        "application/json",
        "application/javascript",
        "application/x-javascript",
        "application/xml",
        "image/svg+xml",
        "image/vnd.microsoft.icon",
        "image/x-icon",
    }
)
#: Where the client's own If-None-Match is kept when the views are shown plain tags too.
ORIGINAL_IF_NONE_MATCH = "companion.original_if_none_match"
#: One entity tag of an If-None-Match header: the weakness mark and the tag.
ENTITY_TAG = re.compile(r'(W/)?"([^"]*)"')
#: Statuses whose body is never compressed (no body, or a byte range of the plain body).
UNTOUCHED_STATUSES = frozenset({204, 206, 304})


def compressible(mimetype: str) -> bool:
    """Tell whether a body of this media type shrinks well with gzip."""
    return (
        mimetype.startswith("text/")
        or mimetype in COMPRESSIBLE
        or mimetype.endswith(("+json", "+xml"))
    )


def accepts_gzip(req: Request) -> bool:
    """Tell whether the client accepts gzip (``gzip;q=0`` refuses it; ``*`` accepts it)."""
    return gzip_accepted(req.headers.get("Accept-Encoding", ""))


@lru_cache(maxsize=256)
def gzip_accepted(header: str) -> bool:
    """Whether an ``Accept-Encoding`` header accepts gzip; read once per header (every
    answer asks, and a phone sends the same header every time)."""
    return parse_accept_header(header)["gzip"] > 0


def gzip_bytes(data: bytes, level: int = LEVEL) -> bytes:
    """``data`` gzipped, with a zero timestamp so that the same input gives the same bytes."""
    return gzip.compress(data, compresslevel=level, mtime=0)


def gzip_etag(etag: str) -> str:
    """The gzip variant's tag of a plain (unquoted) tag."""
    return etag + ETAG_SUFFIX


def file_answer(
    data: bytes | None,
    path: str | os.PathLike[str] | None,
    mimetype: str,
    etag: str,
    gzipped: bool = False,
    download_name: str | None = None,
) -> Response:
    """A stored file's answer with its (unquoted) ``etag``: from memory when ``data`` is
    held, else read from ``path``; marked gzip-encoded when ``gzipped``. The static files and
    the offline kit answer this way, then add their caching and call ``make_conditional``."""
    if data is not None:
        response = Response(data, mimetype=mimetype)
        response.set_etag(etag)
    else:
        assert path is not None
        response = send_file(
            path,
            request.environ,
            mimetype=mimetype,
            download_name=download_name,
            etag=etag,
            conditional=False,
        )
    if gzipped:
        response.headers["Content-Encoding"] = "gzip"
    return response


def with_plain_tags(header: str) -> str:
    """An If-None-Match header that names, besides its own tags, the plain tag of every
    ``-gzip`` tag in it (weak or strong as it was)."""
    plain = [
        f'{weak}"{tag[: -len(ETAG_SUFFIX)]}"'
        for weak, tag in ENTITY_TAG.findall(header)
        if tag.endswith(ETAG_SUFFIX)
    ]
    return ", ".join([header, *plain])


def show_plain_tags() -> None:
    """Before the view runs, let it see the plain tags of the ``-gzip`` tags the client sent,
    keeping the client's header for ``answer_in_kind``."""
    header = request.environ.get("HTTP_IF_NONE_MATCH", "")
    if ETAG_SUFFIX not in header:
        return
    request.environ[ORIGINAL_IF_NONE_MATCH] = header
    request.environ["HTTP_IF_NONE_MATCH"] = with_plain_tags(header)
    request.__dict__.pop("if_none_match", None)  # parsed lazily; drop a copy parsed already


def answer_in_kind(response: Response) -> None:
    """A 304 for a client that holds the gzip variant names that variant's tag."""
    original = request.environ.get(ORIGINAL_IF_NONE_MATCH)
    etag, weak = response.get_etag()
    if not original or etag is None or not accepts_gzip(request):
        return
    if parse_etags(original).contains_weak(gzip_etag(etag)):
        response.set_etag(gzip_etag(etag), weak=bool(weak))


def compress_response(response: Response) -> Response:
    """Gzip the body of ``response`` if it is worth it and the client accepts it."""
    if "accept-encoding" in response.vary or "Content-Encoding" in response.headers:
        return response  # negotiated already
    if response.status_code == 304:
        answer_in_kind(response)
        if compressible(response.mimetype or ""):
            response.vary.add("Accept-Encoding")
        return response
    if (
        response.direct_passthrough
        or response.is_streamed
        or not compressible(response.mimetype or "")
    ):
        return response
    response.vary.add("Accept-Encoding")
    if (
        request.method == "HEAD"
        or response.status_code < 200
        or response.status_code in UNTOUCHED_STATUSES
        or "Content-Range" in response.headers
        or not accepts_gzip(request)
    ):
        return response
    data = response.get_data()
    if len(data) < MIN_SIZE:
        return response
    etag, weak = response.get_etag()
    response.set_data(compressed(data, None if weak else etag))
    response.headers["Content-Encoding"] = "gzip"
    if etag is not None:
        response.set_etag(gzip_etag(etag), weak=bool(weak))
    return response


def kept_page_response(page: bytes, tag: str) -> Response:
    """A page kept by its strong ETag ``tag`` (HTML), answered whole: as its kept gzip to a
    client that accepts gzip, just as :func:`compress_response` would answer it, without
    taking the answer apart again. A kept page is answered many times a second (every phone's
    poll), so its headers are written once, here, and the answer says it negotiated already."""
    body, etag, headers = page, tag, [("Vary", "Accept-Encoding")]
    if len(page) >= MIN_SIZE and request.method != "HEAD" and accepts_gzip(request):
        body, etag = compressed(page, tag), gzip_etag(tag)
        headers.append(("Content-Encoding", "gzip"))
    headers.append(("ETag", quote_etag(etag)))
    answer: Response = current_app.response_class(
        body, 200, headers, content_type="text/html; charset=utf-8"
    )
    return answer


def compressed(data: bytes, strong_etag: str | None) -> bytes:
    """``data`` gzipped; a body with a strong ETag is the same every time it carries that
    tag (a scoreboard many phones poll), so its gzip is kept and reused."""
    if strong_etag is None:
        return gzip_bytes(data)
    key = (strong_etag, len(data), hash(data))
    with KEPT_LOCK:
        kept = KEPT.get(key)
        if kept is not None:
            KEPT.move_to_end(key)
            return kept
    packed = gzip_bytes(data)
    with KEPT_LOCK:
        KEPT[key] = packed
        while len(KEPT) > KEPT_LIMIT:
            KEPT.popitem(last=False)
    return packed


def init_app(app: Flask) -> None:
    """Compress the app's text responses."""
    app.before_request(show_plain_tags)
    app.after_request(compress_response)

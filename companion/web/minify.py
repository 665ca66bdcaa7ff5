"""Stylesheets and scripts as phones get them: without comments and indentation.

The files in ``static/`` are written to be read, with comments that say why; a phone at the
table only needs the rules and the code. Dropping whole-line comments and leading
indentation (nothing inside a line is touched, and line breaks stay, so a script's automatic
semicolons and a stylesheet's strings mean the same) takes about a fifth off every file and
keeps the 8 players x 5 rounds scoreboard within its byte budget. It is done once per file
content, when ``companion.web.assets`` reads the file.
"""

from __future__ import annotations

import re

#: A stylesheet comment, wherever it is (CSS has no other use for ``/*``).
CSS_COMMENT = re.compile(rb"/\*.*?\*/", re.DOTALL)


def minify(data: bytes, extension: str) -> bytes:
    """``data`` without comments and indentation if it is a stylesheet or a script."""
    if extension == ".css":
        return _lines(CSS_COMMENT.sub(b"", data))
    if extension == ".js":
        return _lines(_without_comment_lines(data))
    return data


def _lines(data: bytes) -> bytes:
    """Every line without its indentation and trailing blanks; empty lines dropped."""
    lines = (line.strip() for line in data.splitlines())
    return b"".join(line + b"\n" for line in lines if line)


def _without_comment_lines(script: bytes) -> bytes:
    """A script without the comments that fill whole lines (``// ...`` and ``/* ... */``
    blocks that start a line and end one). A comment after code stays: telling it from a
    string or a regular expression would need a parser, and it costs little."""
    kept: list[bytes] = []
    in_block = False
    for line in script.splitlines():
        text = line.strip()
        if in_block:
            if b"*/" in text:
                in_block = False
                rest = text.split(b"*/", 1)[1]
                if rest.strip():
                    kept.append(rest)
            continue
        if text.startswith(b"//"):
            continue
        if text.startswith(b"/*"):
            if text.endswith(b"*/") and len(text) >= 4:
                continue
            if b"*/" not in text:
                in_block = True
                continue
        kept.append(line)
    return b"\n".join(kept)

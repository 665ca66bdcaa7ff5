"""Stylesheets and scripts as phones get them: without comments and blanks that mean nothing.

The files in ``static/`` are written to be read, with comments that say why; a phone at the
table only needs the rules and the code. rCSSmin and rJSmin drop every comment and every blank
that changes nothing (what is inside a string, a regular expression or a template literal
stays, and so does a line break wherever a script's automatic semicolons need one), which takes
a third off the stylesheets and scripts and keeps the 8 players x 5 rounds scoreboard within
its byte budget. It is done once per file content, when ``companion.web.assets`` reads the
file; the fingerprint and the ETag still come from the file itself.

Why rCSSmin and rJSmin and not a minifier of ours: they take off more, and the scoreboard
needs it to stay within its byte budget (docs/development.md, "Measurements behind the
design").
"""

from __future__ import annotations

import rcssmin
import rjsmin


def minify(data: bytes, extension: str) -> bytes:
    """``data`` without comments and needless blanks if it is a stylesheet or a script."""
    minified: bytes = data
    if extension == ".css":
        minified = rcssmin.cssmin(data)
    elif extension == ".js":
        minified = rjsmin.jsmin(data)
    return minified

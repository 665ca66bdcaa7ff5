"""Sphinx settings of the Sticheln companion's documentation (``docs/``).

Built by ``python3 manage.py test`` with ``sphinx-build -W``: a warning (a broken
cross-reference, a missing file or image, a docstring autodoc cannot read) fails the build.
The pages are MyST Markdown; the rules' reference is read from the docstrings of
``companion/rules``, which import nothing but the standard library.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # companion.rules, for autodoc, from the checkout
# Importing companion.rules imports the app's package, whose migrations tool announces its
# plugins at INFO; the build's output keeps to Sphinx's own.
logging.getLogger("alembic").setLevel(logging.WARNING)

project = "Sticheln companion"
author = "the Sticheln companion's authors"
copyright = "the Sticheln companion's authors"

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
language = "en"
# The API's examples shorten long answers with "...", which is not JSON: highlighted as far
# as it goes, without a warning.
suppress_warnings = ["misc.highlighting_failure"]

# Headings get anchors so that pages may link to a section: [text](page.md#anchor).
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_typehints = "description"

# Furo ships its fonts and scripts with the theme: the built pages request nothing from
# another host (tests/docs/test_docs_build.py checks every page).
html_theme = "furo"
html_title = "Sticheln companion"
html_static_path = ["_static"]
html_permalinks_icon = "#"
html_show_sphinx = False
html_css_files = ["screens.css"]

"""Sphinx configuration of the trickrules documentation site.

The pages are the Markdown files of this folder, read by MyST; the API
reference is written by autodoc from the docstrings. Build it with::

    .venv/bin/sphinx-build -W -b html docs docs/_build/html

Nothing here reaches the network: intersphinx is not enabled, so references to
the standard library's names stay plain text.
"""

from __future__ import annotations

import sys
from pathlib import Path

# An installed trickrules (pip install -e .) is found anyway; the source tree is
# put first so that a build from a fresh clone documents the code beside it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import trickrules

project = "trickrules"
author = "the trickrules authors"
copyright = "the trickrules authors"
version = release = trickrules.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
]

# Only the Markdown pages are documentation: the spec files under examples/,
# log-schema.json and this file are not pages (they are linked as files).
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "examples", "Thumbs.db", ".DS_Store"]

# -- MyST ----------------------------------------------------------------------
# The pages link to their own headings GitHub-style ([x](#how-a-spec-is-read)):
# MyST makes those anchors for headings down to this level.
myst_heading_anchors = 4

# -- autodoc -------------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
# A class is shown without its constructor's signature: the values are attrs
# classes made by the library (load(), new_match(), from_state()), and the
# generated __init__ would list every field of the record.
autodoc_class_signature = "separated"
autodoc_default_options = {"members": True, "exclude-members": "__init__, __new__"}
# Many signatures name types imported only for type checking; without
# intersphinx and with nitpicky off such names are shown as written.
nitpicky = False

# -- HTML ----------------------------------------------------------------------
html_theme = "furo"
html_title = f"trickrules {release}"
html_static_path: list[str] = []
# The log's JSON Schema is not a page, but the site serves it beside the pages.
html_extra_path = ["../src/trickrules/records/log-schema.json"]

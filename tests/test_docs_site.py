"""The documentation site: ``docs/`` builds with Sphinx, warnings as errors.

One build (``sphinx-build -W --keep-going -b html``, in a fresh folder) serves
every test here. A warning is a broken page: a Markdown link or ``#anchor``
that goes nowhere, a page missing from the toctrees of ``docs/index.md``, a
docstring that does not parse, an object autodoc cannot import. The ``>>>``
examples of the pages and the docstrings run as pytest doctests
(``--doctest-glob=*.md --doctest-modules``), so the Sphinx doctest builder
is not run here.
"""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: The build takes about 10 s on the project's 2-core machine.
TIMEOUT = 240


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The HTML site built from docs/; the build must print no warning."""
    out = tmp_path_factory.mktemp("site")
    pages = out / "html"
    command = [
        sys.executable, "-m", "sphinx",
        "-W", "--keep-going", "-q",
        "-b", "html",
        "-d", str(out / "doctrees"),
        str(DOCS), str(pages),
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT, check=False)
    assert result.returncode == 0, (
        "sphinx-build -W failed (a new page must be added to a toctree in docs/index.md):\n"
        + result.stdout
        + result.stderr
    )
    return pages


def _text(page: Path) -> str:
    """The text of an HTML page: tags removed, entities read, runs of spaces made one."""
    text = html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))
    return re.sub(r"\s+", " ", text)


def test_every_markdown_page_becomes_a_page_of_the_site(site: Path) -> None:
    for page in DOCS.glob("*.md"):
        assert (site / f"{page.stem}.html").is_file(), f"docs/{page.name} is not a page of the site"


def test_files_that_are_not_documentation_are_not_pages(site: Path) -> None:
    assert not (site / "conf.html").exists()
    assert not list(site.glob("examples/*.html"))


def test_the_api_page_documents_the_public_api(site: Path) -> None:
    page = (site / "api.html").read_text(encoding="utf-8")
    anchors = set(re.findall(r'id="(trickrules[\w.]*)"', page))
    import trickrules

    missing = {f"trickrules.{name}" for name in trickrules.__all__ if not name.endswith("Error")} - anchors
    assert not missing, f"docs/api.md does not document {sorted(missing)}"
    for name in (
        "trickrules.simulate",
        "trickrules.State.apply",
        "trickrules.State.legal_actions",
        "trickrules.Game.new_match",
        "trickrules.View.from_state",
        "trickrules.EventLog.for_seat",
        "trickrules.replay",
        "trickrules.errors.IllegalActionError",
        "trickrules.errors.SpecError",
        "trickrules.faces.bots.HeuristicBot",
        "trickrules.faces.stats.Statistics",
    ):
        assert name in anchors, f"docs/api.md does not document {name}"
    # The docstrings' text is there, not only the names.
    assert "Play at least" in _text(site / "api.html")


def test_the_api_page_documents_the_svg_module(site: Path) -> None:
    page = (site / "api.html").read_text(encoding="utf-8")
    assert 'id="module-trickrules.svg"' in page
    assert 'id="trickrules.svg.table"' in page


def test_the_tutorial_links_its_spec_files_as_downloads(site: Path) -> None:
    page = (site / "tutorial.html").read_text(encoding="utf-8")
    for name in ("polignac.toml", "polignac-20.toml"):
        links = re.findall(rf'href="(_downloads/[0-9a-f]+/{re.escape(name)})"', page)
        assert links, f"tutorial.html does not link {name}"
        assert (site / links[0]).read_bytes() == (DOCS / "examples" / name).read_bytes()


def test_the_index_groups_the_pages(site: Path) -> None:
    text = _text(site / "index.html")
    for caption in ("User guide", "Reference", "Design"):
        assert caption in text
    assert "sphinx-build -W -b html docs docs/_build/html" in text

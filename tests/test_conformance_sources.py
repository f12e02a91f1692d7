"""Conformance that notices when the text moves (issue #19 item 1).

Every accounted line of a manifest records a digest of its text. Where the
documents are beside the checkout (``../shared/seeds``) the suite checks the
digests; a fresh clone without them skips that check and says why. A copy of
the documents with one line altered fails and names the line; a missing
folder, or one without the documents, is an error; no documents at the
default place is said on stderr, and is an error with ``--require-sources``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from trickrules.faces.cli import main
from trickrules.faces.conformance import cli as conformance_cli
from trickrules.faces.conformance.model import load_manifest
from trickrules.faces.conformance.runner import SEEDS, default_root, load_suite, run_suite
from trickrules.faces.conformance.sources import line_digest, recorded

MANIFESTS = sorted((default_root() / "manifests").glob("*.toml"))
MANILLE = "004_0e10f05f8770af6a.txt"

needs_documents = pytest.mark.skipif(
    not all((SEEDS / load_manifest(m).document.source).is_file() for m in MANIFESTS),
    reason=f"the source documents are not beside the checkout ({SEEDS}): their digests cannot be checked here",
)


def test_every_accounted_line_records_a_digest_and_no_text() -> None:
    for path in MANIFESTS:
        manifest = load_manifest(path)
        for entry in manifest.line:
            assert len(entry.digest) == 12, f"{path.name} line {entry.n}"
            assert int(entry.digest, 16) >= 0


def test_the_digest_ignores_spacing_and_unicode_form_but_not_words() -> None:
    assert line_digest("  5 puntos\tpara el 10 ") == line_digest("5 puntos para el 10")
    assert line_digest("caf\u00e9") == line_digest("cafe\u0301")  # NFC: the same text
    assert line_digest("5 puntos") != line_digest("6 puntos")


@needs_documents
def test_the_digests_hold_for_the_documents_beside_the_checkout() -> None:
    for report in run_suite(load_suite()):
        assert report.sources_checked, report.document
        assert not [p for p in report.problems if "digest" in p or "changed" in p], report.problems


@needs_documents
def test_an_altered_line_fails_and_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "seeds"
    shutil.copytree(SEEDS, copy)
    assert main(["conformance", "manille", "--seeds", str(copy)]) == 0  # untouched: passes
    capsys.readouterr()
    document = copy / MANILLE
    lines = document.read_text(encoding="utf-8").split("\n")
    assert "5 puntos" in lines[28]
    lines[28] = lines[28].replace("5 puntos", "6 puntos")
    document.write_text("\n".join(lines), encoding="utf-8")
    assert main(["conformance", "manille", "--seeds", str(copy)]) == 1
    out = capsys.readouterr().out
    assert "004:29 changed since the manifest was written: re-read it and update its clauses" in out
    assert out.count("changed since") == 1


def test_a_missing_seeds_folder_or_one_without_the_documents_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["conformance", "--seeds", str(tmp_path / "nonexistent")]) == 2
    assert "not a folder that exists" in capsys.readouterr().err
    assert main(["conformance", "manille", "--seeds", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert MANILLE in err
    assert "not there" in err
    assert len(err.strip().splitlines()) == 1


def test_no_documents_at_the_default_place_is_said_and_required_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(conformance_cli, "SEEDS", tmp_path)  # a clone without the documents beside it
    assert main(["conformance", "manille"]) == 0  # the cases still run and pass
    captured = capsys.readouterr()
    assert "were not checked" in captured.err
    assert "--seeds" in captured.err
    assert " 0 " in captured.out.splitlines()[-1]
    assert main(["conformance", "manille", "--require-sources"]) == 2
    assert "--require-sources" in capsys.readouterr().err


def test_recording_writes_only_the_digest_lines() -> None:
    manifest = '[[line]]\nn = 1\nkind = "informative"\n\n[[line]]\nn = 2\ndigest = "000000000000"\nkind = "x"\n'
    out = recorded(manifest, ["first line", "second line"])
    assert out == (
        f'[[line]]\nn = 1\ndigest = "{line_digest("first line")}"\nkind = "informative"\n\n'
        f'[[line]]\nn = 2\ndigest = "{line_digest("second line")}"\nkind = "x"\n'
    )

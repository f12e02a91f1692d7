"""Conformance that notices when the text moves (issue #19 item 1).

Every accounted line of a manifest records a digest of its text. Where the
documents are beside the checkout (``../shared/seeds``) the suite checks the
digests; a fresh clone without them skips that check and says why. A copy of
the documents with one line altered fails and names the line; a missing
folder, or one without the documents, is an error; no documents at the
default place is said on stderr, and is an error with ``--require-sources``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from test_conformance import WRONG_CASE
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


def _altered_copy(tmp_path: Path, changes: dict[int, tuple[str, str]]) -> Path:
    """A copy of the documents with lines of Manille's changed (line number: (old words, new words))."""
    copy = tmp_path / "seeds"
    shutil.copytree(SEEDS, copy)
    document = copy / MANILLE
    lines = document.read_text(encoding="utf-8").split("\n")
    for n, (old, new) in changes.items():
        assert old in lines[n - 1], (n, lines[n - 1])
        lines[n - 1] = lines[n - 1].replace(old, new)
    document.write_text("\n".join(lines), encoding="utf-8")
    return copy


@needs_documents
def test_json_names_and_counts_each_changed_line_and_stderr_says_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 27 item 12: ``--json`` exited 1 saying 0 failed, 0 unaccounted, naming no line, with nothing on stderr."""
    copy = _altered_copy(tmp_path, {29: ("5 puntos", "6 puntos"), 67: ("al revés", "del derecho")})
    recorded_digests = {e.n: e.digest for e in load_manifest(default_root() / "manifests" / "manille.toml").line}
    text = (copy / MANILLE).read_text(encoding="utf-8").split("\n")
    assert main(["conformance", "manille", "--seeds", str(copy), "--json"]) == 1
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    (document,) = data["documents"]
    assert document["changed"] == 2
    assert data["total"]["changed"] == 2
    assert document["changed_lines"] == [
        {
            "document": "manille",
            "source": MANILLE,
            "line": n,
            "expected": recorded_digests[n],
            "found": line_digest(text[n - 1]),
        }
        for n in (29, 67)
    ]
    assert data["ok"] is False
    assert len(document["problems"]) == data["total"]["problems"] == 2
    err = captured.err.strip().splitlines()
    assert len(err) == 2, err
    assert "004:29 changed since the manifest was written" in err[0]
    assert "004:67 changed since the manifest was written" in err[1]


@needs_documents
def test_json_of_untouched_documents_changes_nothing_and_says_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = _altered_copy(tmp_path, {})
    assert main(["conformance", "manille", "--seeds", str(copy), "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["ok"] is True
    assert data["documents"][0]["changed"] == data["total"]["changed"] == 0
    assert data["documents"][0]["changed_lines"] == data["documents"][0]["problems"] == []
    assert captured.err == ""


def test_json_names_a_failing_case_and_stderr_gives_it_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every reason for exit 1 is in the JSON and on stderr, one line each (a failing case here)."""
    (tmp_path / "wrong.toml").write_text(
        WRONG_CASE,
        encoding="utf-8",
    )
    args = ["conformance", "manille", "--cases", str(tmp_path), "--select", "*deliberately*", "--json"]
    assert main(args) == 1
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    (failure,) = data["documents"][0]["failures"]
    assert failure["case"] == "manille:L40/deliberately-wrong"
    assert failure["clauses"] == ["manille:L40"]
    assert "legal actions: expected ['play 10D'], got ['play 7H']" in failure["detail"]
    (line,) = captured.err.strip().splitlines()
    assert "FAIL manille:L40/deliberately-wrong" in line
    assert "legal actions" in line


def test_a_line_without_a_digest_is_named_with_no_expected_digest(tmp_path: Path) -> None:
    from trickrules.faces.conformance.sources import account

    (tmp_path / "009_x.txt").write_text("first line\n\nsecond line\n", encoding="utf-8")
    (tmp_path / "m.toml").write_text(
        '[document]\nid = "doc"\nsource = "009_x.txt"\ngame = "manille"\n\n'
        f'[[line]]\nn = 1\ndigest = "{line_digest("first line")}"\nkind = "informative"\nwhy = "a heading"\n\n'
        '[[line]]\nn = 3\nkind = "informative"\nwhy = "a heading"\n',
        encoding="utf-8",
    )
    accounting = account(load_manifest(tmp_path / "m.toml"), tmp_path, set())
    (changed,) = accounting.changed
    assert changed.to_json() == {
        "document": "doc",
        "source": "009_x.txt",
        "line": 3,
        "expected": None,
        "found": line_digest("second line"),
    }
    assert accounting.problems == ("009:3 has no digest of its text in the manifest: record it once the line is read",)

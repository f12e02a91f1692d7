"""Regressions for findings reported against the library, each named after what it found."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

import trickrules
from trickrules import EventLog
from trickrules.engine.events import Announced
from trickrules.faces.bots import make_bots
from trickrules.faces.match import play_match


def test_a_lone_hombre_answering_the_late_vole_by_leading_writes_a_log_that_replays() -> None:
    """``trickrules play quadrille-fi --seed 87 --bots random`` wrote a log its replay refused at event 2443.

    The lone Hombre answers the late Vole by leading a card: the card is his
    action, and the announcement it makes is recorded after it, as derived.
    """
    game = trickrules.load("quadrille-fi")
    final = play_match(game, make_bots(game, "random", 87), 87)
    log = EventLog.from_state(final)
    led = [
        (log.entries[n - 1].event.TAG, e.actor)
        for n, e in enumerate(log.entries)
        if isinstance(e.event, Announced) and e.actor == "dealer"
    ]
    assert led, "the match no longer reaches a Vole announced by leading: pick another seed"
    assert all(tag == "play" for tag, _ in led)
    assert trickrules.replay(log.to_json()) == final


def test_the_log_of_a_vole_announced_by_leading_matches_the_log_schema() -> None:
    schema = json.loads((Path(__file__).resolve().parent.parent / "docs" / "log-schema.json").read_text())
    validator = Draft202012Validator(schema)
    game = trickrules.load("quadrille-fi")
    text = EventLog.from_state(play_match(game, make_bots(game, "random", 87), 87)).to_json()
    assert [line for line in text.splitlines() if list(validator.iter_errors(json.loads(line)))] == []


def test_a_fullwidth_letter_in_a_formula_is_refused_rather_than_read_as_ascii() -> None:
    """``ｐoints`` was silently read as ``points`` (Python normalises identifiers)."""
    from trickrules.errors import FormulaError
    from trickrules.spec.formula import compile_formula

    with pytest.raises(FormulaError, match=r"U\+FF50.*formulas are written in ASCII"):
        compile_formula("\uff50oints > 3", ["points"])
    assert compile_formula("points > 3", ["points"]).evaluate({"points": 4})


def test_a_spec_that_starts_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    """A UTF-8 BOM gave ``Invalid statement (at line 1, column 1)``."""
    whist = (Path(__file__).resolve().parent.parent / "specs" / "whist.toml").read_text(encoding="utf-8")
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + whist.replace('name = "whist"', 'name = "bom"').encode("utf-8"))
    assert trickrules.load(path).spec.title == trickrules.load("whist").spec.title


def test_extends_opens_only_a_bundled_spec_or_a_file_next_to_the_overlay(tmp_path: Path) -> None:
    """``extends`` opened and parsed any path, ``/proc/self/environ`` included."""
    from trickrules import SpecError

    for target in ("/proc/self/environ", "../outside.toml", str(tmp_path.parent / "x.toml")):
        overlay = tmp_path / "overlay.toml"
        overlay.write_text(f'extends = "{target}"\nname = "o"\n', encoding="utf-8")
        with pytest.raises(SpecError, match=r"neither a bundled game .* nor a file next to this overlay"):
            trickrules.load(overlay)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "base.toml").write_text('extends = "manille"\nname = "base"\n', encoding="utf-8")
    overlay.write_text('extends = "sub/base.toml"\nname = "o"\n', encoding="utf-8")
    assert trickrules.load(overlay).cards == trickrules.load("manille").cards


@pytest.mark.parametrize("char", ["\x1b", "\x07", "\x00", "\u202e"])
def test_a_control_character_in_a_spec_string_is_refused(tmp_path: Path, char: str) -> None:
    """An ANSI escape or a bell in a title or a suit name was printed raw by ``rules`` and ``play``."""
    from trickrules import SpecError

    overlay = tmp_path / "bad.toml"
    escaped = f"\\u{ord(char):04X}"  # TOML's own escape: the file itself holds no control character
    overlay.write_text(f'extends = "manille"\ntitle = "Manille{escaped}[31m"\n', encoding="utf-8")
    with pytest.raises(SpecError, match=rf"title: the control character U\+{ord(char):04X} is not accepted"):
        trickrules.load(overlay)

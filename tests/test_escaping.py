"""Text from a spec, a log or a caller is shown as text: never markup, never raw control characters.

Issue 27, items 2, 3, 8 and 9: ``simulate`` rendered spec names through rich
markup (``[/]`` crashed it, ``[link=...]`` and ``[blink]`` became terminal
escapes); ``replay`` printed a hostile log's action raw inside its error
message; the SVG API wrote a caller's colour into an attribute unescaped; and
a formula such as ``6if tricks else 1`` was accepted with Python's
``SyntaxWarning`` on stderr.
"""

from __future__ import annotations

import json
import random
import re
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import trickrules
from trickrules import svg
from trickrules.engine.actions import VERBS, Action
from trickrules.errors import (
    ArgumentError,
    FormulaError,
    IllegalActionError,
    LogFormatError,
    LogIntegrityError,
    SpecError,
    TrickrulesError,
    printable,
)
from trickrules.faces.cli import main
from trickrules.spec.formula import compile_formula
from trickrules.spec.loader import bundled_names

ROOT = Path(__file__).resolve().parent.parent
WHIST = (ROOT / "specs" / "whist.toml").read_text(encoding="utf-8")

#: What must never reach a terminal from input: C0 and C1 controls, DEL, and the bidi controls.
RAW = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: A hostile text: an OSC title change, a bell, clear-screen, a CSI by its 8-bit form, a right-to-left override.
EVIL = "\x1b]0;PWNED\x07\x1b[2J\x9b\u202e"
#: What XML 1.0 does not allow in a document (an SVG picture leaves these out).
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _plain(text: str) -> str:
    """``text`` less the sequences a terminal front end draws itself (colours, cursor, line clearing: CSI)."""
    return re.sub("\x1b\\[[0-9;?]*[A-Za-z]", "", text)


# -- item 3: messages quoting input show control characters escaped ------------------------------


def test_printable_escapes_what_repr_escapes_and_keeps_the_rest() -> None:
    assert printable(EVIL) == repr(EVIL)[1:-1]
    assert printable("a\nb\tc") == "a\\nb\\tc"
    assert printable("Spadille ♠ 10 € [/] 'x'") == "Spadille ♠ 10 € [/] 'x'"
    assert printable(printable(EVIL)) == printable(EVIL)


@pytest.mark.parametrize(
    "kind", [TrickrulesError, ArgumentError, SpecError, FormulaError, IllegalActionError, LogFormatError]
)
def test_every_library_error_keeps_its_message_escaped(kind: type[TrickrulesError]) -> None:
    message = str(kind(f"not a card: {EVIL}"))
    assert not RAW.search(message)
    assert message == f"not a card: {printable(EVIL)}"
    integrity = LogIntegrityError(f"event 3: {EVIL}", seq=3, incomplete=True)
    assert not RAW.search(str(integrity))
    assert (integrity.seq, integrity.incomplete) == (3, True)


def test_an_action_holding_control_characters_has_an_escaped_text_form() -> None:
    action = Action("play", EVIL)
    assert str(action) == f"play {printable(EVIL)}"
    assert not RAW.search(str(action))
    assert not RAW.search(repr(action))
    assert str(Action("bid", "solo")) == "bid solo"  # a legal action's text is unchanged


def _states(name: str, steps: int = 40) -> list[trickrules.State]:
    """The first states of a seeded random match of the bundled game ``name`` (chance steps left out)."""
    state = trickrules.load(name).new_match(seed=3)
    rng = random.Random(3)
    out: list[trickrules.State] = []
    while not state.is_terminal and len(out) < steps:
        legal = state.legal_actions()
        out.append(state)
        state = state.apply(rng.choice(legal))
    return out


@pytest.mark.parametrize("name", bundled_names())
def test_a_hostile_action_is_refused_with_its_text_escaped(name: str) -> None:
    """Every verb, with a hostile argument (and a hostile verb), at the states of a match: escaped messages."""
    tried = 0
    for state in _states(name):
        for verb in VERBS:
            for action in (Action(verb, EVIL), Action(EVIL, "7H"), Action(verb, f"7H{EVIL}")):
                with pytest.raises(IllegalActionError) as refused:
                    state.apply(action)
                assert not RAW.search(str(refused.value)), str(refused.value)
                tried += 1
            with pytest.raises(IllegalActionError) as refused:
                state.apply(f"{verb} {EVIL}")
            assert not RAW.search(str(refused.value))
    assert tried


def _log(tmp_path: Path, game: str = "whist") -> list[dict[str, Any]]:
    state = trickrules.load(game).new_match(seed=1)
    rng = random.Random(1)
    while not state.is_terminal and state.match.deals_done < 1:
        state = state.apply(rng.choice(state.legal_actions()))
    trickrules.EventLog.from_state(state).save(tmp_path / "a.jsonl")
    return [json.loads(line) for line in (tmp_path / "a.jsonl").read_text(encoding="utf-8").splitlines()]


def _hostile_logs(records: list[dict[str, Any]]) -> list[str]:
    """The log with a hostile string put, one at a time, into every string field of its first lines."""
    out = []
    for n, record in enumerate(records[:12]):
        for key, value in record.items():
            for bad in [EVIL] if isinstance(value, str) else [EVIL, [EVIL], {EVIL: EVIL}]:
                changed = [*records[:n], {**record, key: bad}, *records[n + 1 :]]
                out.append("".join(json.dumps(r) + "\n" for r in changed))
        extra = [*records[:n], {**record, EVIL: 1}, *records[n + 1 :]]
        out.append("".join(json.dumps(r) + "\n" for r in extra))
    return out


@pytest.mark.parametrize("game", ["whist", "quadrille", "euchre"])
def test_replay_of_a_hostile_log_shows_every_quoted_string_escaped(tmp_path: Path, game: str) -> None:
    messages = []
    for text in _hostile_logs(_log(tmp_path, game)):
        try:
            trickrules.replay(text, partial=True)
        except TrickrulesError as exc:
            messages.append(str(exc))
    assert len(messages) > 20
    assert not [m for m in messages if RAW.search(m)]


def test_the_issues_log_is_replayed_on_the_command_line_with_its_action_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The reproduction: ``replay`` of a log whose action holds an OSC title change and clear-screen."""
    records = _log(tmp_path)
    play = next(n for n, r in enumerate(records) if r.get("type") == "play")
    records[play]["card"] = "\u001b]0;PWNED\u0007\u001b[2J"
    path = tmp_path / "h.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert not RAW.search(err.rstrip("\n")), err
    assert "\\x1b]0;PWNED\\x07\\x1b[2J" in err
    assert err.count("\n") == 1


def test_a_file_name_holding_control_characters_is_quoted_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x\x1b[2J.jsonl"
    path.write_text("not a log\n", encoding="utf-8")
    assert main(["replay", str(path)]) != 0
    spec = tmp_path / "s\x1b[2J.toml"
    spec.write_text(WHIST.replace('rule = "follow_suit"', 'rule = "nope"'), encoding="utf-8")
    assert main(["check", str(spec)]) != 0
    assert main(["simulate", str(spec)]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 3
    assert not RAW.search(err.replace("\n", "")), err
    assert err.count("\\x1b[2J") == 3


# -- item 2: spec text is printed as text, never as rich markup ------------------------------------

#: Names that rich would read as markup (a bare closing tag crashes it), a hyperlink, blinking, an emoji code.
MARKUP = "odd [/] [blink]tricks[/blink] [link=https://example.com]x[/link] :thumbs_up: [bold red]y"


def test_simulate_prints_spec_names_as_text_on_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = tmp_path / "w.toml"
    text = WHIST.replace('name = "whist"', 'name = "wh[/]ist [i]"').replace('name = "odd tricks"', f'name = "{MARKUP}"')
    spec.write_text(text, encoding="utf-8")
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich draws as on a terminal
    monkeypatch.setenv("COLUMNS", "400")
    monkeypatch.delenv("NO_COLOR", raising=False)
    status = main(["simulate", str(spec), "-n", "2", "--bots", "heuristic", "--compare", str(spec)])
    out, err = capsys.readouterr()
    assert status == 0, err
    for stream in (out, err):
        assert "\x1b]8;" not in stream  # no hyperlink (OSC 8)
        assert "\x1b[5m" not in stream  # no blinking
        assert "\x1b[6m" not in stream
        assert not RAW.search(re.sub("[\n\r]", "", _plain(stream))), repr(stream[:300])
    shown = _plain(out)
    assert MARKUP in shown  # the outcome's name, every bracket and colon as written
    assert "wh[/]ist [i]" in shown
    assert "👍" not in out + err
    assert "wh[/]ist [i]" in _plain(err)  # the progress bar's label


def test_simulate_of_a_name_with_a_bare_closing_tag_does_not_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The reproduction: a ``[/]`` in an outcome's name was a ``rich.errors.MarkupError``."""
    spec = tmp_path / "w.toml"
    spec.write_text(WHIST.replace('name = "odd tricks"', 'name = "odd [/] tricks"'), encoding="utf-8")
    assert main(["simulate", str(spec), "-n", "2", "--bots", "heuristic"]) == 0
    assert "odd [/] tricks" in capsys.readouterr().out


# -- item 8: every value the SVG API writes into markup is checked or escaped ------------------------

ATTRIBUTE_BREAKERS = ['red" onmouseover="alert(3)', "red' onload='x'", "red><script>", "#fff;x:url(javascript:1)"]


@pytest.mark.parametrize("ink", [*ATTRIBUTE_BREAKERS, "", "#12", "#ggg", "rgb(1,2,3)", "red blue", 7, None])
def test_a_face_refuses_an_ink_that_is_no_colour(ink: Any) -> None:
    """The reproduction: ``svg.Face(..., ink='red" onmouseover="alert(3)')`` wrote the attribute out as given."""
    with pytest.raises(ArgumentError, match="ink"):
        svg.Face("7H", "7", "♥", ink=ink)


@pytest.mark.parametrize("ink", ["red", "DarkSlateGray", "currentColor", "#fff", "#FFFA", "#c62828", "#c6282880"])
def test_a_face_takes_a_colour_word_or_a_hex_colour(ink: str) -> None:
    picture = svg.card("7H", svg.Deck((svg.Face("7H", "7", "♥", ink),)))
    assert f'fill="{ink}"' in picture
    ET.fromstring(picture)


@pytest.mark.parametrize("ink", ATTRIBUTE_BREAKERS)
def test_a_deck_refuses_a_suit_ink_that_is_no_colour(ink: str) -> None:
    with pytest.raises(ArgumentError, match="ink"):
        svg.Deck(suits=[("H", "♥", ink)])


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("counts", ['1" onload="alert(1)']),
        ("tricks", ["0<script>"]),
        ("deal", '0" onload="x'),
        ("pot", "1<b>"),
        ("trick", [(0, 7)]),
        ("names", [EVIL]),
    ],
)
def test_a_table_refuses_values_of_the_wrong_kind_or_draws_them_as_text(field: str, value: Any) -> None:
    fields: dict[str, Any] = {"deck": svg.Deck(), "hands": [["AS"]], field: value}
    try:
        table = svg.Table(**fields)
    except ArgumentError as exc:
        refusal = str(exc)
    else:
        refusal = ""
    if refusal:
        assert field in refusal
        return
    picture = svg.table(table)
    assert not NOT_XML.search(picture)
    tree = ET.fromstring(picture)
    for element in tree.iter():
        assert not [name for name in element.attrib if name.lower().startswith("on")]


def test_every_attribute_of_a_picture_of_hostile_text_is_one_the_module_writes() -> None:
    """Codes, ranks, symbols, names and notes from a caller: only text, every attribute the module's own."""
    hostile = '"><script>alert(1)</script><x a="'
    faces = (svg.Face(f"7{hostile}", hostile, hostile, "red"), svg.Face("KS", "K", "♠"))
    deck = svg.Deck(faces, (("H", hostile, "#c62828"),))
    table = svg.Table(
        deck=deck,
        hands=[[f"7{hostile}"], None],
        counts=[1, 3],
        trick=[(0, f"7{hostile}"), (1, "KS")],
        names=[hostile, EVIL],
        scores=[hostile, "0"],
        title=hostile,
        phase=hostile,
        contract=hostile,
        trump="H",
        called=f"7{hostile}",
        turned=hostile,
    )
    pictures = [
        svg.table(table),
        svg.hand([f"7{hostile}", "KS"], deck),
        svg.card(f"7{hostile}", deck),
        svg.trick([(0, f"7{hostile}")], deck, names=[hostile]),
    ]
    allowed = {"xmlns", "width", "height", "viewBox", "role", "aria-label", "class", "data-card", "data-seat",
               "data-count", "transform", "fill", "x", "y", "rx", "style"}  # fmt: skip
    for picture in pictures:
        assert "<script" not in picture
        assert not NOT_XML.search(picture)
        for element in ET.fromstring(picture).iter():
            assert set(element.attrib) <= allowed, element.attrib
            assert element.tag.rpartition("}")[2] in {"svg", "style", "g", "rect", "text"}


# -- item 9: a formula Python would warn about is refused, and no warning is shown -------------------


@pytest.mark.parametrize(
    "source",
    ["6if tricks else 1", "tricks if 1else 2", "1or tricks", "tricks and 1if tricks else 0", "0x1for", "1_if 2"],
)
def test_a_formula_python_warns_about_is_a_formula_error_and_no_warning(source: str) -> None:
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        with pytest.raises(FormulaError, match="formula"):
            compile_formula(source, ["tricks"], where="scoring.outcomes[0]")
    assert not said, [str(w.message) for w in said]


def test_a_spec_with_such_a_formula_is_refused_on_loading_without_a_warning(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """The reproduction: ``6if tricks else 1`` passed ``check``, and Python's SyntaxWarning went to stderr."""
    spec = tmp_path / "w.toml"
    spec.write_text(WHIST.replace('amount = "tricks - 6"', 'amount = "6if tricks else 1"'), encoding="utf-8")
    assert main(["check", str(spec)]) == 1
    err = capfd.readouterr().err
    assert "SyntaxWarning" not in err
    assert err.count("\n") == 1
    assert "scoring.outcomes[0].pay[0].amount" in err
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(SpecError):
            trickrules.load(str(spec))


def test_a_formula_written_with_spaces_is_still_accepted() -> None:
    formula = compile_formula("6 if tricks else 1", ["tricks"])
    assert formula.evaluate({"tricks": 0}) == 1

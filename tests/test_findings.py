"""Regressions for findings reported against the library, each named after what it found."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import attrs
import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

import trickrules
from trickrules import EventLog, View
from trickrules.engine.events import Announced, DealScored
from trickrules.engine.phases.deal import MAX_START, MAX_START_TEXT
from trickrules.faces.bots import make_bots
from trickrules.faces.match import play_match
from trickrules.records.eventlog import log_schema


def test_finding1_a_lone_hombre_answering_the_late_vole_by_leading_writes_a_log_that_replays() -> None:
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


def test_finding1_the_log_of_a_vole_announced_by_leading_matches_the_log_schema() -> None:
    schema = log_schema()
    validator = Draft202012Validator(schema)
    game = trickrules.load("quadrille-fi")
    text = EventLog.from_state(play_match(game, make_bots(game, "random", 87), 87)).to_json()
    assert [line for line in text.splitlines() if list(validator.iter_errors(json.loads(line)))] == []


def test_finding9_a_fullwidth_letter_in_a_formula_is_refused_rather_than_read_as_ascii() -> None:
    """``ｐoints`` was silently read as ``points`` (Python normalises identifiers)."""
    from trickrules.errors import FormulaError
    from trickrules.spec.formula import compile_formula

    with pytest.raises(FormulaError, match=r"U\+FF50.*formulas are written in ASCII"):
        compile_formula("\uff50oints > 3", ["points"])
    assert compile_formula("points > 3", ["points"]).evaluate({"points": 4})


def test_finding4_a_spec_that_starts_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    """A UTF-8 BOM gave ``Invalid statement (at line 1, column 1)``."""
    whist = (Path(__file__).resolve().parent.parent / "specs" / "whist.toml").read_text(encoding="utf-8")
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + whist.replace('name = "whist"', 'name = "bom"').encode("utf-8"))
    assert trickrules.load(path).spec.title == trickrules.load("whist").spec.title


def test_finding9_extends_opens_only_a_bundled_spec_or_a_file_next_to_the_overlay(tmp_path: Path) -> None:
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
def test_finding9_a_control_character_in_a_spec_string_is_refused(tmp_path: Path, char: str) -> None:
    """An ANSI escape or a bell in a title or a suit name was printed raw by ``rules`` and ``play``."""
    from trickrules import SpecError

    overlay = tmp_path / "bad.toml"
    escaped = f"\\u{ord(char):04X}"  # TOML's own escape: the file itself holds no control character
    overlay.write_text(f'extends = "manille"\ntitle = "Manille{escaped}[31m"\n', encoding="utf-8")
    with pytest.raises(SpecError, match=rf"title: the control character U\+{ord(char):04X} is not accepted"):
        trickrules.load(overlay)


# -- finding 2: every log the library writes, it reads; every state it reaches, it resumes --------------------


def _random_match(game: trickrules.Game, seed: int) -> list[trickrules.State]:
    """The states of a match of random legal actions (seeded), one per step."""
    rng = random.Random(seed)
    states = [game.new_match(seed=seed)]
    while not states[-1].is_terminal:
        states.append(states[-1].apply(rng.choice(states[-1].legal_actions())))
    return states


def test_finding2_a_finnish_match_whose_pot_triples_past_2_to_53_writes_a_log_that_reads_back_and_resumes() -> None:
    """A pot that stays whole on a Codille triples; random play takes it past 2**53 in 40 deals, all of it read back.

    Totals past 2**53 are written as strings of their decimal digits (in
    the events, the header and the views), and nothing else is.
    """
    game = trickrules.load("quadrille-fi", options={"codille_indivisible_pot": "stays_whole"})
    states = _random_match(game, 0)
    final = states[-1]
    assert max(max(abs(x) for x in s.match.scores) for s in states) > 2**53
    text = EventLog.from_state(final).to_json()
    assert re.search(r'"scoreboard":\[[^]]*"-?[1-9][0-9]{15,}"', text)
    assert EventLog.from_json(text).to_json() == text
    assert trickrules.replay(text) == final
    view = View.from_state(final, 0)
    assert View.from_json(view.to_json()) == view
    big = [x for x in view.scoreboard if abs(x) > 2**53]
    assert big
    assert f'"{big[0]}"' in view.to_json()
    # A server restarting from any deal's end resumes from the totals then.
    ends = [e for s in states for e in s.last_events if isinstance(e, DealScored)]
    assert max(abs(x) for x in ends[-1].scoreboard) > 2**53
    for end in ends[-5:]:
        resumed = game.new_match(seed=final.match.seed, scores=end.scoreboard, pot=end.pot)
        assert (resumed.match.start_scores, resumed.match.start_pot) == (end.scoreboard, end.pot)
        assert resumed.legal_actions()


def test_finding2_a_deal_past_the_totals_bound_stops_with_a_clear_error_and_leaves_a_resumable_state() -> None:
    """Totals are bounded (10**299) where formulas still have room for a deal: the deal past it is refused."""
    game = trickrules.load("manille")
    start = game.new_match(seed=4, scores=[MAX_START] * 4)
    rng = random.Random(4)
    state = start
    refused: trickrules.FormulaError | None = None
    while refused is None:
        assert not state.is_terminal
        action = rng.choice(state.legal_actions())
        try:
            state = state.apply(action)
        except trickrules.FormulaError as exc:
            refused = exc
    assert f"pass {MAX_START_TEXT}" in str(refused), refused
    assert "cannot go on" in str(refused), refused
    # Everything up to the refused step is whole: its log replays, and the match resumes from its totals.
    assert trickrules.replay(EventLog.from_state(state).to_json(), partial=True) == state
    assert game.new_match(seed=4, scores=state.match.scores).match.scores == state.match.scores
    assert state.legal_actions()


# -- finding 5: slow rejection ---------------------------------------------------------------------------


def test_finding5_a_48_mb_log_whose_event_0_is_wrong_is_refused_at_once_in_little_memory(tmp_path: Path) -> None:
    game = trickrules.load("manille")
    lines = EventLog.from_state(play_match(game, make_bots(game, "random", 1), 1)).to_json().splitlines()
    head, first, rest = lines[0], json.loads(lines[1]), lines[2:]
    first["hands"][0][0], first["hands"][1][0] = first["hands"][1][0], first["hands"][0][0]
    path = tmp_path / "big.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(head + "\n" + json.dumps(first, separators=(",", ":")) + "\n")
        block = "\n".join(rest) + "\n"
        while fh.tell() < 48 * 1024 * 1024:
            fh.write(block)
    tracemalloc.start()
    started = time.perf_counter()
    try:
        with pytest.raises(trickrules.LogIntegrityError, match="event 0"):
            trickrules.replay_file(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.perf_counter() - started < 5  # a guard against reading it all, not a speed measurement
    assert peak < 8 * 1024 * 1024


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_finding5_replaying_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(trickrules.LogFormatError, match="not a regular file"):
        trickrules.replay_file(fifo)
    with pytest.raises(trickrules.LogFormatError, match="not a regular file"):
        EventLog.load(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "trickrules.faces.cli", "replay", str(fifo)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0
    assert "not a regular file" in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


# -- finding 7: logs a server can trust ----------------------------------------------------------------------

KEY = b"a server's secret key, 32 bytes!"


def _signed_manille() -> tuple[trickrules.Game, EventLog]:
    game = trickrules.load("manille")
    return game, EventLog.from_state(play_match(game, make_bots(game, "random", 5), 5)).sign(KEY)


def test_finding7_a_changed_option_with_a_recomputed_fingerprint_is_refused_under_the_key() -> None:
    game, log = _signed_manille()
    header = json.loads(log.to_json().splitlines()[0])
    assert set(header["options"]) == set(game.spec.options)  # every option, default or not
    other = trickrules.load("manille", {"last_trick_bonus": "on"})
    header["options"]["last_trick_bonus"] = "on"
    header["fingerprint"] = other.fingerprint
    lines = log.to_json().splitlines()
    forged = "\n".join([json.dumps(header, separators=(",", ":")), *lines[1:]]) + "\n"
    with pytest.raises(trickrules.LogIntegrityError, match="header: the signature does not match"):
        trickrules.replay(forged, key=KEY)


def test_finding7_a_consistent_rewrite_replays_but_fails_the_signature_at_the_first_changed_event() -> None:
    """Another legal card at one step, the rest re-simulated: valid by the rules, refused by the signature."""
    game, log = _signed_manille()
    final = trickrules.replay(log, key=KEY)
    actions = [n for n, e in enumerate(log.entries) if isinstance(e.actor, int)]
    # Rebuild the match, taking another legal action at the 10th decision, then the same policy on.
    states = _random_match(game, 5)
    pivot = states[9]
    alternatives = [a for a in pivot.legal_actions() if pivot.apply(a) != states[10]]
    rewritten = pivot.apply(alternatives[0])
    rng = random.Random(99)
    while not rewritten.is_terminal:
        rewritten = rewritten.apply(rng.choice(rewritten.legal_actions()))
    fake = EventLog.from_state(rewritten)
    forged = EventLog(
        log.header, tuple(attrs.evolve(e, mac=s.mac) for e, s in zip(fake.entries, log.entries, strict=False))
    )
    assert trickrules.replay(EventLog(fake.header, fake.entries)) == rewritten  # consistent: it replays
    with pytest.raises(trickrules.LogIntegrityError, match=r"event \d+: the signature does not match") as info:
        trickrules.replay(forged, key=KEY)
    first_diff = next(n for n, (a, b) in enumerate(zip(fake.entries, log.entries, strict=False)) if a.event != b.event)
    assert info.value.seq == first_diff
    assert actions
    assert final.is_terminal


@pytest.mark.parametrize(("line", "expected"), [(0, "header: the signature"), (3, "event 2: the signature")])
def test_finding7_a_mac_of_non_ascii_text_is_a_signature_that_does_not_match(line: int, expected: str) -> None:
    """Found by the long log fuzz run: hmac.compare_digest raised TypeError on a non-ASCII MAC."""
    _, log = _signed_manille()
    lines = log.to_json().splitlines()
    data = json.loads(lines[line])
    data["mac"] = "é" * 64
    lines[line] = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    with pytest.raises(trickrules.LogIntegrityError, match=expected):
        trickrules.replay("\n".join(lines) + "\n", key=KEY)


@pytest.mark.parametrize("cut", ["last", "first", "swap"])
def test_finding7_cutting_adding_or_moving_signed_events_is_found(cut: str) -> None:
    _, log = _signed_manille()
    entries = list(log.entries)
    if cut == "last":
        entries = entries[:-1]
        expected = f"event {len(entries)}: the signature covers"
    elif cut == "first":
        entries = entries[1:]
        expected = "event 0: the signature does not match"
    else:
        entries[3], entries[4] = entries[4], entries[3]
        expected = "event 3: the signature does not match"
    with pytest.raises(trickrules.LogIntegrityError, match=expected):
        trickrules.replay(EventLog(log.header, tuple(entries)), key=KEY, partial=True)


def test_finding7_signing_round_trips_and_the_cli_checks_it(tmp_path: Path) -> None:
    _game, log = _signed_manille()
    text = log.to_json()
    assert EventLog.from_json(text).to_json() == text
    assert trickrules.replay(text, key=KEY).is_terminal
    with pytest.raises(trickrules.LogIntegrityError, match="not signed"):
        trickrules.replay(EventLog(attrs.evolve(log.header, mac=None, events=None), log.entries), key=KEY)
    with pytest.raises(trickrules.LogIntegrityError, match="another key"):
        trickrules.replay(text, key=b"x" * 32)
    with pytest.raises(trickrules.ArgumentError, match="key"):
        log.sign(b"short")
    key_file, path = tmp_path / "key", tmp_path / "log.jsonl"
    key_file.write_bytes(KEY + b"\n")
    cli = [sys.executable, "-m", "trickrules.faces.cli"]
    run = subprocess.run
    played = run([*cli, "play", "manille", "--seed", "3", "--quiet", "--log", str(path), "--key-file", str(key_file)])
    assert played.returncode == 0
    ok = run([*cli, "replay", str(path), "--key-file", str(key_file)], capture_output=True, text=True)
    assert ok.returncode == 0
    assert "signature checked" in ok.stdout
    path.write_text(path.read_text().replace('"reason":"', '"reason":"x', 1))
    bad = run([*cli, "replay", str(path), "--key-file", str(key_file)], capture_output=True, text=True)
    assert bad.returncode == 1
    assert "signature does not match" in bad.stderr


# -- finding 8: guessable deals ------------------------------------------------------------------------------


def test_finding8_without_a_seed_a_secret_128_bit_one_is_drawn_and_a_seat_never_sees_it() -> None:
    game = trickrules.load("manille")
    seeds = {game.new_match().match.seed for _ in range(8)}
    assert len(seeds) == 8
    assert 0 not in seeds
    assert max(seeds) >= 2**100  # 8 draws of 128 bits all below 2**100: about 2**-224
    state = game.new_match()
    seed = state.match.seed
    state = state.apply(state.legal_actions()[0])
    # The full log records it (as a string past 2**53) and replays; no seat's log or view holds it.
    text = EventLog.from_state(state).to_json()
    assert f'"seed":"{seed}"' in text
    assert trickrules.replay(text, partial=True) == state
    for seat in range(4):
        assert str(seed) not in EventLog.from_state(state).for_seat(seat).to_json()
        assert str(seed) not in trickrules.View.from_state(state, seat).to_json()
    # The same seed, given, deals the same match.
    assert game.new_match(seed=seed).hands == game.new_match(seed=seed).hands


def test_finding8_the_cli_prints_the_secret_seed_so_the_match_can_be_played_again(tmp_path: Path) -> None:
    cli = [sys.executable, "-m", "trickrules.faces.cli", "play", "manille", "--quiet", "--deals", "1"]
    first = subprocess.run(cli, capture_output=True, text=True, check=True).stdout
    seed = int(re.search(r"seed (\d+)", first).group(1))  # type: ignore[union-attr]
    assert seed != 0  # drawn, not the old default 0
    again = subprocess.run([*cli, "--seed", str(seed)], capture_output=True, text=True, check=True).stdout
    assert again == first


# -- finding 4: every reader raises the library's own errors --------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("[" * 100_000 + "]" * 100_000, id="deep nesting (was RecursionError)"),
        pytest.param('{"game": 5}', id="a wrong field type (was ClassValidationError)"),
        pytest.param("[1, 2, 3]", id="not an object (was AttributeError)"),
        pytest.param('{"game":"manille","seat":0,"seat":1}', id="a repeated key"),
        pytest.param(b"\xff\xfe", id="not UTF-8"),
    ],
)
def test_finding4_view_from_json_on_hostile_input_raises_a_log_format_error(text: str | bytes) -> None:
    with pytest.raises(trickrules.LogFormatError):
        trickrules.View.from_json(text)


@pytest.mark.parametrize("argument", ["seed", "scores", "pot", "dealer"])
def test_finding4_a_5000_digit_integer_given_to_new_match_is_an_argument_error(argument: str) -> None:
    """Python refuses to print an integer past 4,300 digits: the message must not try to."""
    game = trickrules.load("manille")
    huge = 10**5000
    value: object = [huge] * 4 if argument == "scores" else huge
    with pytest.raises(trickrules.ArgumentError, match=argument):
        game.new_match(**{argument: value})  # type: ignore[arg-type]

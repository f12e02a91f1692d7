"""An open hand (``[mechanisms.open_hand]``): Skat's Ouvert games and Tarok's open beggar, each on its rule.

Skat (``specs/skat.toml``, ISkO 5.2.5, 5.4.3): in Null Ouvert, Null Ouvert Hand and a suit game or
Grand announced Ouvert, the declarer's cards lie face up from before the first card is led; in every
other game nobody sees them. Tarok (``specs/tarok.toml``, option ``open_beggar_shown``): off, OpenSpiel's
reading, nobody sees the open beggar's cards; on, the pagat.com rule, they lie face up after the first
trick. Checked: the moment (and never before), what every seat's view, log, picture and printout show,
replay, the command line, and the section's errors.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

import trickrules
from trickrules import EventLog, Game, LogIntegrityError, SpecError, State, View
from trickrules.engine.events import Announced, CardPlayed, Dealt, TrickWon
from trickrules.engine.phases import action_of
from trickrules.engine.phases.open_hand import HandOpened, OpenHandView
from trickrules.faces.cli import main
from trickrules.faces.html import replay_frames
from trickrules.faces.table import describe_view
from trickrules.records.replay import replay
from trickrules.svg import table as svg_table

#: Per phase, the prefixes of the actions a test prefers there (the first that matches wins); else at random.
Prefer = Mapping[str, tuple[str, ...]]


@pytest.fixture(scope="module")
def skat() -> Game:
    return trickrules.load("skat", {"deals": "4"})


@pytest.fixture(scope="module")
def tarok_shown() -> Game:
    return trickrules.load("tarok", {"open_beggar_shown": "on", "deals": "12"})


@pytest.fixture(scope="module")
def tarok_hidden() -> Game:
    return trickrules.load("tarok", {"deals": "12"})


def _deal(game: Game, seed: int, prefer: Prefer, wanted: Callable[[State], bool]) -> list[State] | None:
    """The states of the first deal of a seeded random match (``prefer`` steering it) whose last state is ``wanted``.

    From the deal's first state to its last, and then the state after the step that ended it (the next
    deal's first, or the match's end); ``None`` if no deal of the match is.
    """
    rng = random.Random(seed)
    state = game.new_match(seed=seed)
    states = [state]
    while not state.is_terminal:
        legal = state.legal_actions()
        for text in prefer.get(state.phase, ()):
            chosen = [a for a in legal if str(a).startswith(text)]
            if chosen:
                legal = tuple(chosen)
                break
        after = state.apply(rng.choice(legal))
        if any(isinstance(e, Dealt) for e in after.last_events) or after.is_terminal:
            if wanted(state):
                return [*states, after]
            states = []
        states.append(after)
        state = after
    return None


def _find(game: Game, prefer: Prefer, wanted: Callable[[State], bool]) -> list[State]:
    for seed in range(1, 80):
        found = _deal(game, seed, prefer, wanted)
        if found is not None:
            return found
    raise AssertionError("no seeded match reaches the deal wanted")


def _events(states: list[State]) -> list[object]:
    """The events of the deal, from its dealing to its end (the scoring), as the match's log holds them."""
    entries = states[-1].entries()
    first = [k for k, (_, e) in enumerate(states[0].entries()) if isinstance(e, Dealt)][-1]
    last = [k for k, (_, e) in enumerate(entries) if isinstance(e, Dealt) and k > first]
    return [e for _, e in entries[first : last[0] if last else len(entries)]]


def _tricks(states: list[State]) -> list[TrickWon]:
    return [e for e in _events(states) if isinstance(e, TrickWon)]


def _contract(state: State) -> str | None:
    d = state.deal
    return None if d.contract is None else state.game.rules.contracts[d.contract].name


def _announced(state: State) -> set[str]:
    return {e.name for _, e in state.entries() if isinstance(e, Announced)}


def _opening(states: list[State]) -> int:
    """The index of the state whose step laid the hand open (exactly one)."""
    found = [k for k, s in enumerate(states) if any(isinstance(e, HandOpened) for e in s.last_events)]
    assert len(found) == 1, found
    return found[0]


def _check_views(states: list[State], at: int) -> None:
    """Before ``at`` no seat's view shows the declarer's hand; from ``at`` on every seat's view shows what he holds."""
    game = states[0].game
    declarer = states[-2].deal.declarer
    assert declarer is not None
    for k, state in enumerate(states[:-1]):  # the last is the next deal's
        for seat in range(game.players):
            view = View.from_state(state, seat)
            part = view.part(OpenHandView)
            picture = view.picture(game=game)
            if k < at:
                assert part == OpenHandView(None, ()), (k, seat)
                if seat != declarer:
                    assert picture.hands[declarer] is None
            else:
                assert part == OpenHandView(declarer, state.hand(declarer)), (k, seat)
                assert picture.hands[declarer] == state.hand(declarer)  # drawn face up, like the dummy
                assert view == View.from_json(view.to_json())


def _check_logs(states: list[State], at: int, anchor: Callable[[object], bool], offset: int) -> HandOpened:
    """Every seat's log holds the event once, whole, ``offset`` events from the deal's first ``anchor`` event."""
    final = states[-1]
    event = next(e for e in states[at].last_events if isinstance(e, HandOpened))
    start = [k for k, (_, e) in enumerate(states[0].entries()) if isinstance(e, Dealt)][-1]
    end = start + len(_events(states))
    for seat in range(final.game.players):
        events = EventLog.from_state(final).for_seat(seat).events[start:end]
        opened = [k for k, e in enumerate(events) if isinstance(e, HandOpened)]
        first = next(k for k, e in enumerate(events) if anchor(e))
        assert opened == [first + offset], (seat, opened, first)
        assert events[first + offset] == event
    return event


# -- Skat -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("contract", ["null_ouvert", "null_ouvert_hand"])
def test_skat_null_ouvert_lies_open_before_the_first_lead(skat: Game, contract: str) -> None:
    widow = "pickup" if contract == "null_ouvert" else "hand"
    prefer = {"widow": (widow,), "bidding": (f"bid {contract}",)}
    states = _find(skat, prefer, lambda s: _contract(s) == contract)
    at = _opening(states)
    opened = states[at]
    declarer = opened.deal.declarer
    assert declarer is not None
    assert opened.phase == "play"
    assert not opened.trick  # before the first lead
    assert not opened.tally.winners
    assert next(type(e) for e in states[at + 1].last_events) is CardPlayed
    event = _check_logs(states, at, lambda e: isinstance(e, CardPlayed), -1)
    assert event == HandOpened(declarer, opened.hand(declarer))  # after the skat taken up and laid away
    assert len(event.cards) == 10
    _check_views(states, at)


def test_skat_a_game_announced_ouvert_lies_open_before_the_first_lead(skat: Game) -> None:
    prefer = {"widow": ("hand",), "bidding": ("bid grand_hand",), "announce": ("announce ouvert", "pass")}
    states = _find(skat, prefer, lambda s: _contract(s) == "grand_hand")
    assert "ouvert" in _announced(states[-1])
    at = _opening(states)
    assert not states[at].trick
    assert not states[at].tally.winners
    _check_logs(states, at, lambda e: isinstance(e, CardPlayed), -1)
    _check_views(states, at)


@pytest.mark.parametrize(
    ("prefer", "contract"),
    [
        ({"widow": ("pickup",), "bidding": ("bid null",)}, "null"),
        ({"widow": ("pickup",), "bidding": ("bid clubs",)}, "clubs"),
        (
            {"widow": ("hand",), "bidding": ("bid spades_hand",), "announce": ("announce schwarz", "pass")},
            "spades_hand",
        ),
    ],
)
def test_skat_other_games_stay_closed(skat: Game, prefer: Prefer, contract: str) -> None:
    states = _find(skat, prefer, lambda s: _contract(s) == contract and "ouvert" not in _announced(s))
    assert _tricks(states)  # the deal was played
    assert not any(isinstance(e, HandOpened) for e in _events(states))
    for state in states[:-1]:
        assert not any(isinstance(e, HandOpened) for e in state.last_events)
        for seat in range(3):
            assert View.from_state(state, seat).part(OpenHandView) == OpenHandView(None, ())


def test_skat_the_picture_and_the_printout_show_the_open_hand(skat: Game) -> None:
    prefer = {"widow": ("hand",), "bidding": ("bid null_ouvert_hand",)}
    states = _find(skat, prefer, lambda s: _contract(s) == "null_ouvert_hand")
    at = _opening(states)
    declarer = states[at].deal.declarer
    assert declarer is not None
    defender = (declarer + 1) % 3
    before, after = View.from_state(states[at - 1], defender), View.from_state(states[at], defender)
    hand = states[at].hand(declarer)
    drawn = svg_table(after.picture(game=skat))
    assert all(f'data-card="{c}"' in drawn for c in hand)
    assert not any(f'data-card="{c}"' in svg_table(before.picture(game=skat)) for c in hand)
    assert f"Face up, seat {declarer} (10 cards):" in describe_view(skat, after)
    assert "Face up" not in describe_view(skat, before)


def test_skat_a_log_with_an_open_hand_replays(skat: Game) -> None:
    prefer = {"widow": ("hand",), "bidding": ("bid null_ouvert_hand",)}
    for seed in range(1, 40):
        states = _deal(skat, seed, prefer, lambda s: _contract(s) == "null_ouvert_hand")
        if states is not None:
            break
    assert states is not None
    rng = random.Random(0)
    state = states[-1]  # the deal is over: the match goes on to its end
    while not state.is_terminal:
        state = state.apply(rng.choice(state.legal_actions()))
    text = EventLog.from_state(state).to_json()
    assert '"hand_opened"' in text
    assert replay(text, game=skat) == state
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if '"hand_opened"' in line)
    event = json.loads(lines[k])
    event["cards"] = event["cards"][1:]  # one card fewer laid open than the declarer held
    lines[k] = json.dumps(event, separators=(",", ":"))
    with pytest.raises(LogIntegrityError):
        replay("\n".join(lines) + "\n", game=skat)
    declarer = states[-2].deal.declarer
    assert declarer is not None
    defender = (declarer + 1) % 3
    shown = [f.pictures[defender + 1].hands[declarer] is not None for f in replay_frames(state)]
    assert any(shown)  # the replay page draws it face up for a defender,
    assert not all(shown)  # from a moment on


def test_skat_play_and_replay_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "skat.json"
    assert main(["play", "skat", "--seed", "1", "--bots", "random", "--option", "deals=4", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "plays open:" in out
    assert main(["replay", str(log)]) == 0
    assert "ok" in capsys.readouterr().out
    assert '"hand_opened"' in log.read_text()


def test_skat_openspiel_has_no_open_hand() -> None:
    game = trickrules.load("skat-openspiel")
    assert "open_hand" not in game.mechanisms
    assert "open_hand" in trickrules.load("skat").mechanisms


# -- Tarok ----------------------------------------------------------------------------------------


def _open_beggar(game: Game, seed: int) -> list[State] | None:
    return _deal(game, seed, {"bidding": ("bid open_beggar",)}, lambda s: _contract(s) == "open_beggar")


def test_tarok_open_beggar_lies_open_after_the_first_trick_with_the_option(tarok_shown: Game) -> None:
    checked = 0
    for seed in range(1, 60):
        states = _open_beggar(tarok_shown, seed)
        if states is None or len(_tricks(states)) < 2:
            continue  # the declarer took the first trick: the deal is over, lost, and nothing was laid open
        at = _opening(states)
        opened = states[at]
        declarer = opened.deal.declarer
        assert declarer is not None
        assert len(opened.tally.winners) == 1  # right after the first trick
        assert not opened.trick
        event = _check_logs(states, at, lambda e: isinstance(e, TrickWon), 1)
        assert event == HandOpened(declarer, opened.hand(declarer))
        assert len(event.cards) == 15  # three players: 16 cards, one played
        _check_views(states, at)
        checked += 1
        if checked == 2:
            break
    assert checked == 2


def test_tarok_open_beggar_lost_at_the_first_trick_is_never_laid_open(tarok_shown: Game) -> None:
    for seed in range(1, 200):
        states = _open_beggar(tarok_shown, seed)
        if states is not None and len(_tricks(states)) == 1:
            assert _tricks(states)[0].seat == states[-2].deal.declarer
            assert not any(isinstance(e, HandOpened) for e in _events(states))
            return
    pytest.skip("no seeded open beggar lost at its first trick")


def test_tarok_open_beggar_stays_hidden_without_the_option(tarok_shown: Game, tarok_hidden: Game) -> None:
    assert "open_hand" not in tarok_hidden.mechanisms
    for seed in range(1, 60):
        shown = _open_beggar(tarok_shown, seed)
        if shown is None or len(_tricks(shown)) < 2:
            continue
        # The same decisions with the option off: the same deal, with nothing laid open and nothing else changed.
        final = shown[-1]
        hidden = tarok_hidden.new_match(seed=seed)
        for _, event in final.entries():
            action = action_of(tarok_shown, event)
            if action is not None:
                hidden = hidden.apply(str(action))
        ours = [e for e in EventLog.from_state(final).events if not isinstance(e, HandOpened)]
        assert any(isinstance(e, HandOpened) for e in EventLog.from_state(final).events)
        assert list(EventLog.from_state(hidden).events) == ours
        for seat in range(3):
            assert View.from_state(hidden, seat).part(OpenHandView) is None
        return
    raise AssertionError("no seeded open beggar")


# -- the section ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ('contracts = ["nope"]', r"mechanisms\.open_hand\.contracts: 'nope' is not a contract"),
        ('announcements = ["nope"]', r"mechanisms\.open_hand\.announcements: 'nope' is not an announcement"),
        ("contracts = []\nannouncements = []", r"mechanisms\.open_hand\.contracts: the section names no contract"),
        ('contracts = ["null_ouvert"]\nwhen = "later"', r"mechanisms\.open_hand\.when: expected"),
        ('contracts = ["null_ouvert"]\ncolour = "red"', r"mechanisms\.open_hand\.colour: not a key"),
        ('contracts = "null_ouvert"', r"mechanisms\.open_hand\.contracts: expected a list"),
    ],
)
def test_a_bad_section_is_refused_naming_its_key(tmp_path: Path, section: str, message: str) -> None:
    path = tmp_path / "open.toml"
    path.write_text(
        'extends = "skat"\n[variant]\nname = "open"\ntitle = "open"\nchanges = []\n'
        "[mechanisms.open_hand]\nremove = true\n"
    )
    trickrules.load(path)  # the section removed: fine
    path.write_text(
        'extends = "skat"\n[variant]\nname = "open"\ntitle = "open"\nchanges = []\n'
        f"[mechanisms.open_hand]\n{section}\n"
    )
    with pytest.raises(SpecError, match=message):
        trickrules.load(path)

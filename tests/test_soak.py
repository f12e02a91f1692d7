"""A small sample of the soak (``benchmarks/soak.py``), and proof that the soak can fail.

The sample plays one random and one heuristic whole match of every bundled
game and overlay, and one short match of a few option choices, through the
soak's own functions, with every check the soak makes (the invariants at
every step, the log's round trip and replay, resuming from the scores), and
asserts that nothing failed. The other tests break the library on purpose
(a view that shows another seat's card, a log that replays to another state,
a refused resumption, a bot that plays an illegal card, a pot that makes
chips) and assert that the soak counts it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import soak

import trickrules
from trickrules import ArgumentError, Game, State, View
from trickrules.faces.bots import RandomBot
from trickrules.records import view as view_module

#: The option choices the sample plays, a few matches each (one game's each, different mechanisms).
SAMPLE_CHOICES = (
    ("hearts", (("pass_direction", "chance"),)),
    ("manille", (("revoke", "penalise"),)),
    ("quadrille", (("ante_every_deal", "on"),)),
    ("quadrille-fi", (("vole_bid_with_partner", "on"),)),
    ("euchre", (("allow_lone_defender", "on"),)),
    ("oh-hell", (("players", "7"),)),
    ("spades", (("bag_count", "score_digit"),)),
    ("cuatrola", (("cante_by", "trick_winner"),)),
)


#: Bundled games the soak's own checks cannot read yet: Bridge's dummy is played by the declarer (the soak asks
#: ``state.to_move``, not ``state.chooser``) and its bids ("2H") read as card codes. The change the soak needs
#: (benchmarks/soak.py, which the lead edits) is in the bridge branch's report; then this is empty again.
AWAITING_SOAK = ("bridge",)
#: The bundled games the sample plays.
SAMPLED = tuple(n for n in trickrules.bundled_names() if n not in AWAITING_SOAK)


def sample_tasks() -> list[soak.Task]:
    """One random and one heuristic match of every bundled game, and a few option choices for two deals."""
    tasks = soak.plan(
        SAMPLED,
        random_matches=1,
        heuristic_matches=1,
        per_option=0,
        seed=16,
        max_deals=None,
        batch=1,
    )
    for name, options in SAMPLE_CHOICES:
        tasks.append(soak.Task(f"{name} | options", name, options, "mixed", 16, 0, 2, max_deals=2))
    return tasks


def totals(rows: dict[str, soak.Stats]) -> soak.Stats:
    """Add up the rows of a run, the per-choice rows aside (they repeat the options rows)."""
    total = soak.Stats()
    for name, stats in rows.items():
        if "=" not in name.split(" | ", 1)[1]:
            total.add(stats)
    return total


def test_sample_soak_finds_nothing() -> None:
    tasks = sample_tasks()
    rows, ran = soak.run(tasks)
    assert ran == len(tasks)
    total = totals(rows)
    assert total.matches == 2 * len(SAMPLED) + 2 * len(SAMPLE_CHOICES)
    assert total.steps > 0
    assert total.deals > 0
    assert total.resumes > 0
    failures = "\n".join(str(f) for f in total.failures)
    assert total.failed == 0, failures


def test_option_choices_cover_every_option_but_the_specs_own_choice() -> None:
    spec = trickrules.load_spec("manille-soft-overtrump")
    choices = soak.option_choices("manille-soft-overtrump")
    assert (("partner_winning_exemption", "on"),) not in choices  # the overlay's own choice
    assert (("partner_winning_exemption", "off"),) in choices
    expected = sum(len(o.choices) - 1 for o in spec.options.values())
    assert len(choices) == expected


def test_matches_are_drawn_from_the_run_seed() -> None:
    task = soak.Task("whist | random", "whist", (), "random", 7, 0, 3)
    again = soak.Task("whist | random", "whist", (), "random", 7, 0, 3)
    other = soak.Task("whist | random", "whist", (), "random", 8, 0, 3)
    first = [soak.draw_match(task, i, 4) for i in range(3)]
    assert first == [soak.draw_match(again, i, 4) for i in range(3)]
    assert first != [soak.draw_match(other, i, 4) for i in range(3)]
    assert soak.Match.from_json(first[1].to_json()) == first[1]
    mixed = soak.Task("whist | options", "whist", (), "mixed", 7, 0, 10)
    assert [soak.draw_match(mixed, i, 4).bots for i in range(10)].count("heuristic") == 1


def test_cli_runs_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    status = soak.main(["--random", "1", "--heuristic", "1", "--per-option", "0", "--games", "whist", "--jobs", "2"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "whist | random" in out
    assert "total" in out


# -- the soak can fail ---------------------------------------------------------------------


def one_match(name: str = "cuatrola-11", bots: str = "random") -> soak.Stats:
    """Soak one whole match of ``name`` (the first of seed 16's draw)."""
    game = soak.load_game(name, ())
    task = soak.Task(f"{name} | {bots}", name, (), bots, 16, 0, 1)
    return soak.soak_match(soak.draw_match(task, 0, game.rules.players))


def leaky_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Views show a card of the next seat's hand among the cards played."""
    make_view = view_module.make_view

    def leaky(state: State, seat: int) -> View:
        view = make_view(state, seat)
        other = state.hand((seat + 1) % state.game.rules.players)
        return attrs.evolve(view, played=(*view.played, *other[:1])) if other else view

    monkeypatch.setattr(view_module, "make_view", leaky)


def replay_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replay gives the state one action short of the log's end."""
    replay = trickrules.replay

    def short(log: Any, game: Game | None = None, *, partial: bool = False) -> State:
        state = replay(log, game, partial=partial)
        return state.game.new_match(seed=state.match.seed)

    monkeypatch.setattr(trickrules, "replay", short)


def refuse_resumption(monkeypatch: pytest.MonkeyPatch) -> None:
    """``new_match`` refuses any starting scores (what it does past 2**53 today)."""
    new_match = Game.new_match

    def refusing(self: Game, *args: Any, **kwargs: Any) -> State:
        if kwargs.get("scores") is not None:
            raise ArgumentError("scores: refused on purpose")
        return new_match(self, *args, **kwargs)

    monkeypatch.setattr(Game, "new_match", refusing)


def illegal_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random bots always play the last card of their hand, legal or not."""

    def choose(self: RandomBot, view: View) -> str:
        return f"play {view.hand[-1]}" if view.hand and view.phase == "play" else view.legal[0]

    monkeypatch.setattr(RandomBot, "choose", choose)


def lost_points(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scoreboard loses a point of seat 0's score once the first deal is scored."""
    scoreboard = State.scoreboard

    def wrong(self: State) -> dict[int, int]:
        board = dict(scoreboard.fget(self))  # type: ignore[attr-defined]
        if self.match.deals_done:
            board[0] -= 1
        return board

    monkeypatch.setattr(State, "scoreboard", property(wrong))


BREAKAGES: dict[str, tuple[Callable[[pytest.MonkeyPatch], None], str]] = {
    "a view shows another hand's card": (leaky_view, "violation"),
    "replay gives another state": (replay_elsewhere, "replay"),
    "new_match refuses the scores": (refuse_resumption, "resume"),
    "a bot plays an illegal card": (illegal_bot, "violation"),
    "the scoreboard loses a point": (lost_points, "violation"),
}


@pytest.mark.parametrize("breakage", list(BREAKAGES))
def test_soak_counts_a_broken_library(breakage: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert one_match().failed == 0
    breaking, kind = BREAKAGES[breakage]
    breaking(monkeypatch)
    stats = one_match()
    assert stats.counts[kind] > 0, f"{breakage}: {stats.counts}"
    assert stats.failures
    shown = str(stats.failures[0])
    assert "seed" in shown
    assert "--repro" in shown


def test_cli_exits_one_on_a_failure(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    refuse_resumption(monkeypatch)
    status = soak.main(
        ["--random", "1", "--heuristic", "0", "--per-option", "0", "--games", "cuatrola-11", "--jobs", "1"]
    )
    out = capsys.readouterr().out
    assert status == 1
    assert "resume failure" in out
    assert "repro: python benchmarks/soak.py --repro" in out


def test_plan_interleaves_the_rows_and_a_deadline_stops_the_run() -> None:
    tasks = soak.plan(
        ["whist", "euchre"], random_matches=40, heuristic_matches=20, per_option=20, seed=0, max_deals=1, batch=10
    )
    rows = {t.row for t in tasks}
    assert rows == {"whist | random", "whist | heuristic", "euchre | random", "euchre | heuristic", "euchre | options"}
    first_half = tasks[: len(tasks) // 2]
    assert {t.row for t in first_half} == rows  # a run stopped half way has played some of every row
    assert sum(t.count for t in tasks if t.row == "whist | random") == 40
    stats, ran = soak.run(tasks, deadline=0.0)
    assert (stats, ran) == ({}, 0)


def test_figures_add_up_each_failure_once() -> None:
    match = soak.Match("whist", (), "random", 1, 0, 1)
    one = soak.Stats(matches=1, steps=10)
    for n in range(3):
        one.fail(soak.Failure("replay", match, f"step {n}", "broken"), keep=2)
    assert one.counts["replay"] == 3
    assert len(one.failures) == 2
    total = soak.Stats()
    total.add(one, keep=5)
    total.add(one, keep=5)
    assert total.counts["replay"] == 6
    assert total.matches == 2
    assert total.steps == 20
    assert len(total.failures) == 4
    assert total.failed == 6

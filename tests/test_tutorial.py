"""docs/tutorial.md: its spec files, its commands and its game keep working.

The tutorial's ``>>>`` examples run as pytest doctests of ``docs/*.md`` (the
``--doctest-glob`` in pyproject.toml). This module checks the rest: that the
spec it writes piece by piece is exactly ``docs/examples/polignac.toml``,
that every overlay it shows is the file of that name, that each ``$ trickrules
...`` command prints what the page shows, and that the game plays whole
matches under each choice of its options.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

import trickrules
from trickrules.faces.bots import RandomBot
from trickrules.faces.cli import main

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "docs" / "tutorial.md"
EXAMPLES = ROOT / "docs" / "examples"
SPEC = EXAMPLES / "polignac.toml"
TEXT = TUTORIAL.read_text(encoding="utf-8")


def _blocks(language: str) -> list[str]:
    """The fenced code blocks of the tutorial in ``language``, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```$", TEXT, flags=re.S | re.M)


def _is_overlay(block: str) -> bool:
    return re.search(r"^extends = ", block, flags=re.M) is not None


def _commands() -> list[tuple[str, list[str]]]:
    """Each ``$ command`` of the console blocks with the lines it is shown to print."""
    commands: list[tuple[str, list[str]]] = []
    for block in _blocks("console"):
        for line in block.splitlines():
            if line.startswith("$ "):
                commands.append((line[2:], []))
            else:
                assert commands, f"console block of docs/tutorial.md starts without a command: {block!r}"
                commands[-1][1].append(line)
    return commands


def test_the_spec_written_piece_by_piece_is_the_example_file() -> None:
    pieces = [block for block in _blocks("toml") if not _is_overlay(block)]
    assert "\n".join(pieces) == SPEC.read_text(encoding="utf-8"), (
        "docs/tutorial.md's toml blocks (all but the overlays), joined by blank lines, "
        "must be docs/examples/polignac.toml exactly"
    )


def test_every_example_file_is_shown_whole_in_the_tutorial() -> None:
    overlays = [block for block in _blocks("toml") if _is_overlay(block)]
    files = sorted(p for p in EXAMPLES.glob("*.toml") if p != SPEC)
    assert files, "docs/examples holds no overlay"
    for path in files:
        assert path.read_text(encoding="utf-8") in overlays, f"{path.name} is not shown whole in docs/tutorial.md"
        assert f"docs/examples/{path.name}" in TEXT, f"docs/tutorial.md does not name docs/examples/{path.name}"
    assert len(overlays) == len(files), "an overlay block of docs/tutorial.md has no file in docs/examples"


def test_the_tutorial_names_only_files_that_exist() -> None:
    for name in set(re.findall(r"docs/examples/[\w.-]+\.toml", TEXT)):
        assert (ROOT / name).is_file(), f"docs/tutorial.md names {name}, which does not exist"


@pytest.mark.parametrize(("command", "shown"), _commands(), ids=[c for c, _ in _commands()])
def test_each_command_prints_what_the_tutorial_shows(
    command: str, shown: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    words = shlex.split(command)
    assert words[0] == "trickrules", command
    monkeypatch.chdir(ROOT)  # the tutorial's paths are relative to the repository's root
    status = main(words[1:])
    captured = capsys.readouterr()
    printed = (captured.out + captured.err).rstrip("\n").splitlines()
    # A command whose shown output says it failed must fail: verify with 1 (also when it verified nothing),
    # an error with 2.
    failed = any("FAILED" in s or "nothing verified" in s for s in shown)
    expected_status = 2 if shown and shown[0].startswith("error:") else 1 if failed else 0
    assert status == expected_status, f"$ {command} exited {status}:\n" + "\n".join(printed)
    if "..." not in shown:
        assert printed == shown, f"$ {command} printed:\n" + "\n".join(printed)
        return
    # "..." stands for lines left out: the other lines must come in this order, the
    # first and last where they are shown.
    rest = iter(printed)
    for line in shown:
        if line != "...":
            assert line in rest, f"$ {command}: {line!r} not printed in order; it printed:\n" + "\n".join(printed)
    assert shown[0] == "..." or printed[0] == shown[0]
    assert shown[-1] == "..." or printed[-1] == shown[-1]


@pytest.mark.parametrize("ace", ["low", "high"])
def test_polignac_plays_whole_matches_that_replay(ace: str) -> None:
    game = trickrules.load(str(SPEC), {"ace": ace})
    for seed in range(3):
        bots = [RandomBot(game, seed * 4 + seat) for seat in range(game.players)]
        state = game.new_match(seed=seed)
        deals = 0
        while not state.is_terminal:
            seat = state.to_move
            assert seat is not None
            state = state.apply(bots[seat].choose(trickrules.View.from_state(state, seat)))
            deals += sum(1 for event in state.last_events if type(event).__name__ == "DealScored")
        scores = state.scoreboard
        # Every deal hands out every penalty point: three Jacks at 1 and the Polignac at 2.
        assert sum(scores.values()) == 5 * deals
        assert max(scores.values()) >= 10
        assert [scores[s] for s in state.winners] == [min(scores.values())] * len(state.winners)
        assert trickrules.replay(trickrules.EventLog.from_state(state).to_json(), game) == state


def test_polignac_ranks_the_ace_between_the_jack_and_the_ten_unless_chosen_high() -> None:
    hands = [
        ["AS", "9S", "8S", "7S", "QH", "10H", "9H", "8H"],
        ["QS", "10S", "KH", "AH", "7H", "KD", "QD", "JD"],
        ["JS", "JH", "KC", "QC", "JC", "AC", "10C", "9C"],
        ["KS", "AD", "10D", "9D", "8D", "7D", "8C", "7C"],
    ]
    for ace, winner in (("low", 3), ("high", 0)):
        state = trickrules.load(str(SPEC), {"ace": ace}).new_match(dealer=3, hands=hands)
        for card in ("AS", "10S", "JS", "KS"):
            state = state.apply(f"play {card}")
        assert state.to_move == winner
        assert state.tricks_won()[winner] == 1


def test_the_twenty_point_overlay_chooses_both_house_rules() -> None:
    spec = trickrules.load(str(EXAMPLES / "polignac-20.toml")).spec
    assert spec.name == "polignac-20"
    assert spec.match.target == 20
    assert spec.ranks.plain["default"][0] == "A"

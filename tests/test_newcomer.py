"""Where a newcomer tripped (issue 27, item 15), each now says or does what one expects.

``replay`` of an unfinished log names ``--partial``; a log of one's own spec
replays without ``--spec`` when the header's spec file sits beside it (and
says so); ``simulate`` plays with the bots ``play`` uses and says which; ``-n``
is "at least"; ``docs/pictures.md`` shows its pictures; the seat's prompt
says ``(1, ...)`` and ``1 card``, shows no empty bidding in a game without an
auction, and no ``▶`` once the match is over.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

import trickrules
from trickrules.faces.bots import make_bots
from trickrules.faces.cli import _parser, main
from trickrules.faces.html import replay_frames
from trickrules.faces.table import run_table

ROOT = Path(__file__).resolve().parent.parent
WHIST = (ROOT / "specs" / "whist.toml").read_text(encoding="utf-8")


def _finished(game: trickrules.Game, seed: int = 1) -> trickrules.State:
    state = game.new_match(seed=seed)
    while not state.is_terminal:
        state = state.apply(state.legal_actions()[0])
    return state


# -- (a) an unfinished log: the refusal names --partial ---------------------------------------------


def test_replay_of_an_unfinished_log_says_to_add_partial(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = trickrules.load("whist").new_match(seed=1)
    for _ in range(6):
        state = state.apply(state.legal_actions()[0])
    path = tmp_path / "unfinished.jsonl"
    trickrules.EventLog.from_state(state).save(path)
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "incomplete" in err
    assert "--partial" in err
    assert main(["replay", str(path), "--partial"]) == 0
    assert "match in progress" in capsys.readouterr().out


# -- (b) the spec beside the log ----------------------------------------------------------------------


def _own_log(folder: Path, spec_name: str = "mywhist.toml") -> Path:
    """A finished match of a spec of one's own (Whist renamed), its log saved beside the spec."""
    spec = folder / spec_name
    spec.write_text(WHIST.replace('name = "whist"', 'name = "mywhist"'), encoding="utf-8")
    log = folder / "match.jsonl"
    trickrules.EventLog.from_state(_finished(trickrules.load(str(spec)))).save(log)
    return log


def test_a_log_of_ones_own_spec_replays_with_the_spec_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _own_log(tmp_path)
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0])["spec"] == "mywhist.toml"
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert "mywhist.toml" in out
    assert "beside the log" in out
    assert "ok" in out
    assert "match over" in out
    assert main(["replay", str(log), "--spec", str(tmp_path / "mywhist.toml")]) == 0  # --spec still works
    assert "beside" not in capsys.readouterr().out


def _with_header_spec(log: Path, name: str) -> None:
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["spec"] = name
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")


@pytest.mark.parametrize("how", ["missing", "in the parent folder", "a folder", "a link", "a path"])
def test_only_a_regular_file_in_the_logs_folder_is_taken_for_its_spec(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    log = _own_log(folder)
    spec = folder / "mywhist.toml"
    if how == "missing":
        spec.unlink()
    elif how == "in the parent folder":
        spec.rename(tmp_path / "mywhist.toml")
        _with_header_spec(log, "../mywhist.toml")
    elif how == "a folder":
        spec.rename(tmp_path / "elsewhere.toml")
        spec.mkdir()
    elif how == "a link":
        spec.rename(tmp_path / "elsewhere.toml")
        os.symlink(tmp_path / "elsewhere.toml", spec)
    else:
        sub = folder / "sub"
        sub.mkdir()
        spec.rename(sub / "mywhist.toml")
        _with_header_spec(log, "sub/mywhist.toml")
    assert main(["replay", str(log)]) == 1
    out, err = capsys.readouterr()
    assert "--spec" in err
    assert err.count("\n") == 1
    assert "ok" not in out


def test_a_spec_beside_the_log_that_is_another_game_is_named_in_the_refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _own_log(tmp_path)
    (tmp_path / "mywhist.toml").write_text(
        WHIST.replace('name = "whist"', 'name = "mywhist"').replace("target = 5", "target = 7"), encoding="utf-8"
    )
    assert main(["replay", str(log)]) == 1
    err = capsys.readouterr().err
    assert "fingerprint" in err
    assert "beside the log" in err


# -- (c) and (d) simulate: the bots play uses, said; -n is at least ------------------------------------


def test_simulate_plays_with_the_bots_play_uses_by_default_and_says_which() -> None:
    play = _parser().parse_args(["play", "whist"])
    simulate = _parser().parse_args(["simulate", "whist"])
    assert simulate.bots == play.bots == "heuristic"


def test_simulate_says_which_bots_played_and_that_n_is_at_least(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["simulate", "manille", "-n", "2"]) == 0  # a match to 101 points lasts more than 2 deals
    out, err = capsys.readouterr()
    assert "heuristic bots" in out
    assert "heuristic bots" in err  # the progress bar's label
    found = re.search(r"(\d+) deals \(at least 2 asked", out)
    assert found
    assert int(found.group(1)) > 2
    assert main(["simulate", "whist", "-n", "2", "--bots", "random,heuristic,random,heuristic", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["bots"] == ["random", "heuristic", "random", "heuristic"]
    assert main(["simulate", "whist", "-n", "2", "--bots", "random,heuristic,random,heuristic"]) == 0
    assert "seat 0 random, seat 1 heuristic" in capsys.readouterr().out


def test_the_help_of_n_says_at_least(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "at least this many deals" in text
    assert "default heuristic" in text


# -- (e) docs/pictures.md shows its pictures ----------------------------------------------------------


def _pictures_module() -> Any:
    spec = importlib.util.spec_from_file_location("make_pictures", ROOT / "docs" / "pictures" / "make_pictures.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pictures_page_embeds_its_pictures_and_they_are_current() -> None:
    page = (ROOT / "docs" / "pictures.md").read_text(encoding="utf-8")
    embedded = re.findall(r"!\[[^\]]+\]\(pictures/([\w.-]+\.svg)\)", page)
    drawn = _pictures_module().pictures()
    assert sorted(embedded) == sorted(drawn)
    assert {"table-from-above.svg", "table-from-seat-1.svg", "hand.svg", "trick.svg"} <= set(drawn)
    for name, text in drawn.items():
        path = ROOT / "docs" / "pictures" / name
        assert path.is_file(), f"{path} is missing: run python docs/pictures/make_pictures.py"
        assert path.read_text(encoding="utf-8") == text + "\n", f"{path} is stale: run docs/pictures/make_pictures.py"


# -- (f) the seat's prompt -------------------------------------------------------------------------------


def _session(game_name: str, answers: str, seat: int = 0, deals: int = 1) -> str:
    game = trickrules.load(game_name)
    out = io.StringIO()
    run_table(game, seat, 1, make_bots(game, "random", 1), max_deals=deals, input=io.StringIO(answers), output=out)
    return out.getvalue()


def test_the_prompt_with_one_choice_says_1_and_the_hand_of_one_card_says_1_card() -> None:
    out = _session("whist", "1\n" * 13)
    assert "(1-1," not in out
    assert "Your move (1, help, undo, quit): " in out
    assert not re.search(r"\b1 cards", out)
    assert "Your hand (1 card):" in out
    assert "Your hand (13 cards):" in out


def test_a_game_without_an_auction_shows_no_empty_bidding() -> None:
    for name in ("whist", "hearts"):
        out = _session(name, "quit\n")
        assert "Your choices:" in out
        assert "Bidding" not in out
    out = _session("cuatrola", "quit\n", seat=1)
    assert "Bidding:" in out


def test_the_replay_shows_no_seat_to_move_once_a_deal_or_the_match_is_over() -> None:
    state = _finished(trickrules.load("whist"))
    frames = replay_frames(state)
    last = frames[-1]
    assert sum(last.pictures[0].tricks) == 13
    assert all(picture.to_move is None for picture in last.pictures)
    ends = [f for f in frames if f.pictures[0].tricks and sum(f.pictures[0].tricks) == 13]
    assert len(ends) == state.match.deals_done
    assert all(picture.to_move is None for f in ends for picture in f.pictures)
    assert all("▶" not in trickrules.svg.table(picture) for picture in last.pictures)

"""A person at the table (``trickrules play GAME --seat N``): the terminal session and its display."""

from __future__ import annotations

import io
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import parts
import trickrules
from trickrules.engine.state import GameLike
from trickrules.faces.bots import RandomBot
from trickrules.faces.cli import main
from trickrules.faces.table import PROMPT, Table, hand_groups, run_table
from trickrules.records.view import View
from trickrules.spec.loader import bundled_names

ROOT = Path(__file__).resolve().parent.parent
CHOICE = re.compile(r"^\s*\[(\d+)\] (.+?)\s*$", re.MULTILINE)
#: The longest any one read from the terminal may wait, and the most a whole deal may take.
READ_TIMEOUT, DEAL_TIMEOUT = 15.0, 40.0


class FirstBot:
    """Always the first legal action: a table whose bots are predictable."""

    def choose(self, view: View) -> str:
        """The first legal action."""
        return view.legal[0]


def _session(game: GameLike, seat: int, lines: str, seed: int = 1, **kw: int) -> tuple[str, trickrules.State]:
    out = io.StringIO()
    bots = [FirstBot() for _ in range(game.players)]
    final = run_table(game, seat, seed, bots, input=io.StringIO(lines), output=out, **kw)
    return out.getvalue(), final


# -- (a) the real command line in a pseudo-terminal, one whole deal per bundled game --------------------


class _Terminal:
    """The parent end of a pseudo-terminal; every read is bounded by a timeout."""

    def __init__(self, fd: int) -> None:
        self.fd, self.text, self.seen, self.closed = fd, "", 0, False

    def read_until_prompt(self, deadline: float) -> str | None:
        """The output since the last answer, up to the next prompt; ``None`` once the program is done."""
        while True:
            at = self.text.find(PROMPT, self.seen)
            if at >= 0 and self.text.endswith(": ", at):
                chunk, self.seen = self.text[self.seen : at], len(self.text)
                return chunk
            if self.closed:
                return None
            wait = min(READ_TIMEOUT, deadline - time.monotonic())
            assert wait > 0, f"the deal took too long; output so far:\n{self.text[-3000:]}"
            ready, _, _ = select.select([self.fd], [], [], wait)
            assert ready, f"no output for {READ_TIMEOUT} s; output so far:\n{self.text[-3000:]}"
            try:
                data = os.read(self.fd, 65536)
            except OSError:  # EIO: the program has closed the terminal
                data = b""
            if not data:
                self.closed = True
            self.text += data.decode("utf-8", "replace").replace("\r\n", "\n")


def _play_in_terminal(name: str) -> tuple[int, str, int]:
    """Run ``play NAME --seat 0`` in a pseudo-terminal and answer every prompt; the status, output and answers."""
    parent, child = os.openpty()
    command = [sys.executable, "-m", "trickrules", "play", name, "--seat", "0", "--seed", "1", "--deals", "1"]
    proc = subprocess.Popen(
        [*command, "--bots", "random"], stdin=child, stdout=child, stderr=child, cwd=ROOT, start_new_session=True
    )
    os.close(child)
    terminal, answers, deadline = _Terminal(parent), 0, time.monotonic() + DEAL_TIMEOUT
    try:
        while (chunk := terminal.read_until_prompt(deadline)) is not None:
            choices = CHOICE.findall(chunk)
            assert choices, f"a prompt without choices:\n{chunk}"
            assert choices[0][0] == "1"
            # The first choice, by its number mostly and by its text form every third time.
            answer = choices[0][1] if answers % 3 == 2 else choices[0][0]
            os.write(parent, f"{answer}\n".encode())
            answers += 1
            assert answers < 400, "the deal does not end"
        status = proc.wait(timeout=READ_TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(parent)
    return status, terminal.text, answers


@pytest.mark.parametrize("name", bundled_names())
def test_a_whole_deal_is_played_through_the_command_line_in_a_terminal(name: str) -> None:
    status, text, answers = _play_in_terminal(name)
    assert status == 0, text[-3000:]
    assert "Traceback" not in text
    assert answers > 0
    assert "Your hand" in text
    assert "Your choices:" in text
    assert re.search(r"^  scores: ", text, re.MULTILINE), f"no deal scoring in:\n{text[-3000:]}"
    assert "Stopped after 1 deal(s). Scores: " in text or "Match over." in text


# -- (b) run_table with scripted input ------------------------------------------------------------------


def _off_suit_move(game: GameLike, seat: int) -> tuple[str, str]:
    """A whist table where ``seat`` must follow suit: a legal move and a card it holds but may not play."""
    state = game.new_match(seed=1)
    while state.to_move != seat:
        assert state.to_move is not None
        state = state.apply(state.legal_actions()[0])
    legal = [str(a) for a in state.legal_actions()]
    wrong = [c for c in state.hand(seat) if f"play {c}" not in legal]
    assert wrong, "the scenario needs a seat that must follow suit"
    return legal[0], wrong[0]


def test_a_mistyped_move_is_explained_and_the_choices_are_shown_again() -> None:
    out, _ = _session(trickrules.load("whist"), 2, "plya 7H\nquit\n")
    after = out.split("Not understood: not an action: 'plya 7H'", 1)[1]
    assert "the verbs are pass, bid" in after
    assert after.index("Your choices:") < after.index(PROMPT)
    assert CHOICE.search(after)


def test_an_illegal_move_names_the_rule_and_the_choices_are_shown_again() -> None:
    game = trickrules.load("whist")
    legal, card = _off_suit_move(game, 2)
    out, final = _session(game, 2, f"play {card}\nquit\n")
    after = out.split("Not allowed: ", 1)[1]
    assert after.startswith(f"play {card}: must follow suit")
    assert f"] {legal}" in after.split(PROMPT)[0]
    assert final.hand(2) == game.new_match(seed=1).hand(2)  # nothing was played


def test_a_number_that_is_no_choice_is_refused() -> None:
    out, _ = _session(trickrules.load("whist"), 2, "99\n0\nquit\n")
    assert "There is no choice 99: type a number from 1 to" in out
    assert "There is no choice 0:" in out


def test_a_move_is_accepted_by_number_by_text_in_any_case_and_by_the_card_alone() -> None:
    game = trickrules.load("whist")
    for answer in ("1", "PLAY {}", "play {}", "{}"):
        legal, _ = _off_suit_move(game, 2)
        card = legal.split()[1]
        out, _ = _session(game, 2, answer.format(card.lower() if "PLAY" in answer else card) + "\nquit\n")
        assert "Not " not in out
        assert "you (seat 2) play " in out


def test_help_explains_the_input_and_lists_the_choices() -> None:
    out, _ = _session(trickrules.load("quadrille"), 0, "help\nquit\n")
    after = out.split("How to answer:", 1)[1]
    for word in ("a number", "a move as written", "undo", "quit"):
        assert word in after
    assert after.index("Your choices:") < after.index(PROMPT)


def _hands_shown(out: str) -> list[str]:
    return re.findall(r"^Your hand \(.*?(?=^Your choices:)", out, re.MULTILINE | re.DOTALL)


def test_undo_takes_back_the_move_and_the_bots_moves_after_it() -> None:
    game = trickrules.load("whist")
    out, final = _session(game, 1, "1\nundo\nquit\n")
    hands = _hands_shown(out)
    assert len(hands) == 3
    assert hands[0].startswith("Your hand (13 cards)")
    assert hands[1].startswith("Your hand (12 cards)")
    assert hands[2] == hands[0]
    assert "Took back your move 'play " in out
    assert final == game.new_match(seed=1)  # seat 1 leads the first trick: back to the start


def test_undo_with_nothing_to_take_back_is_refused() -> None:
    out, _ = _session(trickrules.load("whist"), 1, "undo\nquit\n")
    assert "Nothing to undo: you have not made a move in this deal yet." in out


def test_undo_does_not_cross_into_a_scored_deal() -> None:
    game = trickrules.load("whist")
    out, final = _session(game, 0, "1\n" * 13 + "undo\nquit\n", max_deals=2)
    assert final.match.deals_done == 1
    assert "Nothing to undo: the deal of your last move is over and a new one dealt" in out


def test_the_end_of_input_leaves_the_table_cleanly() -> None:
    out, final = _session(trickrules.load("cuatrola"), 3, "")
    assert out.rstrip().splitlines()[-1].startswith("End of input: you left the table in deal 1. Scores: seat 0 ")
    assert not final.is_terminal


def test_quit_leaves_the_table_and_returns_the_state_reached() -> None:
    game = trickrules.load("whist")
    out, final = _session(game, 1, "1\nquit\n")
    assert "You left the table in deal 1." in out
    assert final.hand(1) != game.new_match(seed=1).hand(1)


def test_a_deal_played_to_its_end_shows_the_scoring() -> None:
    out, final = _session(trickrules.load("whist"), 3, "1\n" * 13, max_deals=1)
    assert final.match.deals_done == 1
    assert re.search(r"^  scores: ", out, re.MULTILINE)
    assert "Stopped after 1 deal(s). Scores: " in out


class _Watcher:
    """Scripted input that, at each prompt, checks what was shown against the state's hidden hands."""

    def __init__(self, out: io.StringIO) -> None:
        self.out, self.seen, self.prompts = out, 0, 0
        self.table: Table | None = None

    def readline(self) -> str:
        """Check the output since the last prompt, then answer with the first choice."""
        table = self.table
        assert table is not None
        state, seat = table.state, table.seat
        shown = self.out.getvalue()[self.seen :]
        self.seen = len(self.out.getvalue())
        view = View.from_state(state, seat)
        public = {parts.v_turned(view), parts.v_called(view), *parts.v_given(view), *parts.v_received(view)}
        public |= {move.partition(" ")[2] for move in view.legal}  # a card to call names no holder
        public |= parts.v_shown(view)  # a hand laid face up for every seat (the dummy's)
        public |= parts.v_calls(view)  # the calls of a doubling auction ("bid 2H" names a bid, not the card)
        public |= parts.v_talon(view)  # a talon laid out face up in sets
        hidden = {code for s in range(state.game.players) if s != seat for code in state.hand(s)} - public
        words = set(re.findall(r"[A-Za-z0-9]+", shown))
        assert not hidden & words, f"seat {seat} was shown {sorted(hidden & words)} of another hand:\n{shown}"
        self.prompts += 1
        return "1\n"


@pytest.mark.parametrize("name", bundled_names())
def test_the_display_never_shows_a_card_of_another_seats_hand(name: str) -> None:
    game = trickrules.load(name)
    for seat in (0, game.players - 1):
        out = io.StringIO()
        watcher = _Watcher(out)
        bots = [RandomBot(game, seed=s) for s in range(game.players)]
        table = Table(game, seat, 5, bots, max_deals=1, input=watcher, output=out)  # type: ignore[arg-type]
        watcher.table = table
        final = table.run()
        assert final.match.deals_done == 1
        assert watcher.prompts > 0


def test_the_hand_is_grouped_by_suit_in_the_games_rank_order() -> None:
    game = trickrules.load("quadrille")
    data = trickrules.faces.render.rules_data(game, "H")
    hand = data["deck"][::3]
    groups = hand_groups(game, hand, "H")
    assert groups[0][0] == "Trumps (H)"
    assert list(groups[0][1]) == [c for c in data["trump_order"] if c in hand]
    names = {s.name: s.code for s in game.spec.deck.suits}
    for label, codes in groups[1:]:
        assert list(codes) == [c for c in data["plain_orders"][names[label]] if c in hand]
    assert sorted(c for _, g in groups for c in g) == sorted(hand)


def test_before_trumps_are_known_the_cards_always_trumps_come_first() -> None:
    game = trickrules.load("quadrille")
    hand = ["AS", "AC", "KS", "2S", "7H", "KH"]
    groups = dict(hand_groups(game, hand, None))
    assert groups["Trumps (always)"] == ("AS", "AC")
    assert groups[game.spec.deck.suits[0].name] == ("KS", "2S")


def test_the_bidding_so_far_is_shown() -> None:
    game = trickrules.load("cuatrola")
    state, calls = game.new_match(seed=1), []
    seat = ((state.to_move or 0) + 2) % game.players  # two calls before this seat's turn
    while state.to_move != seat:
        action = state.legal_actions()[0]
        calls.append(f"seat {state.to_move}: {action}")
        state = state.apply(action)
    out, _ = _session(game, seat, "quit\n")
    assert f"Bidding: {'; '.join(calls)}\n" in out
    assert "Contract: trumps: B\n" in out  # the turned card makes them


def test_seat_out_of_range_is_refused_before_any_work(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "whist", "--seat", "4", "--seed", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.err == "error: --seat must be a seat from 0 to 3, found 4.\n"
    assert captured.out == ""
    assert main(["play", "oh-hell", "--seat", "-1"]) == 2
    assert "--seat must be a seat from 0 to 2, found -1." in capsys.readouterr().err


def test_the_bots_moves_are_printed_as_they_happen() -> None:
    game = trickrules.load("whist")
    out, _ = _session(game, 3, "quit\n")
    assert "  seat 1 plays " in out
    assert "  seat 2 plays " in out


@pytest.mark.parametrize(("key", "said"), [(b"\x04", "End of input: you left the table"), (b"", "Interrupted")])
def test_ctrl_d_and_ctrl_c_in_a_terminal_leave_cleanly(key: bytes, said: str) -> None:
    # Ctrl-D is typed; Ctrl-C is sent as the SIGINT a terminal sends (the child has its own session,
    # so the pseudo-terminal is not its controlling terminal and would not turn ^C into a signal).
    parent, child = os.openpty()
    command = [sys.executable, "-m", "trickrules", "play", "hearts", "--seat", "1", "--seed", "1", "--bots", "random"]
    proc = subprocess.Popen(command, stdin=child, stdout=child, stderr=child, cwd=ROOT, start_new_session=True)
    os.close(child)
    terminal = _Terminal(parent)
    try:
        assert terminal.read_until_prompt(time.monotonic() + DEAL_TIMEOUT) is not None
        if key:
            os.write(parent, key)
        else:
            proc.send_signal(signal.SIGINT)
        assert terminal.read_until_prompt(time.monotonic() + DEAL_TIMEOUT) is None
        status = proc.wait(timeout=READ_TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(parent)
    assert status == 0
    assert said in terminal.text
    assert "Traceback" not in terminal.text


def test_the_log_of_a_session_left_early_is_written_and_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "table.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n2\nquit\n"))
    assert main(["play", "whist", "--seat", "2", "--seed", "1", "--bots", "random", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "You left the table in deal 1." in out
    assert "Stopped after" not in out
    assert main(["replay", str(log), "--partial"]) == 0
    assert "match in progress" in capsys.readouterr().out

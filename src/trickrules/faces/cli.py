"""The ``trickrules`` command line: rules, check, play, replay, simulate, and the conformance commands.

Only ``simulate`` draws with ``rich`` (a progress bar and tables), imported
when that command runs.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import secrets
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from trickrules import __version__
from trickrules.engine.events import MatchEnded
from trickrules.engine.game import Game, load
from trickrules.engine.state import State
from trickrules.errors import (
    ArgumentError,
    LogFormatError,
    LogIntegrityError,
    SpecError,
    TrickrulesError,
    printable,
)
from trickrules.faces.args import options_of
from trickrules.faces.bots import BOTS, make_bots
from trickrules.faces.guard import input_file, output_path, read_input, write_output
from trickrules.faces.match import play_match
from trickrules.faces.pool import WorkerLost
from trickrules.faces.render import describe_event, game_data, in_print_order, rules_text, seat_list
from trickrules.faces.stops import (
    CLOSED_STDOUT,
    Stdout,
    Stopped,
    exit_status,
    held_signals,
    pending_stop,
    released_signals,
    signal_name,
    silence,
    stop_signals,
)
from trickrules.faces.table import Table
from trickrules.records.eventlog import EventLog
from trickrules.records.pbn import read_pbn, write_pbn
from trickrules.records.pbn_match import PbnStart, boards_of, stack_boards
from trickrules.records.replay import read_header, replay_file
from trickrules.spec.loader import bundled_names, bundled_path

__all__ = ["main"]


def _cmd_rules(args: argparse.Namespace) -> int:
    game = load(args.game, options_of(args.option))
    try:
        if args.json:
            print(json.dumps(game_data(game, args.trump), indent=1, ensure_ascii=False))
        else:
            print(rules_text(game, args.trump))
            if args.option:
                print(_changed_by(args.game, args.option, game, args.trump))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def _changed_by(name: str, given: list[str], game: Game, trump: str | None) -> str:
    """What ``--option`` changes: the clauses each choice declares, and the summary's lines that differ."""
    out = ["", f"What {', '.join(given)} changes from the defaults:"]
    for key, value in options_of(given).items():
        option = game.spec.options.get(key)
        clauses = option.changes.get(str(value), ()) if option is not None else ()
        if clauses:
            out.append(f"  {key}={value} changes the clauses {', '.join(clauses)}")
    before = rules_text(load(name), trump).splitlines()[1:]  # the title line holds the fingerprint
    after = rules_text(game, trump).splitlines()[1:]
    diff = difflib.unified_diff(before, after, lineterm="", n=0)
    lines = [f"  {line}" for line in diff if not line.startswith(("---", "+++", "@@"))]
    return "\n".join(out + (lines or ["  (nothing in this summary: the change is in a rule it does not show)"]))


def _count(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _cmd_check(args: argparse.Namespace) -> int:
    input_file(args.file)
    try:
        game = load(args.file)
    except SpecError as exc:  # a spec that fails the check: exit 1, the reason on stderr
        print(f"error: {exc}", file=sys.stderr)
        return 1
    spec = game.spec
    from trickrules.faces.conformance.runner import base_of

    base = base_of(args.file) if spec.variant else None
    kind = (f"overlay of {base!r}: " if base else "overlay: ") if spec.variant else ""
    counts = [
        _count(game.cards.size, "card"),
        _count(game.rules.players, "player"),
        _count(len(game.rules.contracts), "contract"),
        _count(len(spec.play.obligations), "obligation"),
        _count(len(spec.scoring.outcomes), "outcome"),
        _count(len(spec.options), "option"),
    ]
    print(f"ok: {kind}{spec.name!r} ({game.title}) - {', '.join(counts)}; fingerprint {game.fingerprint}")
    return 0


class _Printer:
    """What ``play`` prints after each step (every event described, or only the match's end), and the last state.

    The last state is kept so that the log of the moves made so far is
    written whatever stops the match.
    """

    def __init__(self, out: Stdout, every: bool) -> None:
        self.out = out
        self.every = every
        self.state: State | None = None

    def __call__(self, state: State) -> None:
        self.state = state
        for event in in_print_order(state.last_events):
            if self.every or isinstance(event, MatchEnded):
                line = describe_event(event)
                if line is not None:
                    self.out.line(line)


def _key_of(path: str | None) -> bytes | None:
    """The signing key held in the file at ``path`` (its bytes, without a final line break)."""
    if path is None:
        return None
    key = read_input(path, "--key-file", limit=4096).rstrip(b"\r\n")
    if not 16 <= len(key) <= 4096:
        raise ArgumentError(f"--key-file: {path!r} must hold a key of 16 to 4096 bytes, found {len(key)}")
    return key


def _spec_file(game: str) -> str:
    """The file a game argument names: a bundled spec's, or the path given."""
    return str(bundled_path(game)) if game in bundled_names() else game


def _cmd_play(args: argparse.Namespace) -> int:
    if args.deals is not None and args.deals < 1:
        raise ArgumentError(f"--deals must be at least 1, found {args.deals}")
    if args.seed is not None and not 0 <= args.seed < 2**128:
        raise ArgumentError(f"--seed must be from 0 to 2**128 - 1, found {args.seed}")
    if args.key_file is not None:
        input_file(args.key_file, "--key-file")
    if args.deal_file is not None:
        input_file(args.deal_file, "--deal-file")
    inputs = [args.key_file, args.deal_file, _spec_file(args.game)]
    output_path(args.log, "--log", inputs=inputs, force=args.force)
    game = load(args.game, options_of(args.option))
    if args.seat is not None:
        game.seat(args.seat, "--seat")
    key = _key_of(args.key_file)
    start = _deal_file(game, args.deal_file)
    dealer, deals = (start.dealer, dict(enumerate(start.deals))) if start is not None else (0, None)
    if start is not None and args.deals is None:  # the file's boards, and no deal beyond them
        args.deals = len(start.deals)
    # No seed given: a secret one, printed so that the match can be played again.
    seed = args.seed if args.seed is not None else secrets.randbits(128)
    try:
        players = make_bots(game, args.bots, seed)
    except ValueError as exc:
        raise ArgumentError(f"--bots: {exc}") from None
    out = Stdout()
    out.line(f"{game.title}: seed {seed}, {args.bots} bots")
    table = (
        Table(game, args.seat, seed, players, max_deals=args.deals, dealer=dealer, deals=deals)
        if args.seat is not None
        else None
    )
    printer = _Printer(out, not args.quiet)
    # Whatever ends the match (its end, Ctrl-C, a hang-up, a closed stdout, a terminal gone), the log of
    # the moves made is written: a stop that comes while it is written waits until it is.
    stop: KeyboardInterrupt | None = None
    gone: OSError | None = None
    with held_signals():
        try:
            with released_signals():
                try:
                    if table is not None:  # a person at the table (faces/table.py prints the match's end itself)
                        table.run()
                        if isinstance(table.stopped, Stopped):  # Ctrl-C at the seat is leaving the table, as quit
                            stop = table.stopped
                    else:
                        play_match(
                            game, players, seed, max_deals=args.deals, on_step=printer, dealer=dealer, deals=deals
                        )
                except OSError as exc:  # stdout closed, or the terminal gone: the match ends where it is
                    out.lost()
                    gone = exc
        except KeyboardInterrupt as exc:
            stop = exc
        final = table.state if table is not None else printer.state
        if table is None and stop is None and final is not None and not final.is_terminal:
            scores = ", ".join(f"seat {s} {x}" for s, x in final.scoreboard.items())
            out.line(f"\nStopped after {args.deals} deal(s). Scores: {scores}")
        written = _write_log(final, args.log, key)
        stop = stop or pending_stop()
    if stop is not None:
        saved = f"; the log so far ({_count(written, 'event')}) is in {args.log}" if written is not None else ""
        _say_stop(f"play: stopped by {signal_name(stop)}{saved}")
        return exit_status(stop)
    if gone is not None and not isinstance(gone, BrokenPipeError):
        saved = f"; the log so far ({_count(written, 'event')}) is in {args.log}" if written is not None else ""
        _say_stop(f"play: the terminal is gone ({gone.strerror}){saved}")
        return 1
    if written is not None:
        out.line(f"Log written to {args.log} ({written} events).")
    return CLOSED_STDOUT if out.closed else 0


def _deal_file(game: Game, path: str | None) -> PbnStart | None:
    """The match start the PBN file at ``path`` gives (``--deal-file``); ``None`` without one."""
    if path is None:
        return None
    data = read_input(path, "--deal-file", limit=MAX_PBN_BYTES, error=LogFormatError)
    where = f"--deal-file: {path!r}"
    if len(data) > MAX_PBN_BYTES:
        raise LogFormatError(f"{where}: more than {MAX_PBN_BYTES} bytes")
    try:
        boards = read_pbn(data.decode("utf-8"))
        return stack_boards(game, boards)
    except UnicodeDecodeError as exc:
        raise LogFormatError(f"{where}: not UTF-8 text (byte {exc.start})") from None
    except (LogFormatError, ArgumentError) as exc:
        raise type(exc)(f"{where}: {exc}") from None


#: The largest PBN file ``--deal-file`` reads.
MAX_PBN_BYTES = 16 * 1024 * 1024


def _write_log(final: State | None, path: str | None, key: bytes | None) -> int | None:
    """Write the log of ``final`` to ``path`` (signed with ``key``); how many events it holds (``None``: none)."""
    if path is None or final is None:
        return None
    log = EventLog.from_state(final)
    if key is not None:
        log = log.sign(key)
    write_output(path, log.to_json(), "--log")
    return len(log.entries)


def _say_stop(text: str) -> None:
    """One line on stderr, if stderr is still there (after a hang-up the terminal may be gone)."""
    try:
        print(text, file=sys.stderr)
    except OSError:
        silence(sys.stderr)


def _cmd_replay(args: argparse.Namespace) -> int:
    input_file(args.file)
    for given, flag in ((args.spec, "--spec"), (args.key_file, "--key-file")):
        if given is not None:
            input_file(given, flag)
    if args.seat is not None and not args.html:
        raise ArgumentError("--seat says whose view the page shows: give --html OUT too")
    key = _key_of(args.key_file)
    beside = _spec_beside(args.file) if args.spec is None else None
    output_path(args.html, "--html", inputs=[args.file, args.spec, args.key_file, beside])
    output_path(args.pbn, "--pbn", inputs=[args.file, args.spec, args.key_file, beside, args.html], force=args.force)
    game = _spec_game(args.file, args.spec if beside is None else beside)
    try:
        state = replay_file(args.file, game, partial=args.partial, key=key)
    except (LogFormatError, LogIntegrityError) as exc:  # a log that fails verification: exit 1
        hints = []
        if isinstance(exc, LogIntegrityError) and exc.incomplete:
            hints.append("add --partial to replay a match still in progress")
        if beside is not None:
            hints.append(f"replayed with the spec {beside!r} found beside the log")
        hint = f" ({'; '.join(hints)})" if hints else ""
        print(f"error: {printable(args.file)}: {exc}{hint}", file=sys.stderr)
        return 1
    if args.seat is not None:
        state.game.seat(args.seat, "--seat")
    if beside is not None:
        print(f"Spec: {beside!r}, the header's spec file, found beside the log.")
    signed = ", signature checked" if key is not None else ""
    print(
        f"{printable(args.file)}: ok, {len(state.entries())} events replayed{signed}; {state.game.name}, "
        f"{'match over' if state.is_terminal else 'match in progress'}."
    )
    for seat, score in state.scoreboard.items():
        print(f"  seat {seat}: {score}")
    if state.winners:
        print(f"  winners: {seat_list(state.winners)}")
    if args.html:
        from trickrules.faces.html import write_page

        print(f"Page written to {args.html} ({write_page(state, args.html, seat=args.seat)} frames).")
    if args.pbn:
        boards = boards_of(state)
        write_output(args.pbn, write_pbn(boards), "--pbn")
        print(f"PBN written to {args.pbn} ({_count(len(boards), 'board')}).")
    return 0


def _spec_beside(log: str) -> str | None:
    """The spec file the log's header names, if it is a regular file in the log's folder; else ``None``.

    Only a plain file name is looked for (no folder, no ``..``), and only a
    regular file that is no link, so a header cannot make ``replay`` read a
    file elsewhere. A bundled game's log names no file. A log whose header
    cannot be read has none either (``replay_file`` then says what is wrong).
    """
    try:
        name = read_header(log).spec
    except TrickrulesError:
        return None
    if not name or name in (".", "..") or os.path.basename(name) != name or "\\" in name or "\0" in name:
        return None
    candidate = Path(log).parent / name
    try:
        mode = candidate.lstat().st_mode
    except (OSError, ValueError):
        return None
    return str(candidate) if stat.S_ISREG(mode) else None


def _spec_game(log: str, spec: str | None) -> Game | None:
    """The game of ``spec`` (``--spec``, or the spec found beside the log), with the header's options.

    ``None`` without a spec: the header's bundled game is replayed.
    """
    if spec is None:
        return None
    header = read_header(log)
    try:
        return load(spec, dict(header.options))
    except SpecError as exc:
        raise LogIntegrityError(f"header: its options do not fit {spec}: {exc}") from None


class _Parser(argparse.ArgumentParser):
    """An argument parser whose refusals are one line on stderr (no usage block) and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="trickrules", description="Trick-taking card games, played by their rules.")
    parser.add_argument("--version", action="version", version=f"trickrules {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    games = ", ".join(bundled_names())

    p = sub.add_parser("rules", help="print a game's deck, rank orders and rules summary")
    p.add_argument("game", help=f"a bundled game ({games}) or a spec file")
    p.add_argument("--trump", help="show the orders for this trump suit (or 'none')")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.set_defaults(func=_cmd_rules)

    p = sub.add_parser("check", help="validate a spec or overlay file")
    p.add_argument("file")
    p.set_defaults(func=_cmd_check)

    p = sub.add_parser("play", help="play a match with bots and print it")
    p.add_argument("game", help=f"a bundled game ({games}) or a spec file")
    p.add_argument("--seed", type=int, default=None, help="the match seed (default: a secret 128-bit one, printed)")
    p.add_argument("--deals", type=int, default=None, help="stop after this many deals")
    p.add_argument(
        "--bots",
        default="heuristic",
        help=f"one of {', '.join(BOTS)} for every seat, or one per seat separated by commas (ismcts,heuristic,...)",
    )
    p.add_argument("--log", help="write the event log (JSON Lines) to this file")
    p.add_argument("--force", action="store_true", help="replace the file --log names if it exists")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--quiet", action="store_true", help="print only the summary")
    p.add_argument("--key-file", help="sign the log written with --log with the key in this file")
    p.add_argument("--seat", type=int, default=None, help="take this seat yourself; bots play the others")
    p.add_argument(
        "--deal-file",
        metavar="PBN",
        help="deal the boards of this PBN file in order, one per deal (and stop after them unless --deals says more)",
    )
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser("replay", help="verify an event log and print the final standings")
    p.add_argument("file")
    p.add_argument(
        "--spec",
        help="the spec file the match was played from (a log of a game that is not bundled; "
        "by default the file the log's header names, if it is beside the log)",
    )
    p.add_argument("--partial", action="store_true", help="accept a log of a match still in progress")
    p.add_argument("--key-file", help="refuse the log unless it is signed with the key in this file")
    p.add_argument("--html", metavar="OUT", help="write a self-contained page stepping through the match to OUT")
    p.add_argument("--seat", type=int, default=None, help="the page shows only what this seat saw (with --html)")
    p.add_argument("--pbn", metavar="OUT", help="write the match's deals and play as PBN boards to OUT")
    p.add_argument("--force", action="store_true", help="replace the file --pbn names if it exists")
    p.set_defaults(func=_cmd_replay)

    from trickrules.faces.conformance.cli import add_commands
    from trickrules.faces.simulate_cli import add_command

    add_command(sub, games)
    add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = _parser().parse_args(argv)
    with stop_signals():
        try:
            status: int = args.func(args)
        except WorkerLost as exc:  # not bad input: the run failed
            print(f"error: {exc}", file=sys.stderr)
            return 1
        except TrickrulesError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        except BrokenPipeError:  # stdout closed (``| head``): nothing more to print
            silence(sys.stdout)
            return CLOSED_STDOUT
        except KeyboardInterrupt as exc:  # Ctrl-C, a hang-up, SIGTERM: one line, no traceback
            _say_stop(f"{args.command}: stopped by {signal_name(exc)}")
            return exit_status(exc)
    return status


if __name__ == "__main__":
    sys.exit(main())

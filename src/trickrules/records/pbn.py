r"""Portable Bridge Notation (PBN 2.1): boards as frozen records, read from and written to text.

A PBN file is a list of boards, each a run of tag pairs (``[Deal "N:..."]``)
and the sections that follow the ``Auction`` and ``Play`` tags. This module
knows the text and the eight tags of a played board (``Deal``, ``Dealer``,
``Vulnerable``, ``Auction``, ``Play``, ``Contract``, ``Declarer``,
``Result``); every other tag is kept as it was read, in order. It knows no
game: :mod:`trickrules.records.pbn_match` maps a game's cards onto PBN's,
stacks a board's deal into a match and exports a played match.

Seats are numbers: N, E, S, W are 0, 1, 2, 3. A card is two characters, the
suit (``S H D C``) then the rank (``A K Q J T 9 .. 2``): ``"SA"``, ``"HT"``.
A hand is a tuple of cards in PBN's order (suits S, H, D, C, each high to
low); an unknown hand (``-``) is ``None``.

>>> board = read_pbn('[Dealer "N"]\n[Deal "N:AKQJT98765432... - - -"]\n')[0]
>>> board.dealer, board.deal[0][:3], board.deal[1]
(0, ('SA', 'SK', 'SQ'), None)
>>> print(write_pbn([board]), end="")
[Dealer "N"]
[Deal "N:AKQJT98765432... - - -"]

Reading is strict where the eight tags are concerned: a hand of the wrong
size, a card twice, a call or a seat that is not one, a card its seat never
held, a quote not closed, each is a :class:`~trickrules.errors.LogFormatError`
whose message starts with the line it is on.
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import NoReturn

from attrs import field, frozen

from trickrules.errors import ArgumentError, LogFormatError, shown

__all__ = [
    "CALLS",
    "RANKS",
    "SEATS",
    "SUITS",
    "Auction",
    "Board",
    "Play",
    "Tag",
    "Vulnerable",
    "read_pbn",
    "write_pbn",
]

#: The seats in PBN's letters, by trickrules seat number (N, E, S, W are 0, 1, 2, 3).
SEATS = "NESW"
#: PBN's suits, in the order of a ``Deal`` hand.
SUITS = "SHDC"
#: PBN's ranks, high to low.
RANKS = "AKQJT98765432"
#: The cards a hand holds in a deal of four hands from 52 cards.
HAND_SIZE = 13
#: The strains of a bid, low to high.
STRAINS = ("C", "D", "H", "S", "NT")
#: Every call of an auction, in canonical form: the 35 bids, then pass, double and redouble.
CALLS = (*(f"{level}{strain}" for level in range(1, 8) for strain in STRAINS), "Pass", "X", "XX")
#: The tags this module reads into a :class:`Board`'s own fields, in the order they are written.
KNOWN_TAGS = ("Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Result", "Auction", "Play")

_CARD_ORDER = {f"{s}{r}": i for i, (s, r) in enumerate((s, r) for s in SUITS for r in RANKS)}
_CALL_OF = {c.upper(): c for c in CALLS} | {"P": "Pass", "D": "X", "R": "XX"}
_CONTRACT = re.compile(r"([1-7])(C|D|H|S|NT)(X|XX)?")
_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")
_TAG_PAIR = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]+"((?:[^"\\]|\\.)*)"[ \t]*\]')


class Vulnerable(enum.StrEnum):
    """Who is vulnerable: nobody, North-South, East-West, or all (``Love``, ``Both`` read as ``None``, ``All``)."""

    NONE = "None"
    NS = "NS"
    EW = "EW"
    ALL = "All"


_VULNERABLE = {v.value.upper(): v for v in Vulnerable} | {
    "LOVE": Vulnerable.NONE,
    "BOTH": Vulnerable.ALL,
    "-": Vulnerable.NONE,
}


@frozen
class Tag:
    """A tag pair this module does not read into a field (``Event``, ``Board``, ``North``, ...), kept as read."""

    name: str
    value: str


@frozen
class Auction:
    """The ``Auction`` tag and section: the seat of the first call, and the calls in order (``"1NT"``, ``"X"``)."""

    first: int
    calls: tuple[str, ...]


@frozen
class Play:
    """The ``Play`` tag and section: the opening leader, and per trick the cards of the seats in order from him.

    Each trick lists four entries: the leader's card, then the next seat's
    clockwise, and so on, whoever led that trick; ``None`` is a card not
    played (``-``).
    """

    leader: int
    tricks: tuple[tuple[str | None, ...], ...]

    def card_of(self, trick: int, seat: int) -> str | None:
        """The card ``seat`` played to trick ``trick`` (from 0), or ``None``."""
        return self.tricks[trick][(seat - self.leader) % len(SEATS)]


Hand = tuple[str, ...]
_Fail = Callable[[str], NoReturn]


@frozen
class Board:
    """One board of a PBN file: its deal and, where known, how it was bid and played.

    ``deal`` holds a hand per seat (N, E, S, W), ``None`` for one not known;
    ``deal_first`` is the seat the ``Deal`` tag starts with. ``result`` is
    the number of tricks the declarer's side took. ``tags`` are the other
    tag pairs, in the order read. ``line`` is the line the board starts on
    in the text it was read from (0 when built), not compared.
    """

    deal: tuple[Hand | None, ...] | None = None
    deal_first: int = 0
    dealer: int | None = None
    vulnerable: Vulnerable | None = None
    auction: Auction | None = None
    play: Play | None = None
    contract: str | None = None
    declarer: int | None = None
    result: int | None = None
    tags: tuple[Tag, ...] = ()
    line: int = field(default=0, eq=False)


_EMPTY = Board()

# -- writing ---------------------------------------------------------------------------------------


def _escaped(value: str) -> str:
    """A tag value as written between quotes: backslash and quote escaped, a leading ``#`` doubled (``#`` inherits)."""
    value = value.replace("\\", "\\\\").replace('"', '\\"')
    return "#" + value if value.startswith("#") else value


def hand_text(hand: Hand | None) -> str:
    """A hand in ``Deal`` notation (``AKQ.JT9.876.5432``), or ``-`` for an unknown one."""
    if hand is None:
        return "-"
    return ".".join("".join(c[1] for c in hand if c[0] == suit) for suit in SUITS)


def deal_text(deal: Sequence[Hand | None], first: int = 0) -> str:
    """The value of a ``Deal`` tag: the first seat's letter, a colon, then the hands clockwise from it."""
    return f"{SEATS[first]}:" + " ".join(hand_text(deal[(first + k) % 4]) for k in range(4))


def board_lines(board: Board) -> list[str]:
    """The lines of one board in canonical form: the other tags, then the eight in :data:`KNOWN_TAGS`' order."""
    check_board(board, ArgumentError)
    lines = [f'[{t.name} "{_escaped(t.value)}"]' for t in board.tags]
    if board.dealer is not None:
        lines.append(f'[Dealer "{SEATS[board.dealer]}"]')
    if board.vulnerable is not None:
        lines.append(f'[Vulnerable "{board.vulnerable.value}"]')
    if board.deal is not None:
        lines.append(f'[Deal "{deal_text(board.deal, board.deal_first)}"]')
    if board.declarer is not None:
        lines.append(f'[Declarer "{SEATS[board.declarer]}"]')
    if board.contract is not None:
        lines.append(f'[Contract "{board.contract}"]')
    if board.result is not None:
        lines.append(f'[Result "{board.result}"]')
    if board.auction is not None:
        lines.append(f'[Auction "{SEATS[board.auction.first]}"]')
        calls = board.auction.calls
        lines.extend(" ".join(calls[k : k + 4]) for k in range(0, len(calls), 4))
    if board.play is not None:
        lines.append(f'[Play "{SEATS[board.play.leader]}"]')
        lines.extend(" ".join(c or "-" for c in trick) for trick in board.play.tricks)
    return lines


def write_pbn(boards: Iterable[Board]) -> str:
    """The PBN text of ``boards`` in canonical form, each board's lines followed by an empty line.

    :class:`~trickrules.errors.ArgumentError` if a board holds a value PBN
    cannot say (a hand of the wrong size, a card twice, a call that is none).
    """
    return "".join("\n".join(board_lines(b)) + "\n\n" for b in boards).removesuffix("\n")


# -- checking --------------------------------------------------------------------------------------


def check_board(board: Board, error: type[ArgumentError] | type[LogFormatError], where: str = "") -> None:
    """Raise ``error`` (its message starting with ``where``) if ``board`` holds a value PBN cannot say."""

    def fail(text: str) -> NoReturn:
        raise error(f"{where}{text}")

    if board == _EMPTY:
        fail("the board is empty: a board says something (a tag pair at least)")
    names = [t.name for t in board.tags if isinstance(t, Tag)]
    if len(set(names)) != len(names):
        twice = ", ".join(sorted(n for n, k in Counter(names).items() if k > 1))
        fail(f"a tag is given twice ({twice}); a board has each once")
    for t in board.tags:
        if not isinstance(t, Tag) or not _TAG_NAME.fullmatch(t.name) or t.name in KNOWN_TAGS:
            fail(f"{shown(t)} is not a tag pair of its own (a name of letters, digits and '_', none of {KNOWN_TAGS})")
        if "\n" in t.value or "\r" in t.value:
            fail(f"the {t.name} tag's value holds a line break")
    for name, seat in (("Dealer", board.dealer), ("Declarer", board.declarer), ("Deal", board.deal_first)):
        if seat is not None and (type(seat) is not int or not 0 <= seat < 4):
            fail(f"{name}: {shown(seat)} is not a seat (0 to 3)")
    if board.vulnerable is not None and not isinstance(board.vulnerable, Vulnerable):
        fail(f"Vulnerable: {shown(board.vulnerable)} is not one of None, NS, EW, All")
    if board.deal is not None:
        _check_deal(board.deal, fail)
    if board.contract is not None and not (board.contract == "Pass" or _CONTRACT.fullmatch(board.contract)):
        fail(f"Contract: {shown(board.contract)} is not a contract (such as 4HX, 3NT or Pass)")
    if board.result is not None and (type(board.result) is not int or not 0 <= board.result <= HAND_SIZE):
        fail(f"Result: {shown(board.result)} is not a number of tricks (0 to {HAND_SIZE})")
    if board.auction is not None:
        a = board.auction
        if type(a.first) is not int or not 0 <= a.first < 4:
            fail(f"Auction: {shown(a.first)} is not a seat (0 to 3)")
        for call in a.calls:
            if call not in CALLS:
                fail(f"Auction: {shown(call)} is not a call (Pass, X, XX, or a bid from 1C to 7NT)")
    if board.play is not None:
        _check_play(board.play, board.deal, fail)


def _check_deal(deal: tuple[Hand | None, ...], fail: _Fail) -> None:
    if not isinstance(deal, tuple) or len(deal) != 4:
        fail(f"Deal: {shown(deal)} does not give four hands")
    seen: dict[str, int] = {}
    for seat, hand in enumerate(deal):
        if hand is None:
            continue
        if not isinstance(hand, tuple) or any(c not in _CARD_ORDER for c in hand):
            fail(f"Deal: the hand of {SEATS[seat]} ({shown(hand)}) is not a tuple of cards such as 'SA' or 'HT'")
        if len(hand) != HAND_SIZE:
            fail(f"Deal: the hand of {SEATS[seat]} has {len(hand)} cards ({hand_text(hand)}); a hand holds {HAND_SIZE}")
        for card in hand:
            if card in seen:
                also = "twice in it" if seen[card] == seat else f"also in the hand of {SEATS[seen[card]]}"
                fail(f"Deal: {card} is in the hand of {SEATS[seat]} and {also}")
            seen[card] = seat
        if list(hand) != sorted(hand, key=_CARD_ORDER.__getitem__):
            fail(f"Deal: the hand of {SEATS[seat]} is not in PBN's order (suits S, H, D, C, each high to low)")


def _check_play(play: Play, deal: tuple[Hand | None, ...] | None, fail: _Fail) -> None:
    if type(play.leader) is not int or not 0 <= play.leader < 4:
        fail(f"Play: {shown(play.leader)} is not a seat (0 to 3)")
    played: dict[str, int] = {}
    for number, trick in enumerate(play.tricks, 1):
        if not isinstance(trick, tuple) or len(trick) != 4:
            fail(f"Play: trick {number} ({shown(trick)}) does not give a card or '-' for each of four seats")
        for k, card in enumerate(trick):
            if card is None:
                continue
            seat = (play.leader + k) % 4
            if card not in _CARD_ORDER:
                fail(f"Play: trick {number}: {shown(card)} is not a card (such as SA or HT)")
            if card in played:
                fail(f"Play: trick {number}: {card} was already played in trick {played[card]}")
            played[card] = number
            hand = deal[seat] if deal is not None else None
            if hand is not None and card not in hand:
                fail(f"Play: trick {number}: {SEATS[seat]} plays {card}, a card the Deal does not give {SEATS[seat]}")
    if len(play.tricks) > HAND_SIZE:
        fail(f"Play: {len(play.tricks)} tricks; a deal has at most {HAND_SIZE}")


# -- reading ---------------------------------------------------------------------------------------


@frozen
class _Token:
    line: int
    text: str


@frozen
class _RawBoard:
    line: int
    #: Each tag pair: name, value, line; and the tokens of the section after it.
    tags: tuple[tuple[str, str, int, tuple[_Token, ...]], ...]


def _raw_boards(text: str) -> list[_RawBoard]:
    """The text cut into boards of tag pairs with their sections; comments and escape lines dropped."""
    boards: list[_RawBoard] = []
    tags: list[tuple[str, str, int, list[_Token]]] = []
    start = 0
    comment_from = 0  # the line a brace comment opened on, while inside one

    def close() -> None:
        nonlocal tags
        if tags:
            boards.append(_RawBoard(start, tuple((n, v, ln, tuple(s)) for n, v, ln, s in tags)))
        tags = []

    # Lines end at a line feed alone (with a carriage return before it dropped): ``splitlines`` would also
    # cut at a form feed or a line separator, which a tag value may hold.
    for number, line in enumerate((ln.removesuffix("\r") for ln in text.split("\n")), 1):
        where = f"line {number}: "
        if not comment_from and line.startswith("%"):
            continue  # an escape line (``% PBN 2.1``, ``% EXPORT``)
        if not comment_from and not line.strip():
            close()
            continue
        i = 0
        while i < len(line):
            ch = line[i]
            if comment_from:
                end = line.find("}", i)
                if end < 0:
                    break
                comment_from, i = 0, end + 1
            elif ch in " \t":
                i += 1
            elif ch == ";":
                break
            elif ch == "{":
                comment_from, i = number, i + 1
            elif ch == "[":
                m = _TAG_PAIR.match(line, i)
                if m is None:
                    _bad_tag(line[i:], where)
                assert m is not None
                if not tags:
                    start = number
                tags.append((m.group(1), _unescaped(m.group(2)), number, []))
                i = m.end()
            else:
                end = i
                while end < len(line) and line[end] not in " \t;{[":
                    end += 1
                if not tags:
                    raise LogFormatError(f"{where}{shown(line[i:end])} comes before any tag pair")
                tags[-1][3].append(_Token(number, line[i:end]))
                i = end
    if comment_from:
        raise LogFormatError(f"line {comment_from}: the comment opened here with '{{' is never closed with '}}'")
    close()
    return boards


def _bad_tag(rest: str, where: str) -> None:
    """Say what is wrong with a tag pair the pattern refused."""
    m = re.match(r'\[[ \t]*([A-Za-z0-9_]*)[ \t]*(")?', rest)
    assert m is not None
    if not m.group(1):
        raise LogFormatError(f"{where}a tag pair must start with a tag name after '[': {shown(rest)}")
    if not m.group(2):
        raise LogFormatError(f'{where}the tag {m.group(1)} has no quoted value (as in [{m.group(1)} "value"])')
    body = rest[m.end() :]
    if not re.match(r'(?:[^"\\]|\\.)*"', body):
        raise LogFormatError(f"{where}the value of the tag {m.group(1)} has no closing quote: {shown(rest)}")
    raise LogFormatError(f"{where}the tag pair of {m.group(1)} does not end with ']': {shown(rest)}")


def _unescaped(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def read_pbn(text: str) -> list[Board]:
    """The boards of a PBN file's text, in order.

    Comments (``{...}``, across lines too, and ``;`` to the end of a line)
    and escape lines (``%`` first) are skipped; boards are separated by
    empty lines. In a board, a tag given twice keeps its first value (as
    the standard has it); a board whose tags all have unknown values (``""``
    or ``?``) is left out. A value ``#`` is the value the same tag had in the
    board before; a value starting with ``##`` is that value with the
    leading ``#`` dropped. :class:`~trickrules.errors.LogFormatError`, naming
    the line, on anything that is not PBN.
    """
    if not isinstance(text, str):
        raise LogFormatError(f"PBN must be text, found {type(text).__name__}")
    boards = []
    previous: dict[str, str] = {}
    for raw in _raw_boards(text):
        values: dict[str, tuple[str, int, tuple[_Token, ...]]] = {}
        others: list[Tag] = []
        seen: set[str] = set()
        for name, value, line, section in raw.tags:
            if value == "#":
                if name not in previous:
                    raise LogFormatError(
                        f"line {line}: {name} is '#' (the board before's value), but no board before has one"
                    )
                value = previous[name]
            elif value.startswith("##"):
                value = value[1:]
            if name in seen:
                continue  # a tag given again in the same board is ignored
            seen.add(name)
            if section and name in KNOWN_TAGS and name not in ("Auction", "Play"):
                bad = section[0]
                raise LogFormatError(f"line {bad.line}: {shown(bad.text)} follows the {name} tag, which has no section")
            if name in KNOWN_TAGS:
                values[name] = (value, line, section)
            else:
                others.append(Tag(name, value))
        for name, (value, _, _) in values.items():
            previous[name] = value
        for t in others:
            previous[t.name] = t.value
        board = _board(values, tuple(others), raw.line)
        if board != _EMPTY:  # only tags of unknown value ("?", ""): nothing to say
            boards.append(board)
    return boards


def _seat(value: str, name: str, line: int) -> int:
    seat = SEATS.find(value.strip().upper()) if len(value.strip()) == 1 else -1
    if seat < 0:
        raise LogFormatError(f"line {line}: {name}: {shown(value)} is not a seat (N, E, S or W)")
    return seat


def _board(values: dict[str, tuple[str, int, tuple[_Token, ...]]], tags: tuple[Tag, ...], start: int) -> Board:
    def get(name: str) -> tuple[str, int, tuple[_Token, ...]] | None:
        found = values.get(name)
        return found if found is not None and found[0].strip() not in ("", "?") else None

    dealer = declarer = result = None
    vulnerable = None
    deal, first = None, 0
    if (v := get("Dealer")) is not None:
        dealer = _seat(v[0], "Dealer", v[1])
    if (v := get("Declarer")) is not None:
        declarer = _seat(v[0], "Declarer", v[1])
    if (v := get("Vulnerable")) is not None:
        vulnerable = _VULNERABLE.get(v[0].strip().upper())
        if vulnerable is None:
            raise LogFormatError(
                f"line {v[1]}: Vulnerable: {shown(v[0])} is not one of None, NS, EW, All (or Love, Both)"
            )
    if (v := get("Result")) is not None:
        if not re.fullmatch(r"[0-9]{1,2}", v[0].strip()) or int(v[0]) > HAND_SIZE:
            raise LogFormatError(f"line {v[1]}: Result: {shown(v[0])} is not a number of tricks (0 to {HAND_SIZE})")
        result = int(v[0])
    contract = None
    if (v := get("Contract")) is not None:
        contract = v[0].strip().upper()
        contract = "Pass" if contract == "PASS" else contract
        if not (contract == "Pass" or _CONTRACT.fullmatch(contract)):
            raise LogFormatError(f"line {v[1]}: Contract: {shown(v[0])} is not a contract (such as 4HX, 3NT or Pass)")
    if (v := get("Deal")) is not None:
        deal, first = _deal(v[0], v[1])
    auction = _auction(get("Auction"))
    play = _play(get("Play"), deal)
    board = Board(deal, first, dealer, vulnerable, auction, play, contract, declarer, result, tags, line=start)
    if board == _EMPTY:
        return board
    check_board(board, LogFormatError, f"line {start}: ")  # what the parts above leave: a tag pair of its own
    return board


def _deal(value: str, line: int) -> tuple[tuple[Hand | None, ...], int]:
    where = f"line {line}: Deal: "
    head, colon, rest = value.strip().partition(":")
    if not colon:
        raise LogFormatError(
            f"{where}{shown(value)} does not start with a seat and a colon (as in 'N:AKQ.JT9.876.5432 ...')"
        )
    first = _seat(head, "Deal", line)
    words = rest.split()
    if len(words) != 4:
        raise LogFormatError(f"{where}{len(words)} hands where four are given (clockwise from {SEATS[first]})")
    hands: list[Hand | None] = [None] * 4
    seen: dict[str, int] = {}
    for k, word in enumerate(words):
        seat = (first + k) % 4
        if word == "-":
            continue
        suits = word.split(".")
        if len(suits) != 4:
            raise LogFormatError(
                f"{where}the hand of {SEATS[seat]} ({shown(word)}) does not give four suits separated by '.'"
            )
        cards = []
        for suit, ranks in zip(SUITS, suits, strict=True):
            for rank in ranks.upper():
                card = suit + rank
                if card not in _CARD_ORDER:
                    raise LogFormatError(f"{where}{shown(rank)} in the hand of {SEATS[seat]} is not a rank ({RANKS})")
                if card in seen:
                    other = SEATS[seen[card]]
                    raise LogFormatError(
                        f"{where}{card} is in the hand of {SEATS[seat]} and "
                        + ("twice in it" if seen[card] == seat else f"also in the hand of {other}")
                    )
                seen[card] = seat
                cards.append(card)
        if len(cards) != HAND_SIZE:
            raise LogFormatError(
                f"{where}the hand of {SEATS[seat]} ({word}) has {len(cards)} cards; a hand holds {HAND_SIZE}"
            )
        hands[seat] = tuple(sorted(cards, key=_CARD_ORDER.__getitem__))
    return tuple(hands), first


def _auction(found: tuple[str, int, tuple[_Token, ...]] | None) -> Auction | None:
    if found is None:
        return None
    value, line, section = found
    first = _seat(value, "Auction", line)
    calls: list[str] = []
    for token in section:
        word = token.text
        if word == "*" or re.fullmatch(r"=\d+=|\$\d+", word):
            continue  # the game's end marker, a note reference, an annotation glyph
        if word.upper() == "AP":  # all pass: the passes that end the auction
            passed_out = all(c == "Pass" for c in calls)
            calls.extend(["Pass"] * (max(4 - len(calls), 0) if passed_out else 3))
            continue
        call = _CALL_OF.get(word.rstrip("!?").upper())
        if call is None:
            raise LogFormatError(
                f"line {token.line}: Auction: {shown(word)} is not a call (Pass, X, XX, or a bid from 1C to 7NT)"
            )
        calls.append(call)
    return Auction(first, tuple(calls))


def _play(found: tuple[str, int, tuple[_Token, ...]] | None, deal: tuple[Hand | None, ...] | None) -> Play | None:
    if found is None:
        return None
    value, line, section = found
    leader = _seat(value, "Play", line)
    tricks: list[tuple[str | None, ...]] = []
    current: list[str | None] = []
    played: dict[str, int] = {}
    for token in section:
        word = token.text
        if word == "*" or re.fullmatch(r"=\d+=|\$\d+", word):
            continue
        card: str | None = None
        if word != "-":
            card = word.rstrip("!?").upper()
            if card not in _CARD_ORDER:
                raise LogFormatError(f"line {token.line}: Play: {shown(word)} is not a card (such as SA or HT) or '-'")
        number = len(tricks) + 1
        seat = (leader + len(current)) % 4
        if card is not None:
            if card in played:
                raise LogFormatError(
                    f"line {token.line}: Play: trick {number}: {card} was already played in trick {played[card]}"
                )
            hand = deal[seat] if deal is not None else None
            if hand is not None and card not in hand:
                raise LogFormatError(
                    f"line {token.line}: Play: trick {number}: {SEATS[seat]} plays {card}, "
                    f"a card the Deal does not give {SEATS[seat]}"
                )
            played[card] = number
        current.append(card)
        if len(current) == 4:
            tricks.append(tuple(current))
            current = []
    if current:
        last = section[-1].line
        raise LogFormatError(
            f"line {last}: Play: trick {len(tricks) + 1} gives {len(current)} of four cards "
            "(write '-' for a card not played)"
        )
    if len(tricks) > HAND_SIZE:
        raise LogFormatError(f"line {line}: Play: {len(tricks)} tricks; a deal has at most {HAND_SIZE}")
    return Play(leader, tuple(tricks))

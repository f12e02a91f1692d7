"""PBN 2.1 in ``trickrules.records``: boards read and written exactly, stacked into matches, exported from them.

The games are the bundled ones of four hands from 52 cards (Whist, Spades,
Hearts); nothing here knows Bridge. ``tests/fixtures/boards.pbn`` is a small
file written by hand.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trickrules
from strategies import scaled
from trickrules.engine.events import CardPlayed, Dealt, TrickWon
from trickrules.errors import ArgumentError, LogFormatError
from trickrules.faces.bots import make_bots
from trickrules.faces.cli import main
from trickrules.faces.match import play_match
from trickrules.records.pbn import (
    CALLS,
    KNOWN_TAGS,
    RANKS,
    SUITS,
    Auction,
    Board,
    Play,
    Tag,
    Vulnerable,
    read_pbn,
    write_pbn,
)
from trickrules.records.pbn_match import boards_of, calls_of, contract_of, pbn_cards, stack_boards

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "boards.pbn"
DECK = tuple(s + r for s in SUITS for r in RANKS)
ORDER = {c: i for i, c in enumerate(DECK)}

# -- strategies ------------------------------------------------------------------------------------

_tag_names = st.from_regex(r"[A-Za-z0-9_]{1,12}", fullmatch=True).filter(lambda n: n not in KNOWN_TAGS)
#: Tag values: any text without a line break (quotes, backslashes, '#', braces, ';' and '%' included).
_tag_values = st.text(st.characters(blacklist_characters="\n\r", blacklist_categories=["Cs"]), max_size=20)


@st.composite
def _boards(draw: st.DrawFn) -> Board:
    """A board of any shape PBN can say: each tag present or not, a deal with unknown hands, a play that fits it."""
    deal = None
    first = 0
    if draw(st.booleans()):
        cards = list(draw(st.permutations(DECK)))
        hands = [tuple(sorted(cards[13 * k : 13 * k + 13], key=ORDER.__getitem__)) for k in range(4)]
        known = draw(st.lists(st.booleans(), min_size=4, max_size=4))
        deal = tuple(h if k else None for h, k in zip(hands, known, strict=True))
        first = draw(st.integers(0, 3))
    play = None
    if draw(st.booleans()):
        leader = draw(st.integers(0, 3))
        left = [list(h) if h is not None else None for h in deal] if deal is not None else [None] * 4
        free = [c for c in DECK if deal is None or all(h is None or c not in h for h in deal)]
        tricks = []
        for _ in range(draw(st.integers(0, 13))):
            trick: list[str | None] = []
            for k in range(4):
                seat = (leader + k) % 4
                pool = left[seat] if left[seat] is not None else free
                if not pool or draw(st.integers(0, 9)) == 0:
                    trick.append(None)
                    continue
                card = draw(st.sampled_from(pool))
                pool.remove(card)
                trick.append(card)
            tricks.append(tuple(trick))
        play = Play(leader, tuple(tricks))
    seats = st.none() | st.integers(0, 3)
    names = draw(st.lists(_tag_names, max_size=4, unique=True))
    return Board(
        deal=deal,
        deal_first=first,
        dealer=draw(seats),
        vulnerable=draw(st.none() | st.sampled_from(Vulnerable)),
        auction=draw(st.none() | st.builds(Auction, st.integers(0, 3), st.lists(st.sampled_from(CALLS)).map(tuple))),
        play=play,
        contract=draw(st.none() | st.sampled_from([*(c for c in CALLS if c[0].isdigit()), "Pass", "4HX", "7NTXX"])),
        declarer=draw(seats),
        result=draw(st.none() | st.integers(0, 13)),
        tags=tuple(Tag(n, draw(_tag_values)) for n in names),
    )


def boards() -> st.SearchStrategy[Board]:
    """Boards that say something (an empty board is no board)."""
    return _boards().filter(lambda b: b != Board())


# -- round trips -----------------------------------------------------------------------------------


#: The round trips are cheap: many examples even in the fast profile.
EXAMPLES = scaled(100, 400)


@settings(max_examples=EXAMPLES)
@given(st.lists(boards(), max_size=4))
def test_board_to_text_to_board_is_exact(found: list[Board]) -> None:
    assert read_pbn(write_pbn(found)) == found


@settings(max_examples=EXAMPLES)
@given(st.lists(boards(), max_size=4))
def test_canonical_text_to_board_to_text_is_exact(found: list[Board]) -> None:
    text = write_pbn(found)
    assert write_pbn(read_pbn(text)) == text


_pbn_like = st.lists(
    st.sampled_from(['[Deal "', '[Play "', '[Auction "', '[Dealer "', '[X "', '"]', "]", '"', "\\", "{", "}", ";",
                     "%", "#", "##", "\n", "\n\n", " ", "N:", "-", ".", "AKQJT98765432", "SA", "HK", "Pass", "AP",
                     "N", "E", "*", "1NT", "\r", "\x0b", "é"]),
    max_size=40,
).map("".join)  # fmt: skip


@settings(max_examples=EXAMPLES)
@given(st.text(max_size=80) | _pbn_like)
def test_any_text_reads_as_boards_or_is_a_log_format_error_naming_a_line(text: str) -> None:
    try:
        found = read_pbn(text)
    except LogFormatError as exc:
        message = str(exc)
    else:
        assert read_pbn(write_pbn(found)) == found
        return
    assert re.match(r"line \d+: ", message), message


def test_a_value_that_starts_with_a_hash_is_written_so_that_it_is_not_inherited() -> None:
    first = Board(tags=(Tag("Event", "Spring"),))
    second = Board(tags=(Tag("Event", "#"), Tag("Site", "##x")))
    text = write_pbn([first, second])
    assert '[Event "##"]' in text
    assert '[Site "###x"]' in text
    assert read_pbn(text) == [first, second]


def _cards(text: str) -> tuple[str, ...]:
    return tuple(text.split(" "))


# -- the fixture -----------------------------------------------------------------------------------


def test_the_fixture_reads_with_its_synonyms_inheritance_comments_and_all_pass() -> None:
    one, two, three = read_pbn(FIXTURE.read_text(encoding="utf-8"))
    assert [b.line for b in (one, two, three)] == [5, 17, 33]
    assert one.vulnerable is Vulnerable.NONE
    assert three.vulnerable is Vulnerable.ALL
    assert one.tags[0] == two.tags[0] == three.tags[0] == Tag("Event", 'Test "fixture"')
    assert (one.dealer, two.dealer, three.dealer) == (0, 1, 2)
    assert one.deal is not None
    assert one.deal[1] == _cards("SJ ST S9 H8 H7 H6 D5 D4 D3 D2 CA CK CQ")
    assert one.play == Play(1, (("SJ", "S8", "S5", "SA"), ("CA", "CJ", "C8", "C5")))
    assert one.play.card_of(1, 0) == "C5"
    assert two.auction == Auction(1, ("1H", "Pass", "1NT", "X", "XX", "Pass", "Pass", "Pass"))
    assert (two.contract, two.declarer, two.result, two.deal_first) == ("1NTXX", 3, 7, 1)
    assert two.deal is not None
    assert two.deal[0] == _cards("SA SK SQ SJ HT H9 H8 D7 D6 D5 C4 C3 C2")
    assert three.deal is not None
    assert three.deal[3] is None
    assert three.play is None


@pytest.mark.parametrize("name", ["whist", "spades"])
def test_a_match_played_from_the_fixture_has_exactly_its_hands(name: str) -> None:
    game = trickrules.load(name)
    found = read_pbn(FIXTURE.read_text(encoding="utf-8"))
    start = stack_boards(game, found)
    final = play_match(game, make_bots(game, "random", seed=4), seed=4, max_deals=3, dealer=start.dealer,
                       deals=dict(enumerate(start.deals)))  # fmt: skip
    dealt = [e for _, e in final.entries() if isinstance(e, Dealt)][:3]
    names = dict(zip(game.cards.codes, pbn_cards(game), strict=True))
    for board, event in zip(found, dealt, strict=True):
        assert event.dealer == board.dealer
        assert board.deal is not None
        for seat, hand in enumerate(event.hands):
            expected = board.deal[seat] or tuple(c for c in DECK if c[0] == "C")  # board 3: W's hand, the clubs
            assert sorted(names[c] for c in hand) == sorted(expected)


# -- exporting a match -----------------------------------------------------------------------------


def _cards_played(state: trickrules.State) -> list[list[tuple[int, int, str]]]:
    """Per deal, every card played as (trick, seat, PBN card), read from the events alone."""
    names = dict(zip(state.game.cards.codes, pbn_cards(state.game), strict=True))
    out: list[list[tuple[int, int, str]]] = []
    trick = 0
    for _, event in state.entries():
        if isinstance(event, Dealt):
            out.append([])
            trick = 0
        elif isinstance(event, CardPlayed):
            out[-1].append((trick, event.seat, names[event.card]))
        elif isinstance(event, TrickWon):
            trick += 1
    return out


@pytest.mark.parametrize(("name", "seed"), [("whist", 1), ("whist", 2), ("spades", 1), ("spades", 3)])
def test_an_exported_match_reads_back_to_its_deals_and_every_card_played(name: str, seed: int) -> None:
    game = trickrules.load(name)
    final = play_match(game, make_bots(game, "heuristic", seed=seed), seed=seed, max_deals=3)
    found = read_pbn(write_pbn(boards_of(final)))
    dealt = [e for _, e in final.entries() if isinstance(e, Dealt)]
    played = _cards_played(final)
    assert len(found) == 3
    names = dict(zip(game.cards.codes, pbn_cards(game), strict=True))
    for board, event, cards in zip(found, dealt, played, strict=False):
        assert board.dealer == event.dealer
        assert board.deal == tuple(tuple(sorted((names[c] for c in h), key=ORDER.__getitem__)) for h in event.hands)
        assert board.play is not None
        assert board.play.leader == cards[0][1]
        assert len(board.play.tricks) == 13
        assert sorted((t, s, c) for t, s, c in cards) == sorted(
            (t, s, board.play.card_of(t, s)) for t in range(13) for s in range(4)
        )
        assert board.auction is None
        assert board.contract is None
        assert board.result is None


def _as_sets(state: trickrules.State) -> list[list[frozenset[str]]]:
    return [[frozenset(h) for h in e.hands] for _, e in state.entries() if isinstance(e, Dealt)]


def test_a_log_exports_as_its_state_does() -> None:
    game = trickrules.load("whist")
    final = play_match(game, make_bots(game, "random", seed=6), seed=6, max_deals=2)
    log = trickrules.EventLog.from_state(final)
    assert boards_of(log) == boards_of(final)
    assert len(boards_of(log)) == 2


def test_a_deal_stacked_from_an_export_deals_the_same_hands_from_another_seed() -> None:
    game = trickrules.load("spades")
    first = play_match(game, make_bots(game, "random", seed=8), seed=8, max_deals=2)
    start = stack_boards(game, read_pbn(write_pbn(boards_of(first))))
    again = play_match(game, make_bots(game, "random", seed=5), seed=99, max_deals=2, dealer=start.dealer,
                       deals=dict(enumerate(start.deals)))  # fmt: skip
    assert _as_sets(again)[:2] == _as_sets(first)[:2]
    assert _as_sets(game.new_match(seed=99))[0] != _as_sets(first)[0]  # the seed alone deals other hands


def test_where_cards_change_hands_before_the_play_the_deal_is_kept_and_the_play_left_out() -> None:
    game = trickrules.load("hearts")
    final = play_match(game, make_bots(game, "random", seed=1), seed=1, max_deals=1)
    board = read_pbn(write_pbn(boards_of(final)))[0]
    dealt = next(e for _, e in final.entries() if isinstance(e, Dealt))
    names = dict(zip(game.cards.codes, pbn_cards(game), strict=True))
    assert board.deal is not None
    assert [set(h or ()) for h in board.deal] == [{names[c] for c in h} for h in dealt.hands]
    assert board.play is None


def _bidding_whist(tmp: Path) -> trickrules.Game:
    """Whist with an auction of two contracts (words: no call but a pass maps to PBN's); all pass: thrown in."""
    text = (Path(__file__).resolve().parent.parent / "specs" / "whist.toml").read_text(encoding="utf-8")
    text = text.replace('name = "whist"', 'name = "whist-bid"').replace("turn_last_card = true\n", "")
    text = re.sub(r'chosen_by = "turned".*', 'chosen_by = "declarer"', text)
    contracts = "".join(f'[[bidding.contracts]]\nname = "{n}"\nside = "with_partner"\n\n' for n in ("seven", "eight"))
    passed_out = '{ action = "redeal", redeal_by = "next_dealer" }'
    text = text.replace("[play]", f'[bidding]\nauction = "until_passes"\nall_pass = {passed_out}\n\n{contracts}[play]')
    path = tmp / "whist-bid.toml"
    path.write_text(text, encoding="utf-8")
    return trickrules.load(str(path))


def _play_out(state: trickrules.State) -> trickrules.State:
    """The deal played on with the first legal card each time, until it is scored."""
    deal = state.deal.number
    while not state.is_terminal and state.deal.number == deal:
        state = state.apply(state.legal_actions()[0])
    return state


def test_a_won_auction_gives_declarer_and_result_and_calls_pbn_cannot_say_leave_the_auction_out(
    tmp_path: Path,
) -> None:
    game = _bidding_whist(tmp_path)
    state = game.new_match(seed=3, dealer=0)
    for text in ("bid seven", "pass", "bid eight", "pass", "pass"):  # E, S, W, N, E: W declares
        state = state.apply(text)
    state = _play_out(state.apply("trump S"))
    (board,) = read_pbn(write_pbn(boards_of(state)))
    winners = [e.seat for _, e in state.entries() if isinstance(e, TrickWon)]
    assert board.declarer == 3
    assert board.result == sum(1 for w in winners if w in (1, 3))
    assert board.auction is None
    assert board.contract is None
    assert board.play is not None


def test_a_deal_passed_out_is_written_with_its_auction_and_contract_pass(tmp_path: Path) -> None:
    game = _bidding_whist(tmp_path)
    state = game.new_match(seed=3, dealer=2)
    for _ in range(4):
        state = state.apply("pass")
    assert state.deal.number == 1  # thrown in: the next dealer deals
    (board,) = read_pbn(write_pbn(boards_of(state)))
    assert board.dealer == 2
    assert board.auction == Auction(3, ("Pass",) * 4)
    assert board.contract == "Pass"
    assert board.declarer is None
    assert board.result is None
    assert board.play is None


def test_an_auction_maps_call_by_call_or_not_at_all() -> None:
    assert calls_of(["pass", "bid 1C", "double", "redouble", "bid 7NT"]) == ("Pass", "1C", "X", "XX", "7NT")
    assert calls_of(["bid 1C", "bid solo"]) is None
    assert calls_of(["bid 8C"]) is None
    assert calls_of(["bid 0"]) is None
    assert contract_of(("1H", "X", "Pass", "Pass", "Pass")) == "1HX"
    assert contract_of(("1H", "X", "XX", "2C", "Pass")) == "2C"
    assert contract_of(("1H", "X", "XX", "Pass")) == "1HXX"
    assert contract_of(("Pass",) * 4) == "Pass"


def test_a_game_pbn_cannot_hold_is_refused_with_what_it_has() -> None:
    with pytest.raises(ArgumentError, match="40 cards"):
        pbn_cards(trickrules.load("quadrille"))
    with pytest.raises(ArgumentError, match="3 players"):
        pbn_cards(trickrules.load("oh-hell"))


# -- bad PBN ---------------------------------------------------------------------------------------

_OK_DEAL = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"

BAD = [
    ("a hand of 12 cards", '[Event "x"]\n[Deal "N:AKQJT9876543... - - -"]', 2, "has 12 cards"),
    ("a card twice", '[Deal "N:AKQJT98765432... A.AKQJT98765432.. - -"]', 1, "SA is in the hand of E and also"),
    ("a card twice in a hand", '[Deal "N:AAKQJT9876543... - - -"]', 1, "twice in it"),
    ("an unknown Vulnerable", '\n[Vulnerable "Some"]', 2, "Vulnerable: 'Some'"),
    ("an unknown Dealer", '[Dealer "X"]', 1, "is not a seat"),
    ("an unclosed quote", '[Board "1"]\n[Dealer "N]', 2, "no closing quote"),
    ("a tag without a value", "[Dealer N]", 1, "no quoted value"),
    ("an unknown rank", '[Deal "N:AKQJT9876543X... - - -"]', 1, "'X'"),
    ("three hands", '[Deal "N:AKQJT98765432... - -"]', 1, "3 hands"),
    ("a bad Contract", '[Contract "8H"]', 1, "is not a contract"),
    ("a bad Result", '[Result "14"]', 1, "number of tricks"),
    ("a bad call", '[Auction "N"]\n1C Pass\n1Z', 3, "'1Z' is not a call"),
    ("a card its seat never held", f'[Deal "{_OK_DEAL}"]\n[Play "N"]\nSA HA DA CA\nSK DK HK CK', 4, "E plays DK"),
    ("a card played twice", '[Play "N"]\nSA HA DA CA\nSA - - -', 3, "already played in trick 1"),
    ("a trick short of a card", '[Play "W"]\nSA HA DA CA\nSK HK', 3, "gives 2 of four cards"),
    ("a word that is not a card", '[Play "W"]\nS1 - - -', 2, "'S1' is not a card"),
    ("a comment never closed", '[Dealer "N"]\n{ open\n\n', 2, "never closed"),
    ("a '#' with nothing before", '[Dealer "#"]', 1, "no board before"),
    ("a word before any tag", 'hello\n[Dealer "N"]', 1, "before any tag"),
    ("a section after a tag without one", '[Dealer "N"]\nSA', 2, "has no section"),
]


@pytest.mark.parametrize(("text", "line", "says"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_pbn_is_a_log_format_error_naming_its_line(text: str, line: int, says: str) -> None:
    with pytest.raises(LogFormatError) as caught:
        read_pbn(text)
    assert str(caught.value).startswith(f"line {line}: "), str(caught.value)
    assert says in str(caught.value)


def test_a_board_that_cannot_be_stacked_is_refused_naming_its_line() -> None:
    whist = trickrules.load("whist")
    two = read_pbn(f'[Dealer "N"]\n[Deal "{_OK_DEAL}"]\n\n[Dealer "S"]\n[Deal "{_OK_DEAL}"]\n')
    with pytest.raises(LogFormatError, match=r"^line 4: board 2: its Dealer is S, but .* is dealt by E"):
        stack_boards(whist, two)
    with pytest.raises(LogFormatError, match=r"^line 1: board 1: its Deal leaves 2 hands unknown"):
        stack_boards(whist, read_pbn('[Deal "N:AKQJT98765432... - - ...AKQJT98765432"]'))
    with pytest.raises(LogFormatError, match=r"^line 1: board 1: it has no Deal"):
        stack_boards(whist, read_pbn('[Dealer "N"]'))
    with pytest.raises(LogFormatError, match="no board"):
        stack_boards(whist, [])


def test_a_board_built_with_a_value_pbn_cannot_say_is_refused_when_written() -> None:
    hand = tuple(DECK[:12])
    with pytest.raises(ArgumentError, match="has 12 cards"):
        write_pbn([Board(deal=(hand, None, None, None))])
    with pytest.raises(ArgumentError, match="is not a call"):
        write_pbn([Board(auction=Auction(0, ("1Z",)))])
    with pytest.raises(ArgumentError, match="line break"):
        write_pbn([Board(tags=(Tag("Event", "a\nb"),))])
    with pytest.raises(ArgumentError, match="twice"):
        write_pbn([Board(tags=(Tag("Event", "a"), Tag("Event", "b")))])
    with pytest.raises(ArgumentError, match="empty"):
        write_pbn([Board()])
    assert read_pbn('[Dealer "?"]\n[Deal ""]\n\n[Dealer "N"]') == [Board(dealer=0)]
    with pytest.raises(ArgumentError, match="not a tag pair of its own"):
        write_pbn([Board(tags=(Tag("Deal", "N:- - - -"),))])


# -- the command line ------------------------------------------------------------------------------


def test_play_deals_the_files_boards_and_replay_writes_them_back(tmp_path: Path) -> None:
    log, out = tmp_path / "m.jsonl", tmp_path / "m.pbn"
    assert main(["play", "whist", "--seed", "2", "--quiet", "--deal-file", str(FIXTURE), "--log", str(log)]) == 0
    assert main(["replay", str(log), "--partial", "--pbn", str(out)]) == 0
    written = read_pbn(out.read_text(encoding="utf-8"))
    given = read_pbn(FIXTURE.read_text(encoding="utf-8"))
    assert len(written) == 3  # the file's three boards, and no deal beyond them
    for board, source in zip(written, given, strict=True):
        assert board.dealer == source.dealer
        assert source.deal is not None
        assert board.deal is not None
        assert all(h is None or h == board.deal[s] for s, h in enumerate(source.deal))
    # --pbn does not replace a file without --force
    before = out.read_text(encoding="utf-8")
    assert main(["replay", str(log), "--partial", "--pbn", str(out)]) == 2
    assert main(["replay", str(log), "--partial", "--pbn", str(out), "--force"]) == 0
    assert out.read_text(encoding="utf-8") == before


def _bad_play_files(tmp: Path) -> list[tuple[list[str], str]]:
    bad = tmp / "bad.pbn"
    bad.write_text('[Board "1"]\n[Deal "N:AKQ.JT9.876.543 - - -"]\n', encoding="utf-8")
    binary = tmp / "binary.pbn"
    binary.write_bytes(b'[Event "\xff"]\n')
    log = tmp / "x.jsonl"
    log.write_text("", encoding="utf-8")
    return [
        (["play", "whist", "--deal-file", str(tmp)], "not a regular file"),
        (["play", "whist", "--deal-file", str(tmp / "missing.pbn")], "not a file that exists"),
        (["play", "whist", "--deal-file", str(bad)], "line 2: Deal: the hand of N (AKQ.JT9.876.543) has 12 cards"),
        (["play", "whist", "--deal-file", str(binary)], "not UTF-8"),
        (["play", "quadrille", "--deal-file", str(FIXTURE)], "40 cards"),
        (["play", "whist", "--deal-file", str(FIXTURE), "--log", str(FIXTURE)], "an input of this command"),
        (["replay", str(log), "--pbn", str(log)], "an input of this command"),
    ]


def test_the_commands_bad_pbn_inputs_give_one_line_and_exit_2(tmp_path: Path) -> None:
    for argv, says in _bad_play_files(tmp_path):
        done = subprocess.run([sys.executable, "-m", "trickrules", *argv], capture_output=True, text=True,
                              timeout=120, check=False)  # fmt: skip
        assert done.returncode == 2, (argv, done.stderr)
        assert done.stderr.count("\n") == 1, (argv, done.stderr)
        assert says in done.stderr, (argv, done.stderr)
        assert "Traceback" not in done.stderr


def test_random_boards_stack_into_every_bundled_four_hand_game() -> None:
    rng = random.Random(7)
    for name in ("whist", "spades", "hearts"):
        game = trickrules.load(name)
        deck = list(DECK)
        rng.shuffle(deck)
        hands = tuple(tuple(sorted(deck[13 * k : 13 * k + 13], key=ORDER.__getitem__)) for k in range(4))
        start = stack_boards(game, [Board(deal=hands, dealer=3)])
        state = start.new_match(game, seed=1)
        assert state.dealer == 3
        names = dict(zip(game.cards.codes, pbn_cards(game), strict=True))
        dealt = next(e for _, e in state.entries() if isinstance(e, Dealt))
        assert tuple(tuple(sorted((names[c] for c in h), key=ORDER.__getitem__)) for h in dealt.hands) == hands

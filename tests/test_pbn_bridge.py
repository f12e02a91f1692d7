"""PBN boards played through Bridge: a board's auction and play give its Contract, Declarer and Result.

The boards with a whole play come from OpenSpiel's ``bridge`` (the cards
played, not the double-dummy result): a seeded random auction and play,
written as PBN by this module's own small writer (not the library's), with
the ``Result`` OpenSpiel prints (its declarer's tricks). Each board is read
with :func:`read_pbn` and played through trickrules' Bridge
(:func:`play_board`, the options giving the board's dealer and
vulnerability); the board trickrules then exports (:func:`boards_of`) must
have the same ``Contract``, ``Declarer``, ``Vulnerable`` and ``Result``, and
each seat's score of the deal must be OpenSpiel's.

The PBN standard's own example board (5HX by South, the play stopped after
seven tricks by a claim) checks a real auction: its ``Contract`` and
``Declarer`` are what trickrules makes of its calls.
"""

from __future__ import annotations

import random
import re

import pytest

import trickrules
from trickrules.errors import LogFormatError
from trickrules.records.pbn import Vulnerable, read_pbn
from trickrules.records.pbn_match import boards_of, play_board

#: Boards played by OpenSpiel, each with its own dealer and vulnerability.
BOARDS = 120
_SUITS = "CDHS"  # OpenSpiel's card id: rank * 4 + suit, the suits in this order, the ranks from 2 to A
_RANKS = "23456789TJQKA"
_STRAINS = ("C", "D", "H", "S", "NT")
_SEATS = "NESW"
_PASS = 52  # OpenSpiel's call ids: Pass, Dbl, RDbl, then 1C, 1D, ... 7NT

#: The PBN standard's example board (PBN 2.1, section 2): the calls and the first seven tricks.
STANDARD_EXAMPLE = """\
[Dealer "N"]
[Vulnerable "All"]
[Deal "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"]
[Declarer "S"]
[Contract "5HX"]
[Result "9"]
[Auction "N"]
1D 1S 3H 4S
4NT X Pass Pass
5C X 5H X
Pass Pass Pass
[Play "W"]
SK H3 S4 S3
C5 C2 C6 CK
S2 H6 S5 S7
C8 CA CT C4
D2 DA DT D3
D4 DK H5 H7
- - - H2
"""


def _card(action: int) -> str:
    return _SUITS[action % 4] + _RANKS[action // 4]


def _call(action: int) -> str:
    call = action - _PASS
    if call < 3:
        return ("Pass", "X", "XX")[call]
    return f"{(call - 3) // 5 + 1}{_STRAINS[(call - 3) % 5]}"


def _deal_tag(hands: list[list[int]]) -> str:
    def hand(cards: list[int]) -> str:
        ranks = {s: [_RANKS[c // 4] for c in sorted(cards, reverse=True) if c % 4 == i] for i, s in enumerate(_SUITS)}
        return ".".join("".join(ranks[s]) for s in "SHDC")

    return "N:" + " ".join(hand(h) for h in hands)


def _vulnerable(dealer: int, dealer_vul: bool, non_dealer_vul: bool) -> str:
    if dealer_vul == non_dealer_vul:
        return "All" if dealer_vul else "None"
    return "NS" if (dealer % 2 == 0) == dealer_vul else "EW"


def openspiel_board(seed: int) -> tuple[str, dict[str, str], list[float]]:
    """One board OpenSpiel deals, bids and plays at random: its PBN text, trickrules' options, and the returns."""
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (pip package open-spiel) is not installed")
    rng = random.Random(seed)
    dealer, dealer_vul, non_dealer_vul = rng.randrange(4), rng.random() < 0.5, rng.random() < 0.5
    params = {"use_double_dummy_result": False, "dealer": dealer, "dealer_vul": dealer_vul}
    game = pyspiel.load_game("bridge", {**params, "non_dealer_vul": non_dealer_vul})
    state = game.new_initial_state()
    deck = list(range(52))
    rng.shuffle(deck)
    hands: list[list[int]] = [[], [], [], []]
    for k, card in enumerate(deck):
        state.apply_action(card)
        hands[k % 4].append(card)
    calls: list[int] = []
    cards: list[tuple[int, int]] = []  # (seat, card)
    passing = rng.choice((0.4, 0.6, 0.8))
    while not state.is_terminal():
        legal = state.legal_actions()
        if legal[0] < _PASS:  # a card: the seat that plays it is the one whose hand holds it
            card = rng.choice(legal)
            cards.append((next(s for s in range(4) if card in hands[s]), card))
        elif rng.random() < passing:
            card = _PASS
        else:
            bids = [a for a in legal if a > _PASS + 2]
            doubles = [a for a in legal if a in (_PASS + 1, _PASS + 2)]
            card = doubles[0] if doubles and rng.random() < 0.3 else bids[0] if bids else _PASS
            if bids and rng.random() < 0.2:
                card = rng.choice(bids)
        if legal[0] >= _PASS:
            calls.append(card)
        state.apply_action(card)
    lines = [f'[Dealer "{_SEATS[dealer]}"]', f'[Vulnerable "{_vulnerable(dealer, dealer_vul, non_dealer_vul)}"]']
    lines.append(f'[Deal "{_deal_tag(hands)}"]')
    texts = [_call(c) for c in calls]
    bids = [t for t in texts if t[0].isdigit()]
    if not bids:
        lines.append('[Contract "Pass"]')
    else:
        doubled = ""
        for t in texts[texts.index(bids[-1]) + 1 :]:
            doubled = {"X": "X", "XX": "XX"}.get(t, doubled)
        leader = cards[0][0]
        found = re.search(r"Declarer tricks won: (\d+)", str(state))
        assert found is not None
        lines += [f'[Declarer "{_SEATS[(leader - 1) % 4]}"]', f'[Contract "{bids[-1]}{doubled}"]']
        lines.append(f'[Result "{found.group(1)}"]')
    lines.append(f'[Auction "{_SEATS[dealer]}"]')
    lines += [" ".join(texts[i : i + 4]) for i in range(0, len(texts), 4)]
    if cards:
        leader = cards[0][0]
        lines.append(f'[Play "{_SEATS[leader]}"]')
        for trick in range(13):
            row = {seat: _card(card) for seat, card in cards[4 * trick : 4 * trick + 4]}
            lines.append(" ".join(row[(leader + i) % 4] for i in range(4)))
    options = {"boards": "1", "dealer": str(dealer)}
    options |= {"dealer_vul": "on" if dealer_vul else "off", "non_dealer_vul": "on" if non_dealer_vul else "off"}
    return "\n".join(lines) + "\n", options, list(state.returns())


def test_boards_played_by_openspiel_score_as_their_result_says() -> None:
    results: set[int] = set()
    for seed in range(BOARDS):
        text, options, returns = openspiel_board(seed)
        board = read_pbn(text)[0]
        game = trickrules.load("bridge", options)
        state = play_board(game, board, seed=seed)
        assert state.is_terminal, f"seed {seed}: the board did not end the match"
        ours = boards_of(state)[0]
        where = f"seed {seed}:\n{text}"
        assert (ours.contract, ours.declarer, ours.result) == (board.contract, board.declarer, board.result), where
        assert ours.vulnerable == board.vulnerable, where
        assert [state.scoreboard[s] for s in range(4)] == returns, where
        assert (ours.deal, ours.auction, ours.play) == (board.deal, board.auction, board.play), where
        if board.result is not None:
            results.add(board.result)
    assert len(results) >= 5, f"the boards' results are too alike to test much: {sorted(results)}"


def test_the_standard_example_board_bids_to_its_contract() -> None:
    board = read_pbn(STANDARD_EXAMPLE)[0]
    game = trickrules.load("bridge", {"boards": "1", "dealer": "0", "dealer_vul": "on", "non_dealer_vul": "on"})
    state = play_board(game, board)
    ours = boards_of(state)[0]
    assert (ours.contract, ours.declarer, ours.vulnerable) == ("5HX", 2, Vulnerable.ALL)
    assert len(ours.play.tricks if ours.play else ()) == 7  # six whole tricks and the seventh's first card
    assert ours.result is None  # the rest was claimed: no Result without the tricks


def test_a_board_whose_calls_or_cards_break_the_rules_is_refused_with_its_line() -> None:
    game = trickrules.load("bridge", {"boards": "1", "dealer": "0", "dealer_vul": "on", "non_dealer_vul": "on"})
    wrong_card = STANDARD_EXAMPLE.replace("SK H3 S4 S3", "SK H3 S4 H4")  # South holds spades: must follow
    with pytest.raises(LogFormatError, match=r"line 1: Play: trick 1, S's H4: "):
        play_board(game, read_pbn(wrong_card)[0])
    low_bid = STANDARD_EXAMPLE.replace("1D 1S 3H 4S", "1D 1C 3H 4S")
    with pytest.raises(LogFormatError, match=r"line 1: Auction: call 2 \(1C\)"):
        play_board(game, read_pbn(low_bid)[0])
    with pytest.raises(LogFormatError, match="Vulnerable is All, but bridge with these options makes None vulnerable"):
        play_board(trickrules.load("bridge", {"boards": "1"}), read_pbn(STANDARD_EXAMPLE)[0])

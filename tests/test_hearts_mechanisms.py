"""The mechanisms Hearts needs, each on its own and on small made-up games.

Card points by card and by suit, passing cards after the deal, the
obligations about leads and the first trick, the scoring variables that
count cards worth points, the lowest score winning, and the bundled Hearts
spec with its options (the cross-engine test in ``tests/crossengine`` plays
it against OpenSpiel).
"""

from __future__ import annotations

import random
from pathlib import Path
from string import Template

import pytest

import parts
import trickrules
from trickrules import EventLog, Game, IllegalActionError, LogIntegrityError, SpecError, State, View
from trickrules.engine.events import Awarded, CardPassed, DealScored, PassingDone, TrickWon

#: A game of 12 cards for 4 players, three each, no trumps: small enough to stack every situation.
TINY = """
name = "tiny"
title = "Tiny"

[deck]
suits = [
  { code = "S", name = "spades", colour = "black" },
  { code = "H", name = "hearts", colour = "red" },
  { code = "C", name = "clubs", colour = "black" },
]
ranks = [{ code = "A", name = "Ace" }, { code = "K", name = "King" }, { code = "Q", name = "Queen" },
         { code = "J", name = "Jack" }]
$deck

[ranks.plain]
default = ["A", "K", "Q", "J"]

[trump]
chosen_by = "none"

[seating]
players = 4

[deal]
packets = [3]

[play]
obligations = [{ rule = "follow_suit" }$obligations]

$extra

[scoring]
unit = "points"
rounding = "exact"

[[scoring.outcomes]]
name = "tricks"
for_each = "player"
when = "True"
pay = [{ to = "player", amount = "own_tricks" }]

[match]
deals = $deals
"""


def tiny(
    tmp_path: Path, *, deck: str = "", obligations: str = "", extra: str = "", deals: int = 1, name: str = "tiny"
) -> Game:
    """Load a variant of :data:`TINY`."""
    text = Template(TINY).substitute(deck=deck, obligations=obligations, extra=extra, deals=deals)
    path = tmp_path / f"{name}.toml"
    path.write_text(text.replace('name = "tiny"', f'name = "{name}"'), encoding="utf-8")
    return trickrules.load(path)


def legal(state: State) -> list[str]:
    """The legal actions' arguments (cards), in the engine's order."""
    return [a.arg for a in state.legal_actions()]


def play(state: State, *cards: str) -> State:
    for card in cards:
        state = state.apply(f"play {card}")
    return state


# -- card points --------------------------------------------------------------------------


def test_card_points_come_from_the_card_then_the_suit_then_the_rank(tmp_path: Path) -> None:
    game = tiny(tmp_path, deck="points = { A = 4, K = 3 }\nsuit_points = { H = 1 }\ncard_points = { AH = 10, KS = -2 }")
    worth = {code: game.cards.points[n] for n, code in enumerate(game.cards.codes)}
    assert worth["AH"] == 10  # the card's own entry
    assert worth["KH"] == worth["JH"] == 1  # its suit's
    assert worth["KS"] == -2  # a card may be worth less than nothing
    assert (worth["AS"], worth["AC"], worth["KC"], worth["QC"]) == (4, 4, 3, 0)  # by rank, else 0


@pytest.mark.parametrize(
    ("deck", "words"),
    [
        ("card_points = { ZH = 1 }", "deck.card_points.ZH: 'ZH' is not a card of this deck"),
        ('removed = ["JC"]\ncard_points = { JC = 1 }', "deck.card_points.JC: 'JC' is not a card"),
        ("suit_points = { D = 1 }", "deck.suit_points.D: 'D' is not a suit of this deck"),
    ],
)
def test_card_points_must_name_cards_and_suits_of_the_deck(tmp_path: Path, deck: str, words: str) -> None:
    with pytest.raises(SpecError, match=words):
        tiny(tmp_path, deck=deck)


def test_a_spec_without_the_new_keys_keeps_its_fingerprint(tmp_path: Path) -> None:
    plain = tiny(tmp_path, name="plain")
    empty = tiny(tmp_path, deck="card_points = {}\nsuit_points = {}", extra="[passing]\ncards = 0", name="plain")
    assert plain.fingerprint == empty.fingerprint


# -- passing ----------------------------------------------------------------------------------

PASS_ONE = '[passing]\ncards = 1\ncycle = ["next", "previous", "across", "hold"]'
HANDS = [["AS", "KS", "AH"], ["QS", "JS", "KH"], ["AC", "KC", "QH"], ["QC", "JC", "JH"]]


def passed_all(state: State, cards: list[str]) -> State:
    """Each seat in turn passes the card of ``cards`` at its seat."""
    while state.phase == "passing":
        state = state.apply(f"give {cards[state.to_move or 0]}")
    return state


def test_the_cycle_gives_each_deal_its_direction(tmp_path: Path) -> None:
    game = tiny(tmp_path, extra=PASS_ONE, deals=5)
    state = game.new_match(seed=4, dealer=3)
    offsets: list[int] = []
    rng = random.Random(4)
    while not state.is_terminal:
        if not offsets or state.deal.number >= len(offsets):
            offsets.append(parts.pass_offset(state))
        state = state.apply(rng.choice(state.legal_actions()))
    assert offsets == [1, 3, 2, 0, 1]  # next, previous, across, hold, next


def test_passing_by_chance_is_drawn_from_the_seed(tmp_path: Path) -> None:
    game = tiny(tmp_path, extra=PASS_ONE + '\norder = "chance"')
    drawn = [parts.pass_offset(game.new_match(seed=seed)) for seed in range(200)]
    assert drawn == [parts.pass_offset(game.new_match(seed=seed)) for seed in range(200)]
    assert set(drawn) == {0, 1, 2, 3}
    assert {game.new_match(seed=seed).phase for seed in range(200) if drawn[seed] == 0} == {"play"}


def test_passed_cards_arrive_only_when_everyone_has_passed(tmp_path: Path) -> None:
    game = tiny(tmp_path, extra=PASS_ONE)
    state = game.new_match(seed=1, dealer=3, hands=HANDS)
    assert (state.phase, state.to_move, legal(state)) == ("passing", 0, ["AS", "KS", "AH"])
    state = state.apply("give AH").apply("give KH").apply("give QH")
    assert state.hand(1) == ("QS", "JS")  # seat 0's heart is not there yet
    assert parts.v_received(View.from_state(state, 1)) == ()
    state = state.apply("give JH")
    assert (state.phase, state.to_move) == ("play", 0)
    hands = [("AS", "KS", "JH"), ("QS", "JS", "AH"), ("KH", "AC", "KC"), ("QH", "QC", "JC")]
    assert [state.hand(s) for s in range(4)] == hands
    done = state.last_events[-1]
    assert done == PassingDone(1, (("JH",), ("AH",), ("KH",), ("QH",)))
    view = View.from_state(state, 1)
    assert (parts.v_pass_to(view), parts.v_given(view), parts.v_received(view)) == (2, ("KH",), ("AH",))


def test_a_passed_card_is_seen_by_its_passer_only(tmp_path: Path) -> None:
    game = tiny(tmp_path, extra=PASS_ONE)
    state = passed_all(game.new_match(seed=1, dealer=3, hands=HANDS), ["AH", "KH", "QH", "JH"])
    log = EventLog.from_state(state)
    for seat in range(4):
        events = log.for_seat(seat).events
        passes = [e for e in events if isinstance(e, CardPassed)]
        assert [(e.seat, e.to) for e in passes] == [(0, 1), (1, 2), (2, 3), (3, 0)]
        assert [e.card for e in passes] == [HANDS[s][2] if s == seat else "?" for s in range(4)]
        done = next(e for e in events if isinstance(e, PassingDone))
        assert [r != ("?",) for r in done.received] == [s == seat for s in range(4)]
    assert parts.v_given(View.from_state(state, 2)) == ("QH",)
    assert "AH" not in View.from_state(state, 2).to_json()


def test_a_match_with_passing_replays_and_a_changed_pass_is_caught(tmp_path: Path) -> None:
    game = tiny(tmp_path, extra=PASS_ONE, deals=4)
    rng = random.Random(2)
    state = game.new_match(seed=2)
    while not state.is_terminal:
        state = state.apply(rng.choice(state.legal_actions()))
    text = EventLog.from_state(state).to_json()
    assert trickrules.replay(text, game=game) == state
    lines = text.splitlines()
    first = next(n for n, line in enumerate(lines) if '"type":"pass_card"' in line)
    card = lines[first].rsplit('"card":"', 1)[1].split('"')[0]
    other = next(c for c in game.cards.codes if c != card)
    lines[first] = lines[first].replace(f'"card":"{card}"', f'"card":"{other}"')
    with pytest.raises(LogIntegrityError, match=rf"event {first - 1}:"):
        trickrules.replay("\n".join(lines) + "\n", game=game)


def test_a_card_not_held_cannot_be_passed(tmp_path: Path) -> None:
    state = tiny(tmp_path, extra=PASS_ONE).new_match(seed=1, dealer=3, hands=HANDS)
    with pytest.raises(IllegalActionError, match=r"give QC: not legal for seat 0 in the passing phase"):
        state.apply("give QC")
    with pytest.raises(IllegalActionError):
        state.apply("play AS")


def test_after_passing_the_deal_goes_on_to_the_auction(tmp_path: Path) -> None:
    # Passing is not tied to games without contracts: here it comes before an auction, whose
    # first bid is the eldest hand's.
    extra = PASS_ONE + '\n[bidding]\ncontracts = [{ name = "low" }, { name = "high" }]'
    game = tiny(tmp_path, extra=extra, name="bidders")
    state = passed_all(game.new_match(seed=1, dealer=3, hands=HANDS), ["AH", "KH", "QH", "JH"])
    assert (state.phase, state.to_move) == ("bidding", 0)
    assert [str(a) for a in state.legal_actions()] == ["pass", "bid low", "bid high"]
    assert state.hand(0) == ("AS", "KS", "JH")


@pytest.mark.parametrize(
    ("passing", "words"),
    [
        ('cards = 1\ncycle = ["next", "sideways"]', r"passing.cycle\[1\]: expected one of"),
        ("cards = 4\ncycle = [\"next\"]", r"passing.cards: expected 1 to 3 cards"),
        ("cards = 1", "passing.cycle: give where the cards go"),
        ('cycle = ["next"]', "passing.cycle: no cards are passed"),
        ('cards = 1\norder = "sometimes"\ncycle = ["next"]', "order"),
    ],
)
def test_passing_is_checked_with_its_key_path(tmp_path: Path, passing: str, words: str) -> None:
    with pytest.raises(SpecError, match=words):
        tiny(tmp_path, extra=f"[passing]\n{passing}")


def test_passing_across_needs_an_even_table(tmp_path: Path) -> None:
    text = Template(TINY).substitute(deck="", obligations="", extra='[passing]\ncards = 1\ncycle = ["across"]', deals=1)
    path = tmp_path / "three.toml"
    path.write_text(text.replace("players = 4", "players = 3"), encoding="utf-8")
    with pytest.raises(SpecError, match=r"passing.cycle\[0\]: 'across' needs an even number of players, not 3"):
        trickrules.load(path)


# -- leads and the first trick ---------------------------------------------------------------


@pytest.mark.parametrize(("mode", "allowed"), [("card", ["JC"]), ("suit", ["AC", "JC"]), ("any", ["QH", "AC", "JC"])])
def test_the_first_lead_s_card_decides_who_leads_and_what(tmp_path: Path, mode: str, allowed: list[str]) -> None:
    game = tiny(tmp_path, obligations=f', {{ rule = "first_lead", cards = ["JC"], mode = "{mode}" }}')
    hands = [["AS", "KS", "AH"], ["QS", "JS", "KH"], ["AC", "JC", "QH"], ["KC", "QC", "JH"]]
    state = game.new_match(seed=1, dealer=3, hands=hands)
    assert (state.to_move, state.leader) == (2, 2)  # not the eldest (seat 0): the holder of JC
    assert legal(state) == allowed
    state = play(state, "JC")
    assert legal(state) == ["KC", "QC"]  # then the others follow suit as usual


def test_the_first_lead_s_card_is_led_by_its_holder_after_the_passes(tmp_path: Path) -> None:
    game = tiny(tmp_path, obligations=', { rule = "first_lead", cards = ["JH"] }', extra=PASS_ONE)
    state = passed_all(game.new_match(seed=1, dealer=3, hands=HANDS), ["AH", "KH", "QH", "JH"])
    assert (state.to_move, legal(state)) == (0, ["JH"])  # seat 3 passed it to seat 0


@pytest.mark.parametrize(
    ("obligation", "words"),
    [
        ('{ rule = "first_lead", cards = ["JC", "QC"] }', r"obligations\[1\].cards: name exactly one card"),
        ('{ rule = "first_lead", cards = ["ZC"] }', r"obligations\[1\].cards\[0\]: 'ZC' is not a card"),
        ('{ rule = "first_lead", cards = ["JC"], mode = "trump" }', r"obligations\[1\].mode: expected one of"),
        ('{ rule = "lead_when_broken" }', r"obligations\[1\].suit: expected a suit code of this deck, found ''"),
        ('{ rule = "lead_when_broken", suit = "H", broken_by = ["XX"] }', r"broken_by\[0\]: 'XX' is not a card"),
        ('{ rule = "no_points_first_trick", suit = "H" }', r"obligations\[1\].suit: not a parameter of"),
        ('{ rule = "lead_when_broken", suit = "H", cards = ["AS"] }', r"obligations\[1\].cards: not a parameter"),
    ],
)
def test_lead_rules_are_checked_with_their_key_path(tmp_path: Path, obligation: str, words: str) -> None:
    with pytest.raises(SpecError, match=words):
        tiny(tmp_path, obligations=f", {obligation}")


def test_follow_suit_refuses_the_lead_rules_parameters(tmp_path: Path) -> None:
    text = Template(TINY).substitute(deck="", obligations="", extra="", deals=1).replace(
        '{ rule = "follow_suit" }', '{ rule = "follow_suit", unless_only = ["AS"] }'
    )
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError, match=r"play.obligations\[0\].unless_only: not a parameter of 'follow_suit'"):
        trickrules.load(path)


BROKEN = ', { rule = "lead_when_broken", suit = "H"%s }'


def test_a_suit_is_not_led_until_broken(tmp_path: Path) -> None:
    game = tiny(tmp_path, obligations=BROKEN % "")
    state = game.new_match(seed=1, dealer=3, hands=HANDS)
    assert legal(state) == ["AS", "KS"]
    with pytest.raises(IllegalActionError, match=r"play AH: may not lead that suit before it is broken"):
        state.apply("play AH")
    after = play(state, "KS", "QS", "AC", "QC")  # no heart played: still unbroken
    assert (after.to_move, legal(after)) == (0, ["AS"])
    broken = play(state, "KS", "QS", "QH", "QC")  # seat 2 discards a heart
    assert (broken.to_move, legal(broken)) == (0, ["AS", "AH"])


def test_a_leader_holding_only_the_suit_leads_it(tmp_path: Path) -> None:
    game = tiny(tmp_path, obligations=BROKEN % "")
    hands = [["AH", "KH", "QH"], ["AS", "KS", "JH"], ["QS", "JS", "AC"], ["KC", "QC", "JC"]]
    assert legal(game.new_match(seed=1, dealer=3, hands=hands)) == ["AH", "KH", "QH"]


def test_another_card_may_break_the_suit(tmp_path: Path) -> None:
    game = tiny(tmp_path, obligations=BROKEN % ', broken_by = ["QS"]')
    state = play(game.new_match(seed=1, dealer=3, hands=HANDS), "KS", "QS", "AC", "QC")
    assert legal(state) == ["AS", "AH"]


def test_a_leader_whose_other_cards_are_excepted_may_lead_the_suit(tmp_path: Path) -> None:
    game = tiny(tmp_path, obligations=BROKEN % ', unless_only = ["AS"]')
    state = game.new_match(seed=1, dealer=3, hands=HANDS)
    assert legal(state) == ["AS", "KS"]  # KS is not excepted
    state = play(state, "KS", "QS", "AC", "QC")
    assert legal(state) == ["AS", "AH"]  # only AS is left outside hearts


NO_POINTS = ', { rule = "no_points_first_trick" }'


def test_no_card_worth_points_on_the_first_trick_unless_following_suit(tmp_path: Path) -> None:
    game = tiny(tmp_path, deck="suit_points = { H = 1 }\ncard_points = { QS = 5 }", obligations=NO_POINTS)
    state = game.new_match(seed=1, dealer=3, hands=HANDS)
    assert legal(state) == ["AS", "KS"]  # the leader too
    state = play(state, "KS")
    assert legal(state) == ["QS", "JS"]  # following suit: the Queen may fall
    state = play(state, "JS")
    assert legal(state) == ["AC"] or legal(state) == ["AC", "KC"]
    with pytest.raises(IllegalActionError, match=r"play QH: may not play a card worth points to the first trick"):
        state.apply("play QH")
    state = play(state, "AC", "QC")
    assert legal(state) == ["AS", "AH"]  # the second trick is free


def test_no_points_on_the_first_trick_gives_way_when_nothing_else_is_held(tmp_path: Path) -> None:
    game = tiny(tmp_path, deck="suit_points = { H = 1 }", obligations=NO_POINTS)
    hands = [["AS", "KS", "QS"], ["JS", "AC", "KC"], ["AH", "KH", "QH"], ["JH", "QC", "JC"]]
    state = play(game.new_match(seed=1, dealer=3, hands=hands), "AS", "JS")
    assert legal(state) == ["AH", "KH", "QH"]  # void in spades, hearts only


def test_no_points_can_name_its_cards(tmp_path: Path) -> None:
    game = tiny(tmp_path, obligations=', { rule = "no_points_first_trick", cards = ["AS"] }')
    assert legal(game.new_match(seed=1, dealer=3, hands=HANDS)) == ["KS", "AH"]


# -- scoring variables and the lowest score --------------------------------------------------

COUNTERS = """
[[scoring.bonuses]]
name = "point cards"
for_each = "player"
when = "True"
pay = [{ to = "player", amount = "1000 + point_cards * 100 + opp_point_cards * 10 + point_cards_total" }]

[[scoring.bonuses]]
name = "most"
for_each = "player"
when = "True"
pay = [{ to = "player", amount = "1000 + max_point_cards" }]
"""


def test_point_cards_count_the_cards_worth_more_than_nothing(tmp_path: Path) -> None:
    deck = "suit_points = { H = 1 }\ncard_points = { QS = 13, JC = -10 }"
    game = tiny(tmp_path, deck=deck, extra=COUNTERS.replace("[[scoring.bonuses]]", "[[scoring.bonuses]]", 2))
    state = play(game.new_match(seed=1, dealer=3, hands=HANDS), "KS", "QS", "QH", "JH", "AS", "JS", "AC", "QC")
    state = play(state, "AH", "KH", "KC", "JC")  # seat 0 takes all three tricks
    awards = {(e.reason, e.seats): e.points for e in state.last_events if isinstance(e, Awarded)}
    # Five cards are worth more than nothing (four hearts and the Queen; JC's -10 does not count).
    assert awards[("point cards", (0,))] == 1000 + 5 * 100 + 0 + 5
    assert awards[("point cards", (1,))] == 1000 + 0 + 5 * 10 + 5
    assert all(awards[("most", (s,))] == 1005 for s in range(4))


def test_the_lowest_score_wins_where_the_spec_says_so(tmp_path: Path) -> None:
    text = Template(TINY).substitute(deck="suit_points = { H = 1 }", obligations="", extra="", deals=1)
    text = text.replace('amount = "own_tricks"', 'amount = "card_points"')
    text = text.replace("[match]", '[match]\ntie_break = "shared"')
    path = tmp_path / "low.toml"
    path.write_text(text, encoding="utf-8")
    high = trickrules.load(path)
    path.write_text(text.replace("[match]", '[match]\nwinner = "lowest"'), encoding="utf-8")
    low = trickrules.load(path)
    for game, winners in ((high, (0,)), (low, (1, 2, 3))):
        state = play(game.new_match(seed=1, dealer=3, hands=HANDS), "KS", "QS", "QH", "JH", "AS", "JS", "AC", "QC")
        state = play(state, "AH", "KH", "KC", "JC")
        scores = state.scoreboard
        assert scores == {0: 4, 1: 0, 2: 0, 3: 0}
        assert state.winners == winners


# -- the bundled Hearts ----------------------------------------------------------------------


def test_hearts_loads_by_name_and_replays_a_whole_match() -> None:
    game = trickrules.load("hearts")
    rng = random.Random(5)
    state = game.new_match(seed=5)
    while not state.is_terminal:
        state = state.apply(rng.choice(state.legal_actions()))
    scores = state.scoreboard
    assert max(scores.values()) >= 100
    assert state.winners == tuple(s for s in range(4) if scores[s] == min(scores.values()))
    assert trickrules.replay(EventLog.from_state(state).to_json()) == state


#: OpenSpiel's own shoot-the-moon deal: seat 0 holds the clubs, seat 1 the diamonds, seat 2 the
#: hearts, seat 3 the spades. Seat 0 leads the 2 of clubs, wins it, and every club trick after it.
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
MOON = [[f"{rank}{suit}" for rank in RANKS] for suit in "CDHS"]


@pytest.mark.parametrize(
    ("options", "scores"),
    [
        ({}, [0, 26, 26, 26]),
        ({"jd_bonus": "on"}, [-10, 26, 26, 26]),  # the shooter took the Jack of diamonds too
        ({"avoid_all_tricks_bonus": "on"}, [0, 26, 26, 26]),  # no bonus in a deal where the moon was shot
    ],
)
def test_hearts_shooting_the_moon(options: dict[str, str], scores: list[int]) -> None:
    game = trickrules.load("hearts", {"pass_cards": "off", "match_end": "one_deal", **options})
    state = game.new_match(seed=1, dealer=3, hands=MOON)
    assert (state.to_move, legal(state)) == (0, ["2C"])  # the holder of the 2 of clubs leads it
    state = play(state, "2C", "AD")
    assert len(legal(state)) == 13  # only hearts: a heart may go on the first trick
    while not state.is_terminal:
        state = state.apply(state.legal_actions()[0])
    assert list(state.scoreboard.values()) == scores


def plain_points(winners: list[int], tricks: list[tuple[str, ...]], jd: bool, avoid: bool) -> list[int]:
    """A deal's penalty points by Hearts' rules, counted from its tricks alone."""
    points = [0] * 4
    takers = set()
    for winner, cards in zip(winners, tricks, strict=True):
        for card in cards:
            points[winner] += 1 if card.endswith("H") else 13 if card == "QS" else -10 if jd and card == "JD" else 0
            if card.endswith("H") or card == "QS":
                takers.add(winner)
    if len(takers) == 1:
        shooter = takers.pop()
        return [p - 26 if s == shooter else p + 26 for s, p in enumerate(points)]
    return [p - 5 if avoid and s not in winners else p for s, p in enumerate(points)]


@pytest.mark.parametrize("options", [{}, {"jd_bonus": "on", "avoid_all_tricks_bonus": "on"}])
def test_hearts_scores_a_deal_as_its_rules_count_it(options: dict[str, str]) -> None:
    game = trickrules.load("hearts", {"match_end": "one_deal", **options})
    seen: set[str] = set()
    for seed in range(150):
        rng = random.Random(seed)
        state = game.new_match(seed=seed)
        greedy = rng.randrange(4)  # one seat takes what it can: now and then it shoots the moon
        while not state.is_terminal:
            actions = state.legal_actions()
            pick = actions[-1] if state.to_move == greedy and state.phase == "play" else rng.choice(actions)
            state = state.apply(pick)
        events = [e for _, e in state.entries()]
        tricks = [e for e in events if isinstance(e, TrickWon)]
        expected = plain_points([t.seat for t in tricks], [t.cards for t in tricks], bool(options), bool(options))
        assert list(state.scoreboard.values()) == expected, seed
        seen.update(e.outcome.split(",")[0] for e in events if isinstance(e, DealScored))
    assert {"shot the moon", "penalty points"} <= seen


@pytest.mark.parametrize("name", ["whist", "quadrille", "manille", "cuatrola", "spades", "oh-hell", "euchre"])
def test_after_passing_a_deal_opens_as_it_would_without(tmp_path: Path, name: str) -> None:
    # After the passing, the deal opens through the same setup.open_deal as a deal without it
    # (the auction, bids of tricks, making trumps, the dealer's trumps, the first lead).
    if name not in trickrules.bundled_names():
        pytest.skip(f"{name} is not bundled")
    games = {}
    for cycle in ("next", "hold"):
        path = tmp_path / f"{name}-{cycle}.toml"
        path.write_text(f'extends = "{name}"\n[passing]\ncards = 1\ncycle = ["{cycle}"]\n', encoding="utf-8")
        games[cycle] = trickrules.load(path)
    held = games["hold"].new_match(seed=3)
    state = games["next"].new_match(seed=3)
    assert state.phase == "passing"
    while state.phase == "passing":
        state = state.apply(state.legal_actions()[0])
    assert (state.phase, state.to_move, state.leader) == (held.phase, held.to_move, held.leader)

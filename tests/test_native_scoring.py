"""The native scoring against the engine's: every deal's payments, counters, the match's end and the next deal.

Engine matches are played with the random bot; every call of the engine's
``finish_deal``, ``pass_out`` and ``ends_early`` is caught, and the kernel's
:func:`~trickrules.native.scoring.score` (then :func:`~trickrules.native.scoring.ante`),
:func:`~trickrules.native.scoring.passed_out` and
:func:`~trickrules.native.scoring.ends_early` are run on the same finished
deal (its tally with the last trick, the match as before the scoring), and
compared with the engine's state after the deal.
"""

from __future__ import annotations

import contextlib
import random
import zlib
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import native_harness as H
import trickrules
from trickrules.engine.events import DealScored
from trickrules.engine.game import Game
from trickrules.engine.phases import deal_end
from trickrules.engine.phases.deal import dealing
from trickrules.engine.state import State
from trickrules.engine.values import DealInfo, Tally
from trickrules.errors import FormulaError, SpecError
from trickrules.native import layout as L
from trickrules.native import scoring as S
from trickrules.native.engine_arrays import deal_to_arrays, to_arrays
from trickrules.native.formula import LIMIT, OUT_SIZE, ROUNDING_CODES, compile_code, evaluate, rounded
from trickrules.native.tables import Unsupported
from trickrules.spec.formula import compile_formula, to_int

Arrays = npt.NDArray[np.int64]

#: Bundled games with their default options, and how many matches each plays.
DEFAULTS = dict.fromkeys(trickrules.bundled_names(), 6)
DEFAULTS.update({"oh-hell": 60, "euchre": 10, "whist": 10, "hearts": 4, "spades": 3})


#: Options together, and games where a deal can end early or be thrown in (pass_out), played longer.
COMBINED: list[tuple[str, dict[str, str], int]] = [
    ("cuatrola", {"end_hand_when_decided": "on"}, 30),
    ("cuatrola", {"end_hand_when_decided": "on", "over_100_bonus": "on", "solo_defeat_points": "1"}, 10),
    ("euchre", {"stick_the_dealer": "off", "target": "5"}, 60),
    ("quadrille-no-forced-spadille", {"deals": "4"}, 20),
    ("euchre", {"target": "one_deal", "zero_sum": "on", "allow_lone_defender": "on"}, 40),
    ("hearts", {"jd_bonus": "on", "avoid_all_tricks_bonus": "on"}, 4),
    ("hearts", {"match_end": "one_deal", "pass_direction": "chance", "jd_bonus": "on"}, 20),
    ("spades", {"use_mercy_rule": "off", "win_or_loss_bonus": "0", "bag_count": "score_digit"}, 3),
    ("spades", {"mercy_threshold": "0", "win_threshold": "100"}, 10),
    ("manille", {"scoring": "difference", "last_trick_bonus": "on", "revoke": "penalise"}, 6),
    ("manille", {"revoke": "penalise", "revoke_award": "match_points", "match_end": "12"}, 10),
    ("oh-hell", {"players": "7", "deals": "10", "off_bid_penalty": "on", "points_per_trick": "3"}, 10),
    ("quadrille", {"ante_every_deal": "on", "matador_bonus_cumulative": "on", "codille_multiplier": "1"}, 4),
    ("quadrille-fi", {"play_until_pot_empty": "on", "codille_indivisible_pot": "stays_whole"}, 4),
    ("quadrille-fi", {"premiers_bonus_per_opponent": "1", "vole_premium_per_opponent": "3", "matador_bonus": "on"}, 4),
    ("quintille", {"ante_every_deal": "on", "alliance_loss_paid_by": "hombre"}, 4),
]


def _configs() -> Iterator[tuple[str, dict[str, str], int]]:
    """Every bundled game with its defaults, options together, then each option choice alone."""
    for name, matches in DEFAULTS.items():
        yield name, {}, matches
    yield from COMBINED
    for name in trickrules.bundled_names():
        spec = trickrules.load(name).spec
        for key, option in spec.options.items():
            for choice in option.choices:
                if choice != option.default:
                    try:
                        trickrules.load(name, {key: choice})
                    except SpecError:
                        continue  # a choice that needs another (quadrille-fi's deals = 1 needs deals_multiple_of = 1)
                    yield name, {key: choice}, 1


CONFIGS = list(_configs())


def tables_of(game: Game) -> Arrays:
    """The kernel's tables of ``game`` with the scoring's."""
    return H.kernel_tables(game, S.export)


def _deal_arrays(state: State, d: DealInfo, tally: Tally, board: tuple[int, ...]) -> Arrays:
    """``st`` for deal ``d`` finished with ``tally``, the match as in ``state`` (before the scoring)."""
    game = state.game
    assert isinstance(game, Game)
    st = to_arrays(state)
    deal_to_arrays(game.tables, d, st)
    for seat in range(game.players):
        st[S.B_BOARD + seat] = board[seat]
    S.facts_to_arrays(game, d, st)
    S.tally_to_arrays(tally, st)
    return st


class _Watch:
    """Catches the engine's deal ends and early ends, and checks the kernel on each."""

    def __init__(self, game: Game, tb: Arrays) -> None:
        self.game = game
        self.tb = tb
        self.pending: list[tuple[str, Arrays]] = []
        self.board: tuple[int, ...] = (0,) * game.players
        self.deals = self.early = self.passed = self.refused = 0
        #: Set when a match's totals went past what the kernel carries (the rest of it is not compared).
        self.beyond = False

    def finish(self, orig: Callable[..., State]) -> Callable[..., State]:
        def caught(state: State, hands: Any, d: DealInfo, tally: Tally, events: Any) -> State:
            st = _deal_arrays(state, d, tally, self.board)
            self.pending.append(("score", st))
            try:
                return orig(state, hands, d, tally, events)
            except FormulaError:
                # The engine refuses the deal (a fraction under "exact"): the kernel must say so too.
                self.pending.clear()
                S.score(self.tb, st)
                if not st[S.B_ERROR] and not st[L.OVER]:
                    S.ante(self.tb, st)
                assert st[S.B_ERROR]
                self.refused += 1
                raise

        return caught

    def pass_out(self, orig: Callable[..., State]) -> Callable[..., State]:
        def caught(state: State, d: DealInfo, events: Any) -> State:
            self.pending.append(("passed", _deal_arrays(state, d, state.tally, self.board)))
            return orig(state, d, events)

        return caught

    def ends_early(self, orig: Callable[..., bool]) -> Callable[..., bool]:
        def caught(state: State, d: DealInfo, tally: Tally) -> bool:
            found = orig(state, d, tally)
            st = _deal_arrays(state, d, tally, self.board)
            assert S.ends_early(self.tb, st) == found
            assert st[S.B_ERROR] == 0
            self.early += 1
            return found

        return caught

    def check(self, after: State) -> None:
        """Compare the kernel's scoring of the caught deal with ``after``, the engine's state after it."""
        if not self.pending:
            return
        ((kind, st),) = self.pending
        self.pending.clear()
        game, tb = self.game, self.tb
        if kind == "score":
            S.score(tb, st)
            self.deals += 1
        else:
            S.passed_out(tb, st)
            self.passed += 1
        if not st[L.OVER]:
            S.ante(tb, st)
        m = after.match
        if st[S.B_ERROR]:
            # Only where the engine's totals pass what int64 words carry (the engine goes on to 10**300).
            assert max(abs(x) for x in (*m.scores, m.pot)) > 2**60, f"{game.name}: error {st[S.B_ERROR]}"
            self.beyond = True
            return
        n = game.players
        where = f"{game.name} {dict(game.options)} deal {m.deals_done - 1}"
        scored = next(e for e in after.last_events if isinstance(e, DealScored))
        assert S.outcome_text(game, st) == scored.outcome, where
        if kind == "score":
            names = S.outcome_names(game)
            bits = int(st[L.OUTCOMES]) % 2**64 | (int(st[L.OUTCOMES + 1]) % 2**64) << 64
            assert {names[i] for i in range(len(names)) if bits >> i & 1} == set(scored.outcome.split(", ")) - {
                "none"
            }, where
        deltas = tuple(a - b for a, b in zip(scored.scoreboard, self.board, strict=True))
        assert tuple(int(x) for x in st[L.DELTA : L.DELTA + n]) == deltas, where
        assert tuple(int(x) for x in st[S.B_BOARD : S.B_BOARD + n]) == scored.scoreboard, where
        self.board = scored.scoreboard
        assert tuple(int(x) for x in st[L.SCORES : L.SCORES + n]) == m.scores, where
        assert st[L.POT] == m.pot, where
        assert st[L.DEALS_DONE] == m.deals_done, where
        for c, values in enumerate(m.counters):
            assert tuple(int(x) for x in st[L.COUNTERS + 8 * c : L.COUNTERS + 8 * c + n]) == values, where
        assert bool(st[L.OVER]) == after.is_terminal, where
        if after.is_terminal:
            assert st[S.B_WINNERS] == sum(1 << s for s in m.winners), where
        else:
            assert st[L.NUMBER] == after.deal.number, where
            assert st[L.DEALER] == after.deal.dealer, where
            assert st[L.SHUFFLE] == dealing(after.deal).shuffle, where


def _play(
    game: Game,
    tb: Arrays,
    matches: int,
    seed: int,
    monkeypatch: pytest.MonkeyPatch,
    passes: float = 0.0,
    watch: _Watch | None = None,
) -> _Watch:
    """Play ``matches`` random matches, checking the kernel at every deal's end (``passes``: how often to pass)."""
    watch = watch or _Watch(game, tb)
    monkeypatch.setattr(deal_end, "finish_deal", watch.finish(deal_end.finish_deal))
    monkeypatch.setattr(deal_end, "pass_out", watch.pass_out(deal_end.pass_out))
    monkeypatch.setattr(deal_end, "ends_early", watch.ends_early(deal_end.ends_early))
    for index in range(matches):
        rng = random.Random(seed * 1000 + index)
        state = game.new_match(seed=rng.getrandbits(64), dealer=index % game.players)
        _check_first_ante(tb, state)
        watch.board = (0,) * game.players
        watch.beyond = False
        deals = 0
        while not state.is_terminal and deals < 60 and not watch.beyond:
            legal = state.legal_actions()
            action = legal[int(rng.random() * len(legal))]
            if passes and rng.random() < passes:
                action = next((a for a in legal if a.verb == "pass"), action)
            state = state.apply(action)
            if watch.pending:
                watch.check(state)
                deals += 1
    return watch


def _check_first_ante(tb: Arrays, state: State) -> None:
    """The ante of deal 0, from a match with no scores and no pot, is the engine's."""
    st = to_arrays(state)
    st[L.SCORES : L.SCORES + 8] = 0
    st[L.POT] = 0
    S.ante(tb, st)
    n = state.game.players
    assert tuple(int(x) for x in st[L.SCORES : L.SCORES + n]) == state.match.scores
    assert st[L.POT] == state.match.pot


@pytest.mark.parametrize(("name", "options", "matches"), CONFIGS, ids=[f"{n}-{o}" for n, o, _ in CONFIGS])
def test_scoring_matches_engine(
    name: str, options: dict[str, str], matches: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every deal of random matches scores natively as the engine scores it."""
    game = trickrules.load(name, options)
    try:
        tb = tables_of(game)
    except Unsupported as why:
        pytest.skip(f"unsupported: {why}")
    watch = _play(game, tb, matches, zlib.crc32(f"{name} {sorted(options.items())}".encode()) % 1000, monkeypatch)
    assert watch.deals + watch.passed > 0


@pytest.mark.parametrize(
    ("name", "options"),
    [("euchre", {"stick_the_dealer": "off", "target": "5"}), ("quadrille-no-forced-spadille", {"deals": "4"})],
)
def test_deals_thrown_in(name: str, options: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Deals everyone passed (``pass_out``), with bots that pass nearly always, count as the engine counts them."""
    game = trickrules.load(name, options)
    watch = _play(game, tables_of(game), 10, 7, monkeypatch, passes=0.9)
    assert watch.passed >= 5


FORMULAS = [
    "a + b * c", "a / b", "a // b", "a % b", "(a / b) % c", "(a / b) // (c / 3)", "min(a, b, c)", "max(a, b / 3)",
    "abs(a - b)", "floor(a / 3)", "ceil(a / 3)", "a < b < c", "a <= b == c", "1 if a else 2", "a and b", "a or b",
    "not a", "-a ** 3", "(a / b) ** 2", "2 if a > b else c / 2", "a < b > c != 0", "a != 0 and b / a > 1",
    "1.5 * a", "0.1 + a", "True + a", "a % 2 == 1 or b % 2 == 1", "- (a % -3)", "a % (b / 2)", "a ** 0 + b ** 1",
    "(premium if premium else ceil(stake * rate)) * 3 + (3 if a else 0)", "max(a, b) / min(c, 2) >= a / 7",
]  # fmt: skip
NAMES = {"a": 0, "b": 1, "c": 2, "premium": 3, "stake": 4, "rate": 5}


def _value(rng: random.Random, big: bool) -> int | Fraction | bool:
    kind = rng.randrange(3)
    if big:
        top = 2**60
        return rng.randint(-top, top) if kind else Fraction(rng.randint(-top, top), rng.randint(1, top))
    if kind == 0:
        return rng.randint(-9, 9)
    return Fraction(rng.randint(-20, 20), rng.randint(1, 6)) if kind == 1 else rng.random() < 0.5


@pytest.mark.parametrize("big", [False, True])
def test_formulas_evaluate_as_the_engine(big: bool) -> None:
    """Native formulas give the engine's exact values, or fail where it fails (or where a value passes 62 bits)."""
    rng = random.Random(5)
    vn = np.zeros(8, dtype=np.int64)
    vd = np.ones(8, dtype=np.int64)
    out = np.zeros(OUT_SIZE, dtype=np.int64)
    for source in FORMULAS:
        f = compile_formula(source, NAMES)
        tb = np.array([0, 0, 0, *compile_code(f, NAMES)], dtype=np.int64)
        for _ in range(300):
            env: dict[str, int | Fraction | bool] = {}
            for k, i in NAMES.items():
                env[k] = v = _value(rng, big)
                vn[i], vd[i] = Fraction(v).numerator, Fraction(v).denominator
            try:
                want: Fraction | None = Fraction(f.evaluate(env))
            except FormulaError:
                want = None
            got = Fraction(int(out[0]), int(out[1])) if evaluate(tb, 3, vn, vd, out) else None
            if got is None and want is not None and big:
                continue  # past 62 bits somewhere: the kernel stops, the engine goes on
            assert got == want, (source, env)
            if got is not None:
                assert abs(got.numerator) <= LIMIT
                assert got.denominator <= LIMIT


def test_rounding_as_the_engine() -> None:
    """``rounded`` is ``to_int`` in every mode, halves included, in lowest terms or not; exact refuses fractions."""
    out = np.zeros(2, dtype=np.int64)
    for mode, code in ROUNDING_CODES.items():
        for num in range(-25, 26):
            for den in (1, 2, 3, 4, 6):
                value = Fraction(num, den)
                try:
                    want: int | None = to_int(value, mode)
                except FormulaError:
                    want = None
                ok = rounded(num, den, code, out)  # not in lowest terms: 4/2 is whole
                assert (int(out[0]) if ok else None) == want, (mode, value)


#: For the random overlays: games (chips or points), amounts, roles, rounding modes.
_BASES = {
    "quadrille": ("won", "codille", "remise"),
    "manille": ("deal won",),
    "spades": ("contract made", "contract set"),
}
_BASES |= {"cuatrola": ("hand won", "contract failed"), "whist": ("odd tricks",), "euchre": ("made", "euchred")}
_AMOUNTS = (
    "1", "3", "-2", "tricks", "tricks - 5", "7 / 2", "tricks / 3", "score % 7 - 3", "max(tricks, opp_tricks) * 2",
    "5 if last_trick else -1", "points // 4", "run", "pot", "pot // 3", "pot / 4", "(pot + 1) / 2",
)  # fmt: skip
_ROLES = ("declarer", "partner", "declarer_side", "defenders", "side", "opponents", "player", "others", "all")
_MODES = ("floor", "ceil", "half_up", "half_even", "half_down", "exact")
_COUNTERS = ("tally + tricks", "(tally + run) % 5", "tally / 2 + 1", "max(tally - 1, 0) + (1 if last_trick else 0)")


def _overlay(rng: random.Random, base: str, chips: bool) -> str:
    """A random overlay of ``base`` that changes its scoring: payments, rounding, who each outcome is for."""
    lines = [f'extends = "{base}"', "[scoring]", f'rounding = "{rng.choice(_MODES)}"']
    if chips:
        lines.append(f'ante = "{rng.choice(("4", "1", "2 if extra_deal else 1", "deal % 3 + 1", "pot / 3"))}"')
        lines.append(f'ante_when = "{rng.choice(("never", "first_deal", "every_deal", "empty_pot"))}"')
    for name in _BASES[base]:
        pays = []
        for _ in range(rng.randint(1, 2)):
            amount = rng.choice(_AMOUNTS if chips else _AMOUNTS[:12])
            to = rng.choice(("pot", *_ROLES) if chips else _ROLES)
            pay = f'to = "{to}", amount = "{amount}", split = {str(rng.random() < 0.5).lower()}'
            if chips:
                payer = rng.choice(("pot", *_ROLES))
                remainder = rng.choice(("stays", "declarer", "first_after_dealer"))
                pay += f', from = "{payer}", remainder = "{remainder}"'
            pays.append("{ " + pay + " }")
        lines += [
            "[[scoring.outcomes]]",
            f'name = "{name}"',
            f'for_each = "{rng.choice(("deal", "side", "player"))}"',
            f"pay = [{', '.join(pays)}]",
        ]
    if rng.random() < 0.5:
        lines += [
            "[[scoring.bonuses]]",
            'name = "random bonus"',
            f'for_each = "{rng.choice(("deal", "side", "player"))}"',
            f'when = "{rng.choice(("tricks >= 3", "run >= 2", "last_trick", "True", "tricks * 2 > opp_tricks"))}"',
            f'pay = [{{ to = "{rng.choice(_ROLES)}", amount = "{rng.choice(_AMOUNTS[:12])}"'
            + (', from = "opponents"' if chips else "")
            + " }]",
        ]
    if rng.random() < 0.4:
        lines += ["[[scoring.counters]]", 'name = "tally"', f'update = "{rng.choice(_COUNTERS)}"']
        if rng.random() < 0.5:
            lines += ["[[scoring.bonuses]]", 'name = "counted"', 'when = "tally >= 3"']
            lines.append('pay = [{ to = "side", amount = "tally"' + (', from = "opponents"' if chips else "") + " }]")
    match = [
        f"deals = {rng.choice((3, 8) if chips else (0, 3, 8))}",
        f'tie_break = "{rng.choice(("extra_deal", "shared", "dealer_side"))}"',
    ]
    match.append(f'winner = "{rng.choice(("highest", "lowest"))}"')
    if chips:
        match.append(f'pot_at_end = "{rng.choice(("stays", "shared", "played_out"))}"')
    else:
        match.append(f"target = {rng.choice((5, 20, 60))}")
        if rng.random() < 0.5:
            match += [f"mercy = true, mercy_threshold = {rng.choice((-10, 0, 2))}", f"win_bonus = {rng.randint(0, 9)}"]
    lines.append("[match]")
    lines += [m.replace(", ", "\n") for m in match]
    return "\n".join(lines) + "\n"


def test_random_overlays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Overlays that change the payments, roles, splits, remainders and rounding score as the engine scores them."""
    rng = random.Random(11)
    loaded = deals = refused = 0
    for k in range(200):
        base = rng.choice(sorted(_BASES))
        chips = base == "quadrille"
        path = tmp_path / f"overlay{k}.toml"
        path.write_text(_overlay(rng, base, chips))
        try:
            game = trickrules.load(path)
        except (SpecError, FormulaError):
            continue  # an overlay the loader refuses (a role the game has not, a formula that can fail)
        loaded += 1
        tb = tables_of(game)
        with monkeypatch.context() as m:
            watch = _Watch(game, tb)
            # Where the engine refuses a deal (a fraction under "exact"), the kernel has said so too.
            with contextlib.suppress(FormulaError):
                _play(game, tb, 2, k, m, watch=watch)
            deals += watch.deals
            refused += watch.refused
    print(f"{loaded} overlays, {deals} deals, {refused} refused")
    assert loaded >= 150
    assert deals >= 3000
    assert refused >= 5

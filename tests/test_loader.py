"""Loading specs: bad files fail fast with a SpecError that says where and what; good ones load."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping
from pathlib import Path

import attrs
import pytest

import trickrules
from trickrules import Spec, SpecError
from trickrules.spec.converter import structure, unstructure
from trickrules.spec.loader import MAX_SPEC_BYTES, canonical_spec, fingerprint
from trickrules.spec.model import MatchSpec

ROOT = Path(__file__).resolve().parent.parent
# Frozen copies of the bundled specs: the games' specs change as their rules are filled in,
# and these tests need fixed text to break one thing in.
SPECS = ROOT / "tests" / "fixtures"
# Every bad spec below is a bundled spec with exactly one thing broken, so a test can only
# pass because of the thing it names (the unmodified copies are checked to load, below).
MANILLE = (SPECS / "manille.toml").read_text(encoding="utf-8")
CUATROLA = (SPECS / "cuatrola.toml").read_text(encoding="utf-8")
QUADRILLE = (SPECS / "quadrille.toml").read_text(encoding="utf-8")
BASES = {"manille": MANILLE, "cuatrola": CUATROLA, "quadrille": QUADRILLE}

# A refusal must come well under a second, however hostile the file.
# Seconds: a guard that turns a hang into a failure, not a speed measurement.
FAST = 20.0


def edit(text: str, old: str, new: str) -> str:
    # The anchor must occur exactly once, or the edit might break something else than the
    # test says (and a spec that changed under the test would go unnoticed).
    assert text.count(old) == 1, f"anchor is not unique in the bundled spec: {old!r}"
    return text.replace(old, new)


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def load_error(path: Path | str, options: Mapping[str, object] | None = None) -> str:
    # trickrules.load both structures and compiles, so it finds shape errors and
    # cross-reference errors alike. pytest.raises lets any other exception (a
    # RecursionError, a KeyError) through, which fails the test.
    start = time.perf_counter()
    with pytest.raises(SpecError) as caught:
        trickrules.load(path, options)
    elapsed = time.perf_counter() - start
    assert elapsed < FAST, f"refusing took {elapsed:.2f} s"
    return str(caught.value)


def names_file(message: str, path: Path) -> bool:
    # Messages name the path as given or as resolved (tmp_path may sit behind a symlink).
    return str(path) in message or str(path.resolve()) in message


# --- the unmodified copies load (so the broken ones below fail for their one change) ---


@pytest.mark.parametrize("name", sorted(BASES))
def test_unmodified_copy_of_a_spec_loads_like_the_original(tmp_path: Path, name: str) -> None:
    path = write(tmp_path, f"{name}.toml", BASES[name])
    assert trickrules.load_spec(path) == trickrules.load_spec(SPECS / f"{name}.toml")
    assert trickrules.load(path).name == name


# --- one thing broken: the message names the file, the key path, expected and found ---

# (base spec, anchor, replacement, fragments the message must contain)
BROKEN = [
    pytest.param(
        "manille",
        'name = "manille"\n',
        'colour_scheme = "dark"\nname = "manille"\n',
        ["(top level)", "unknown key 'colour_scheme'"],
        id="unknown-key-at-top-level",
    ),
    pytest.param(
        "manille",
        "[deck]",
        "[deck]\nsuitz = []",
        ["deck: unknown key 'suitz'"],
        id="unknown-key-deck.suitz",
    ),
    pytest.param(
        "manille",
        'pay = [{ to = "side", amount = "min(points - 30, 6) * multiplier" }]',
        'pay = [{ frm = "pot", to = "side", amount = "min(points - 30, 6) * multiplier" }]',
        ["scoring.outcomes[0].pay[0]: unknown key 'frm'"],
        id="unknown-key-scoring.outcomes[0].pay[0].frm",
    ),
    pytest.param(
        "manille",
        "players = 4",
        'players = "4"',
        ["seating.players: expected an integer, found '4'"],
        id="string-for-int",
    ),
    pytest.param(
        "manille",
        'name = "manille"\n',
        "name = 5\n",
        ["name: expected a string, found 5"],
        id="int-for-string",
    ),
    pytest.param(
        "manille",
        "target = 101",
        "target = true",
        ["match.target: expected an integer, found True"],
        id="bool-for-int",
    ),
    pytest.param(
        "manille",
        "allow_none = true",
        'allow_none = "yes"',
        ["trump.allow_none: expected true or false, found 'yes'"],
        id="string-for-bool",
    ),
    pytest.param(
        "manille",
        "allow_none = true",
        "allow_none = 1",
        ["trump.allow_none: expected true or false, found 1"],
        id="int-for-bool",
    ),
    pytest.param(
        "manille",
        "packets = [3, 2, 3]",
        'packets = ["3", 2, 3]',
        ["deal.packets[0]: expected an integer, found '3'"],
        id="string-in-int-list",
    ),
    pytest.param(
        "manille",
        'points = { "10" = 5,',
        'points = { "10" = "5",',
        ["deck.points.10: expected an integer, found '5'"],
        id="string-in-int-table",
    ),
    pytest.param(
        "manille",
        "packets = [3, 2, 3]\n",
        "",
        ["deal.packets: required key missing"],
        id="missing-deal.packets",
    ),
    pytest.param(
        "manille",
        'name = "manille"\n',
        "",
        ["name: required key missing"],
        id="missing-top-level-name",
    ),
    pytest.param(
        "manille",
        '{ code = "S", name = "spades",   colour = "black", symbol = "♠" }',
        '{ code = "S", name = "spades", symbol = "♠" }',
        ["deck.suits[0].colour: required key missing"],
        id="missing-suit-colour",
    ),
    pytest.param(
        "manille",
        'when = "points >= 31"\n',
        "",
        ["scoring.outcomes[0].when: required key missing"],
        id="missing-outcome-when",
    ),
    pytest.param(
        "manille",
        'chosen_by = "dealer"',
        'chosen_by = "me"',
        ["trump.chosen_by", "expected one of", "'declarer'", "'me'"],
        id="unknown-word-trump.chosen_by",
    ),
    pytest.param(
        "manille",
        'rounding = "exact"',
        'rounding = "nearest"',
        ["scoring.rounding", "expected one of", "'half_even'", "'nearest'"],
        id="unknown-word-scoring.rounding",
    ),
    pytest.param(
        "manille",
        'default = ["10", "A", "K", "Q", "J", "9", "8", "7"]',
        'default = ["10", "A", "K", "Q", "J", "9", "8", "7"]\n'
        'red = ["10", "A", "K", "Q", "J", "9", "8", "6"]',
        ["ranks.plain.red: '6' is not a rank in suit 'H'"],
        id="rank-order-names-unknown-rank",
    ),
    pytest.param(
        "manille",
        'default = ["10", "A", "K", "Q", "J", "9", "8", "7"]',
        'default = ["10", "A", "K", "Q", "J", "9", "8", "7"]\n'
        'red = ["10", "A", "K", "Q", "J", "9", "8"]',
        ["ranks.plain.red", "must list each of its cards once", "missing ['7H']"],
        id="rank-order-misses-a-card",
    ),
    pytest.param(
        "manille",
        'default = ["10", "A", "K", "Q", "J", "9", "8", "7"]',
        'default = ["10", "A", "K", "Q", "J", "9", "8", "7"]\n'
        'red = ["10", "A", "K", "Q", "J", "9", "8", "8"]',
        ["ranks.plain.red", "must list each of its cards once", "missing ['7H']"],
        id="rank-order-repeats-a-card-instead-of-another",
    ),
    pytest.param(
        "quadrille",
        "place = 3",
        "place = 5",
        ["trump.promotions: places must be 1, 2, 3, ... without gaps, found [1, 2, 4, 5]"],
        id="promotion-places-with-gap",
    ),
    pytest.param(
        "quadrille",
        'card = "AS"\n',
        'card = "AS"\nrank = { black = "A" }\n',
        ["trump.promotions[0]: give exactly one of 'card' or 'rank'"],
        id="promotion-with-card-and-rank",
    ),
    pytest.param(
        "quadrille",
        'card = "AS"\n',
        "",
        ["trump.promotions[0]: give exactly one of 'card' or 'rank'"],
        id="promotion-with-neither-card-nor-rank",
    ),
    pytest.param(
        "manille",
        "packets = [3, 2, 3]",
        "packets = [3, 3, 3]",
        ["deal.packets: 4 players x 9 cards = 36, but the deck has 32 cards"],
        id="packets-not-matching-deck-size",
    ),
    pytest.param(
        "manille",
        "packets = [3, 2, 3]",
        "packets = [3, 2, 3, 0]",
        ["deal.packets: expected positive packet sizes, found [3, 2, 3, 0]"],
        id="packet-of-zero-cards",
    ),
    pytest.param(
        "cuatrola",
        'name = "solo"',
        'name = "solo grande"',
        ["bidding.contracts[0].name: 'solo grande' must be a single word"],
        id="contract-name-not-one-word",
    ),
    pytest.param(
        "cuatrola",
        'name = "quintola"',
        'name = "solo"',
        ["bidding.contracts: contract names must be distinct", "['solo', 'cuatrola', 'solo']"],
        id="duplicate-contract-names",
    ),
    pytest.param(
        "manille",
        '{ rule = "follow_suit" },',
        '{ rule = "follow_the_leader" },',
        ["play.obligations[0].rule", "expected one of", "'follow_suit'", "'follow_the_leader'"],
        id="unknown-obligation-rule",
    ),
    pytest.param(
        "manille",
        '{ rule = "follow_suit" },',
        '{ rule = "follow_suit", mode = "always" },',
        ["play.obligations[0].mode: not a parameter of 'follow_suit'"],
        id="parameter-not-of-follow_suit",
    ),
    pytest.param(
        "manille",
        '{ rule = "overtrump", if_unable = "any" }',
        '{ rule = "overtrump", if_unable = "any", cards = ["Manille"] }',
        ["play.obligations[2].cards: not a parameter of 'overtrump'"],
        id="parameter-not-of-overtrump",
    ),
    pytest.param(
        "manille",
        '{ rule = "overtrump", if_unable = "any" }',
        '{ rule = "overtrump", if_unable = "any" }, { rule = "no_undertrump", mode = "always" }',
        ["play.obligations[3].mode: not a parameter of 'no_undertrump'"],
        id="parameter-not-of-no_undertrump",
    ),
    pytest.param(
        "quadrille",
        'cards = ["Spadille", "Manille", "Basto"], forced_by = "higher_lead" }',
        'cards = ["Spadille", "Manille", "Basto"], forced_by = "higher_lead", mode = "lone" }',
        ["play.obligations[1].mode: expected one of ['only_privileged', 'sole_trump'], found 'lone'"],
        id="unknown-privileged-mode",
    ),
    pytest.param(
        "manille",
        '{ rule = "trump_when_void", mode = "always" }',
        '{ rule = "trump_when_void", mode = "sometimes" }',
        ["play.obligations[1].mode: expected one of ['always', 'if_beats'], found 'sometimes'"],
        id="unknown-obligation-mode",
    ),
    pytest.param(
        "manille",
        '{ rule = "trump_when_void", mode = "always" },',
        '{ rule = "trump_when_void", mode = "always" }, { rule = "follow_suit" },',
        ["play.obligations[2]: the rule 'follow_suit' is listed twice"],
        id="obligation-listed-twice",
    ),
    pytest.param(
        "manille",
        'vars = { multiplier = "2 if no_trump else 1" }',
        'vars = { multiplier = "2 if no_trumps else 1" }',
        ["scoring.vars.multiplier: the name 'no_trumps' is not a variable", "no_trump"],
        id="scoring-var-with-unknown-variable",
    ),
    pytest.param(
        "manille",
        'when = "points >= 31"',
        'when = "top_trumps >= 1"',
        ["scoring.outcomes[0].when: the name 'top_trumps' is not a variable"],
        id="player-variable-in-side-outcome",
    ),
]


@pytest.mark.parametrize(("base", "old", "new", "fragments"), BROKEN)
def test_broken_spec_fails_fast_naming_file_path_and_problem(
    tmp_path: Path, base: str, old: str, new: str, fragments: list[str]
) -> None:
    path = write(tmp_path, f"broken_{base}.toml", edit(BASES[base], old, new))
    message = load_error(path)
    assert names_file(message, path), message
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"


# Formulas are checked where they are written: the message gives that key path. FORMULA in
# each template stands for the formula. Each place gets a name that is not a variable there
# and three constructs that are refused.
FORMULA_PLACES = [
    pytest.param(
        "manille",
        'when = "points >= 31"',
        'when = "FORMULA"',
        "scoring.outcomes[0].when",
        id="when",
    ),
    pytest.param(
        "manille",
        'amount = "min(points - 30, 6) * multiplier"',
        'amount = "FORMULA"',
        "scoring.outcomes[0].pay[0].amount",
        id="amount",
    ),
    pytest.param(
        "cuatrola",
        'vars = { value = "2" }\neligible = "not (score >= target - 4 and score + value > target)"',
        'vars = { value = "2" }\neligible = "FORMULA"',
        "bidding.contracts[0].eligible",
        id="eligible",
    ),
    pytest.param(
        "cuatrola",
        'vars = { value = "2" }',
        'vars = { value = "FORMULA" }',
        "bidding.contracts[0].vars.value",
        id="contract-vars",
    ),
]
BAD_FORMULAS = [
    pytest.param("bogus_total + 1", "the name 'bogus_total' is not a variable", id="unknown-var"),
    pytest.param("().__class__.__bases__", "attribute access", id="dunder-bases"),
    pytest.param("9**9**9", "the exponent of '**' must be a whole-number literal", id="pow-tower"),
    pytest.param(
        "__import__('os')", "calling '__import__' is not allowed in a formula", id="import"
    ),
]


@pytest.mark.parametrize(("base", "old", "template", "key_path"), FORMULA_PLACES)
@pytest.mark.parametrize(("formula", "problem"), BAD_FORMULAS)
def test_bad_formula_fails_at_load_naming_its_key(
    tmp_path: Path, base: str, old: str, template: str, key_path: str, formula: str, problem: str
) -> None:
    path = write(
        tmp_path, "formula.toml", edit(BASES[base], old, template.replace("FORMULA", formula))
    )
    message = load_error(path)
    assert names_file(message, path), message
    assert f"{key_path}: " in message
    assert problem in message


def test_eligibility_formula_may_not_use_deal_results(tmp_path: Path) -> None:
    # A bid is made before any trick is played, so 'tricks' is not an eligibility variable;
    # the message lists the ones that are.
    text = edit(
        CUATROLA,
        'vars = { value = "2" }\neligible = "not (score >= target - 4 and score + value > target)"',
        'vars = { value = "2" }\neligible = "tricks > 2"',
    )
    message = load_error(write(tmp_path, "eligible.toml", text))
    assert "bidding.contracts[0].eligible: the name 'tricks' is not a variable" in message
    assert "allowed: deal, opp_score, players, score, target, value" in message


def test_several_shape_problems_are_reported_together(tmp_path: Path) -> None:
    text = edit(MANILLE, "players = 4", 'players = "4"\nfoo = 1\nbar = 2')
    message = load_error(write(tmp_path, "several.toml", text))
    assert "seating.players: expected an integer" in message
    assert "seating: unknown key 'bar', 'foo'" in message


# --- hostile files ---


def test_file_over_256_kib_is_refused_before_parsing(tmp_path: Path) -> None:
    # One byte over the limit; the padding is a comment, so only the size is wrong.
    padding = MAX_SPEC_BYTES + 1 - len(MANILLE.encode()) - 2
    path = write(tmp_path, "big.toml", MANILLE + "\n#" + "x" * padding)
    message = load_error(path)
    assert names_file(message, path)
    assert f"the file is {MAX_SPEC_BYTES + 1} bytes; specs are limited to {MAX_SPEC_BYTES}" in (
        message
    )


def test_file_of_several_mib_is_refused_quickly(tmp_path: Path) -> None:
    # Not valid TOML either: the size check must come first and not read it all.
    path = write(tmp_path, "huge.toml", b"[" * (4 * 1024 * 1024))
    assert "specs are limited to" in load_error(path)


def test_file_of_exactly_256_kib_loads(tmp_path: Path) -> None:
    padding = MAX_SPEC_BYTES - len(MANILLE.encode()) - 2
    path = write(tmp_path, "at_limit.toml", MANILLE + "\n#" + "x" * padding)
    assert path.stat().st_size == MAX_SPEC_BYTES
    assert trickrules.load(path).name == "manille"


def test_invalid_utf8_is_refused_with_byte_offset(tmp_path: Path) -> None:
    data = MANILLE.encode() + b"\n# \xff\xfe\n"
    path = write(tmp_path, "latin.toml", data)
    message = load_error(path)
    assert names_file(message, path)
    assert f"not valid UTF-8 at byte {len(MANILLE.encode()) + 3}" in message


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param('title = "Manille"', 'title = "Manille"\ntitle = "Other"', id="key"),
        pytest.param("[match]", "[match]\ndeals = 3\n[match]", id="table"),
    ],
)
def test_duplicate_toml_keys_are_refused(tmp_path: Path, old: str, new: str) -> None:
    # tomllib refuses duplicates itself; a later value must never silently win.
    path = write(tmp_path, "dup.toml", edit(MANILLE, old, new))
    message = load_error(path)
    assert names_file(message, path)
    assert "not valid TOML" in message
    assert "line" in message


FLOATS = [
    pytest.param("target = 101", "target = 101.0", "match.target", "101.0", id="whole-float"),
    pytest.param(
        'points = { "10" = 5,', 'points = { "10" = 5.5,', "deck.points.10", "5.5", id="in-table"
    ),
    pytest.param("target = 101", "target = nan", "match.target", "nan", id="nan"),
    pytest.param("target = 101", "target = inf", "match.target", "inf", id="inf"),
    pytest.param("target = 101", "target = 1e3", "match.target", "1000.0", id="exponent"),
    pytest.param(
        'name = "manille"\n', 'x = -inf\nname = "manille"\n', "x", "-inf", id="unused-key"
    ),
    pytest.param(
        "packets = [3, 2, 3]", "packets = [3, 2.0, 3]", "deal.packets[1]", "2.0", id="in-array"
    ),
    pytest.param(
        "scoring.last_trick_bonus = 1",
        "scoring.last_trick_bonus = 1.0",
        "options.last_trick_bonus.choices.on.scoring.last_trick_bonus",
        "1.0",
        id="in-option-patch",
    ),
]


@pytest.mark.parametrize(("old", "new", "key_path", "shown"), FLOATS)
def test_floats_are_refused_anywhere(
    tmp_path: Path, old: str, new: str, key_path: str, shown: str
) -> None:
    path = write(tmp_path, "float.toml", edit(MANILLE, old, new))
    message = load_error(path)
    assert names_file(message, path)
    assert f"{key_path}: floating-point value {shown} is not accepted" in message


def test_float_in_choose_table_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "choose_float.toml", MANILLE + "\n[choose]\nlast_trick_bonus = 0.5\n")
    assert "choose.last_trick_bonus: floating-point value 0.5" in load_error(path)


@pytest.mark.parametrize("value", [2**53 + 1, -(2**53) - 1, 2**64])
def test_integer_beyond_2_to_53_is_refused(tmp_path: Path, value: int) -> None:
    path = write(tmp_path, "bigint.toml", edit(MANILLE, "target = 101", f"target = {value}"))
    message = load_error(path)
    assert names_file(message, path)
    assert "match.target: integer out of range (at most 2**53 in magnitude)" in message


def test_integer_of_exactly_2_to_53_is_accepted(tmp_path: Path) -> None:
    path = write(tmp_path, "maxint.toml", edit(MANILLE, "target = 101", f"target = {2**53}"))
    assert trickrules.load_spec(path).match.target == 2**53


DEEP = 10_000


@pytest.mark.parametrize(
    "prefix",
    [
        pytest.param("x = " + "[" * DEEP + "]" * DEEP + "\n", id="inline-arrays"),
        pytest.param("x = " + "{ a = " * DEEP + "1" + " }" * DEEP + "\n", id="inline-tables"),
    ],
)
def test_ten_thousand_deep_nesting_fails_fast_with_spec_error(tmp_path: Path, prefix: str) -> None:
    # Not a RecursionError (load_error lets that through and the test fails).
    path = write(tmp_path, "deep.toml", prefix + MANILLE)
    message = load_error(path)
    assert names_file(message, path)
    assert "nested" in message


def test_ten_thousand_deep_table_header_fails_fast_with_spec_error(tmp_path: Path) -> None:
    # A dotted header is read without recursion, so the depth check itself must catch it.
    path = write(tmp_path, "deep_header.toml", MANILLE + "\n[" + ".".join(["a"] * DEEP) + "]\n")
    message = load_error(path)
    assert names_file(message, path)
    assert "nested more than 12 levels deep" in message


def test_nesting_just_over_the_limit_names_the_key_path(tmp_path: Path) -> None:
    path = write(tmp_path, "deep13.toml", "x = " + "[" * 13 + "]" * 13 + "\n" + MANILLE)
    message = load_error(path)
    assert "x" + "[0]" * 12 + ": nested more than 12 levels deep" in message


def test_too_many_values_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "many.toml", "x = [" + "1," * 50_001 + "]\n" + MANILLE)
    assert "the document holds more than 50000 values" in load_error(path)


def test_dates_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "date.toml", "x = 1979-05-27\n" + MANILLE)
    assert "x: dates and times are not part of the DSL" in load_error(path)


def test_toml_file_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "prose.toml", "Manille is played by four players { in pairs.\n")
    message = load_error(path)
    assert names_file(message, path)
    assert "not valid TOML" in message


def test_directory_path_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "specs.toml"
    folder.mkdir()
    assert names_file(load_error(folder), folder)


def test_missing_file_is_refused(tmp_path: Path) -> None:
    missing = tmp_path / "missing.toml"
    message = load_error(missing)
    assert names_file(message, missing)
    assert "nor a spec file that exists" in message


def test_unknown_bundled_name_lists_the_bundled_ones() -> None:
    message = load_error("no-such-game")
    assert "'no-such-game' is neither a bundled game (" in message
    assert all(name in message for name in ("cuatrola", "manille", "quadrille"))


# --- options ---


def test_unknown_option_name_is_refused_listing_the_options() -> None:
    message = load_error("manille", {"nope": "x"})
    assert "manille.toml: unknown option 'nope'" in message
    assert "deal_packets" in message


def test_unknown_option_choice_is_refused_listing_the_choices() -> None:
    message = load_error("manille", {"deal_packets": "5-5"})
    assert "option 'deal_packets' has no choice '5-5' (choices: 3-2-3, 4-4)" in message


def test_true_and_false_choose_on_and_off() -> None:
    on = trickrules.load("manille", {"last_trick_bonus": True})
    off = trickrules.load("manille", {"last_trick_bonus": False})
    assert on.options["last_trick_bonus"] == on.spec.chosen["last_trick_bonus"] == "on"
    assert off.options["last_trick_bonus"] == "off"
    assert (on.spec.scoring.last_trick_bonus, off.spec.scoring.last_trick_bonus) == (1, 0)


def test_true_for_an_option_without_on_choice_is_refused() -> None:
    assert "option 'deal_packets' has no choice 'on'" in load_error(
        "manille", {"deal_packets": True}
    )


def test_chosen_option_patches_the_spec() -> None:
    spec = trickrules.load_spec("manille", {"match_end": "12"})
    assert spec.match == MatchSpec(deals=12, target=0, tie_break="extra_deal")
    assert trickrules.load_spec("manille").match == MatchSpec(target=101, tie_break="dealer_side")


def test_option_default_that_is_not_a_choice_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "opt.toml", edit(MANILLE, 'default = "3-2-3"', 'default = "5-5"'))
    message = load_error(path)
    assert "options.deal_packets.default: expected one of ['3-2-3', '4-4'], found '5-5'" in (
        message
    )


def test_option_patch_with_unknown_key_is_refused(tmp_path: Path) -> None:
    # The patch is merged into the spec, so its typo is caught like any other.
    text = edit(MANILLE, "scoring.last_trick_bonus = 1", "scoring.last_trik_bonus = 1")
    path = write(tmp_path, "opt.toml", text)
    assert "scoring: unknown key 'last_trik_bonus'" in load_error(path, {"last_trick_bonus": "on"})


# --- good specs ---


@pytest.mark.parametrize("name", trickrules.bundled_names())
def test_bundled_spec_loads_with_default_choices(name: str) -> None:
    game = trickrules.load(name)
    spec = game.spec
    assert game.name == spec.name == name
    if spec.variant is None:  # an overlay may choose options of its own
        assert dict(spec.chosen) == {key: option.default for key, option in spec.options.items()}
    assert game.new_match(seed=1).to_move is not None


def test_load_spec_returns_a_frozen_spec() -> None:
    spec = trickrules.load_spec("quadrille")
    assert isinstance(spec, Spec)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        spec.name = "other"  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        spec.deck.removed = ("AS",)  # type: ignore[misc]
    # Collections are tuples and read-only mappings all the way down.
    assert isinstance(spec.scoring.outcomes, tuple)
    with pytest.raises(TypeError):
        spec.scoring.vars["stake"] = "5"  # type: ignore[index]
    assert hash(spec) == hash(trickrules.load_spec("quadrille"))


def test_fingerprint_is_stable_and_follows_options() -> None:
    first = fingerprint(trickrules.load_spec("manille"))
    assert first == fingerprint(trickrules.load_spec("manille"))
    assert first == trickrules.load("manille").fingerprint
    assert len(first) == 16
    changed = fingerprint(trickrules.load_spec("manille", {"deal_packets": "4-4"}))
    assert changed != first
    # Choosing the default explicitly is the same spec, so the same fingerprint.
    assert fingerprint(trickrules.load_spec("manille", {"deal_packets": "3-2-3"})) == first


@pytest.mark.parametrize("name", trickrules.bundled_names())
def test_fingerprint_digests_the_spec_without_its_defaults_and_loses_nothing(name: str) -> None:
    """A DSL field added later with a neutral default must not change old games' fingerprints (and logs)."""
    spec = trickrules.load_spec(name)
    canonical = canonical_spec(spec)
    # Nothing is lost: the defaults left out come back when the canonical form is read.
    assert structure(canonical, Spec) == spec
    assert len(json.dumps(canonical)) < len(json.dumps(unstructure(spec)))
    assert fingerprint(spec) == hashlib.sha256(
        json.dumps(canonical, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()[:16]


def test_a_field_away_from_its_default_is_digested() -> None:
    plain = trickrules.load_spec("quadrille-fi")
    chosen = trickrules.load_spec("quadrille-fi", {"queen_call_may_be_trump": "on"})
    assert "allow_trump_fallback" not in canonical_spec(plain)["calling"]
    assert "pot_at_end" not in canonical_spec(trickrules.load_spec("manille"))["match"]
    assert canonical_spec(chosen)["calling"]["allow_trump_fallback"] is True
    assert fingerprint(chosen) != fingerprint(plain)


ROUND_TRIPS = [
    *[pytest.param(name, {}, id=name) for name in trickrules.bundled_names()],
    pytest.param("manille", {"revoke": "penalise", "scoring": "difference"}, id="manille-opts"),
    pytest.param("quadrille", {"forced_spadille": "off"}, id="quadrille-opts"),
]


@pytest.mark.parametrize(("name", "options"), ROUND_TRIPS)
def test_spec_round_trips_exactly_through_the_converter(name: str, options: dict[str, str]) -> None:
    spec = trickrules.load_spec(name, options)
    data = unstructure(spec)
    again = structure(data, Spec)
    assert again == spec
    assert unstructure(again) == data
    assert fingerprint(again) == fingerprint(spec)


def test_payment_from_is_spelt_from_outside() -> None:
    data = unstructure(trickrules.load_spec("quadrille"))
    payment = data["scoring"]["outcomes"][0]["pay"][0]
    assert payment["from"] == "pot"
    assert "from_" not in payment


# --- engine bugs found while writing these tests (see the reasons) ---


def test_rank_order_with_an_extra_repeated_card_names_it(tmp_path: Path) -> None:
    text = edit(
        MANILLE,
        'default = ["10", "A", "K", "Q", "J", "9", "8", "7"]',
        'default = ["10", "A", "K", "Q", "J", "9", "8", "7"]\n'
        'red = ["10", "A", "K", "Q", "J", "9", "8", "7", "7"]',
    )
    message = load_error(write(tmp_path, "repeat.toml", text))
    assert "ranks.plain.red" in message
    assert "7H" in message


@pytest.mark.parametrize(
    ("base", "old", "new", "key_path"),
    [
        pytest.param("quadrille", 'ranks = ["K"]', 'ranks = "K"', "calling.ranks", id="string"),
        pytest.param(
            "cuatrola",
            'contracts = [""]',
            'contracts = ""',
            "scoring.outcomes[0].contracts",
            id="empty",
        ),
        pytest.param(
            "quadrille", 'ranks = ["K"]', "ranks = { K = 1 }", "calling.ranks", id="table"
        ),
    ],
)
def test_string_or_table_where_a_list_is_expected_is_refused(
    tmp_path: Path, base: str, old: str, new: str, key_path: str
) -> None:
    message = load_error(write(tmp_path, "notalist.toml", edit(BASES[base], old, new)))
    assert key_path in message


def test_trump_when_void_without_follow_suit_is_refused(tmp_path: Path) -> None:
    text = edit(MANILLE, '{ rule = "follow_suit" },', "")
    message = load_error(write(tmp_path, "no_follow.toml", text))
    assert "play.obligations" in message
    assert "follow_suit" in message


def test_game_without_contracts_needs_someone_to_fix_trumps(tmp_path: Path) -> None:
    text = edit(MANILLE, 'chosen_by = "dealer"', 'chosen_by = "declarer"')
    message = load_error(write(tmp_path, "no_chooser.toml", text))
    assert "trump.chosen_by" in message


def test_scoring_var_referring_to_itself_is_refused(tmp_path: Path) -> None:
    text = edit(
        MANILLE,
        'vars = { multiplier = "2 if no_trump else 1" }',
        'vars = { multiplier = "multiplier + 1" }',
    )
    message = load_error(write(tmp_path, "selfref.toml", text))
    assert "scoring.vars.multiplier" in message


def test_unknown_key_in_option_table_is_refused(tmp_path: Path) -> None:
    text = edit(
        MANILLE,
        'doc = "Packet sizes when dealing."',
        'doc = "Packet sizes when dealing."\ndefualt = "4-4"',
    )
    message = load_error(write(tmp_path, "opt_typo.toml", text))
    assert "options.deal_packets" in message
    assert "defualt" in message

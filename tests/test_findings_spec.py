"""Regressions for the spec side of issue #16 ("nothing hangs, nothing crashes"), named after the findings.

* Finding 3: small specs that hung the loader (a 40 x 40 deck, an overlay
  merging 16,500 named outcomes, the same through an option's patch). Every
  limit is now chosen so that any spec within them loads in well under a
  second; the worst cases near the limits are built here and must load, or
  be refused, quickly (``FAST`` is a generous guard against a hang on a
  noisy machine, not a speed measurement).
* Finding 4: a 5,000-digit integer gave a bare ``ValueError`` (a traceback
  from the command line); a scoring variable named ``if`` was blamed on a
  payment's amount.
* Finding 9: a formula that divides by a variable that can be 0 was
  accepted, and the deal that hit it could never finish.
"""

from __future__ import annotations

import copy
import random
import re
import string
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trickrules
from trickrules import FormulaError, SpecError, State
from trickrules.spec.limits import (
    MAX_CARDS,
    MAX_FORMULA_NODES,
    MAX_FORMULAS,
    MAX_ITEMS,
    MAX_SPEC_BYTES,
    MAX_TEXT,
    SECTION_LIMITS,
    key_path,
)
from trickrules.spec.loader import MergeError, merge

ROOT = Path(__file__).resolve().parent.parent
WHIST = (ROOT / "specs" / "whist.toml").read_text(encoding="utf-8")
#: Seconds: a guard that turns a hang into a failure, not a speed measurement (each case takes well under 1 s).
FAST = 5.0
LETTERS = string.ascii_letters


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def timed(call: Callable[[], object]) -> tuple[float, object]:
    """How long ``call()`` took, and what it gave or raised (a library error)."""
    start = time.perf_counter()
    try:
        result: object = call()
    except trickrules.TrickrulesError as exc:
        result = exc
    return time.perf_counter() - start, result


def refusal(path: Path | str, options: dict[str, Any] | None = None) -> str:
    elapsed, result = timed(lambda: trickrules.load(path, options))
    assert isinstance(result, SpecError), f"loaded: {result!r}"
    assert elapsed < FAST, f"refusing took {elapsed:.2f} s"
    return str(result)


def deck_spec(suits: int, ranks: int, players: int = 4, extra: str = "", trump: str = "dealer") -> str:
    """A spec of ``suits`` x ``ranks`` cards, all dealt, trumps named by the dealer (or none)."""
    suit_list = ", ".join(
        f'{{ code = "{LETTERS[i % 52]}{i // 52 or ""}", name = "s{i}", colour = "{("red", "black")[i % 2]}" }}'
        for i in range(suits)
    )
    rank_list = ", ".join(f'{{ code = "{i}", name = "r{i}" }}' for i in range(ranks))
    order = ", ".join(f'"{i}"' for i in range(ranks))
    hand = suits * ranks // players
    return f"""name = "big"
title = "Big"
[deck]
suits = [{suit_list}]
ranks = [{rank_list}]
points = {{ "0" = 11, "1" = -3 }}
[ranks.plain]
default = [{order}]
[trump]
chosen_by = "{trump}"
allow_none = true
[seating]
players = {players}
[deal]
packets = [{hand}]
[play]
obligations = [{{ rule = "follow_suit" }}, {{ rule = "trump_when_void" }}, {{ rule = "overtrump" }}]
[[scoring.outcomes]]
name = "odd tricks"
for_each = "side"
when = "tricks > 6"
pay = [{{ to = "side", amount = "tricks - 6" }}]
[match]
target = 5
{extra}"""


def whist_with(scoring: str = "", tail: str = "", outcomes: bool = True) -> str:
    """Whist with lines added to its ``[scoring]`` table and at its end (and without its outcome)."""
    text = WHIST.replace('rounding = "exact"\n', 'rounding = "floor"\n' + scoring)
    if not outcomes:
        text = text[: text.index("[[scoring.outcomes]]")] + "[match]\ntarget = 5\n"
    return text + tail


def play_some(game: trickrules.Game, steps: int = 300) -> State:
    rng = random.Random(1)
    state = game.new_match(seed=1)
    for _ in range(steps):
        if state.is_terminal:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


# -- finding 3: nothing within the limits is slow ------------------------------------------------


def test_finding3_large_deck_loads_fast(tmp_path: Path) -> None:
    """A 40 x 40 deck took 19 s to load, a 100 x 100 one 14 minutes; the largest decks allowed load at once."""
    for suits, ranks in ((16, 16), (4, 64), (2, 128)):
        if ranks > SECTION_LIMITS["deck.ranks"][0]:
            continue
        path = write(tmp_path, f"deck{suits}x{ranks}.toml", deck_spec(suits, ranks))
        elapsed, game = timed(lambda path=path: trickrules.load(path))  # type: ignore[misc]
        assert isinstance(game, trickrules.Game), game
        assert game.cards.size == MAX_CARDS
        assert len(game.cards.trumps) == suits + 1  # a table per trump suit, and one without trumps
        assert elapsed < FAST, f"{suits} x {ranks} took {elapsed:.2f} s"
        play_some(game)


@pytest.mark.parametrize(
    ("suits", "ranks", "message"),
    [
        (16, 17, "deck: 16 suits of 17 ranks, less 0 removed, make 272 cards; at most 256 are allowed."),
        (40, 40, "deck.suits: 40 suits; at most 16 are allowed."),
        (100, 100, "deck.suits: 100 suits; at most 16 are allowed."),
        (4, 65, "deck.ranks: 65 ranks; at most 64 are allowed."),
    ],
)
def test_finding3_a_deck_beyond_the_limits_is_refused_at_once_naming_the_limit(
    tmp_path: Path, suits: int, ranks: int, message: str
) -> None:
    assert message in refusal(write(tmp_path, "deck.toml", deck_spec(suits, ranks)))


def _short_names(n: int) -> list[str]:
    return [LETTERS[i % 52] + LETTERS[(i // 52) % 52] + LETTERS[i // 2704] for i in range(n)]


def test_finding3_an_overlay_merging_16500_named_outcomes_is_refused_fast(tmp_path: Path) -> None:
    """It took 57 s (a quadratic search by name while merging); it is refused in a fraction of a second."""
    items = ",".join(f'{{name="{name}"}}' for name in _short_names(16_500))
    path = write(tmp_path, "merge.toml", f'extends = "whist"\nscoring.outcomes = [{items}]\n')
    assert f"scoring.outcomes: 16501 items; at most {MAX_ITEMS} are allowed." in refusal(path)


def test_finding3_an_option_patch_merging_16500_named_outcomes_is_refused_fast(tmp_path: Path) -> None:
    """The same through an option's patch took 7 to 10 s before its error."""
    items = ",".join(f'{{name="{name}"}}' for name in _short_names(16_500))
    option = '[options.big]\ndefault = "on"\nchoices.off = {}\n'
    text = f'extends = "whist"\n{option}choices.on.scoring.outcomes = [{items}]\n'
    message = refusal(write(tmp_path, "option.toml", text))
    assert f"options.big.choices.on.scoring.outcomes: 16500 items; at most {MAX_ITEMS}" in message


def _merge_by_search(base: list[Any], patch: list[Any], key: str) -> list[Any]:
    """The merge of named arrays as the loader did it before (a search along the array per element)."""
    result = [dict(item) for item in base]

    def index_of(name: object) -> int | None:
        return next((n for n, item in enumerate(result) if item[key] == name), None)

    for item in patch:
        name = item[key]
        body = {k: v for k, v in item.items() if k not in ("remove", "before")}
        at = index_of(name)
        if item.get("remove") is True:
            if at is None:
                raise MergeError("remove")
            del result[at]
            continue
        if at is not None:
            if "before" in item:
                raise MergeError("before")
            result[at] = merge(result[at], body)
            continue
        before = item.get("before")
        if before is None:
            result.append(copy.deepcopy(body))
            continue
        place = index_of(before)
        if place is None:
            raise MergeError("before")
        result.insert(place, copy.deepcopy(body))
    named = [item[key] for item in patch if item.get("remove") is not True]
    if all(item[key] in named for item in base if index_of(item[key]) is not None):
        result.sort(key=lambda item: named.index(item[key]) if item[key] in named else len(named))
    return result


_NAMES = st.sampled_from("abcdef")
_ELEMENT = st.fixed_dictionaries({"name": _NAMES}, optional={"v": st.integers(0, 3)})
_PATCH_ELEMENT = st.fixed_dictionaries(
    {"name": _NAMES}, optional={"v": st.integers(0, 3), "remove": st.just(True), "before": _NAMES}
)


@settings(max_examples=300, derandomize=True, deadline=None, database=None)
@given(base=st.lists(_ELEMENT, min_size=1, max_size=6), patch=st.lists(_PATCH_ELEMENT, min_size=1, max_size=6))
def test_finding3_merging_named_arrays_in_linear_time_agrees_with_the_plain_rule(
    base: list[dict[str, Any]], patch: list[dict[str, Any]]
) -> None:
    try:
        expected: Any = _merge_by_search(base, patch, "name")
    except MergeError:
        expected = MergeError
    try:
        found: Any = merge(base, patch)
    except MergeError:
        found = MergeError
    assert found == expected


def _named(n: int, extra: str = "") -> str:
    return "[" + ",".join(f'{{name="n{i}"{extra}}}' for i in range(n)) + "]"


def _options_patching_a_long_array() -> str:
    most = SECTION_LIMITS["options"][0]
    options = "".join(
        f'[options.o{k}]\ndefault = "on"\nchoices.off = {{}}\nchoices.on.foo = [{{name = "new{k}", before = "n{k}"}}]\n'
        for k in range(most)
    )
    return f"foo = {_named(MAX_ITEMS - most)}\n{WHIST}\n{options}"


def _overlay_chain(tmp_path: Path) -> str:
    """Five files, each merging an array of 1,000 named tables over the one it extends, in the other order."""
    parent = ""
    for level in range(5):
        order = range(1000) if level % 2 == 0 else reversed(range(1000))
        body = "foo = [" + ",".join(f'{{name="n{i}", v{level} = {level}}}' for i in order) + "]\n"
        head = f'extends = "{parent}"\n' if parent else ""
        write(tmp_path, f"chain{level}.toml", head + body + ("" if parent else WHIST))
        parent = f"chain{level}.toml"
    return (tmp_path / parent).read_text(encoding="utf-8")


def _formulas_at_the_limits(nodes_each: int) -> str:
    """Whist with 64 named vars, 128 outcomes and 5 bonuses of 7 formulas each: 996 formulas in all."""
    names = [f"a{i}" for i in range(64)]
    variables = "vars = { " + ", ".join(f'{name} = "tricks"' for name in names) + " }\n"
    formula = "<".join(names[k % 64] for k in range(nodes_each - 1))
    pays = ", ".join(f'{{ to = "side", amount = "{formula}" }}' for _ in range(6))
    items = [
        f'[[scoring.{kind}]]\nname = "o{n}"\nfor_each = "side"\nwhen = "{formula}"\npay = [{pays}]\n'
        for kind, count in (("outcomes", 128), ("bonuses", 5))
        for n in range(count)
    ]
    return whist_with(scoring=variables, tail="\n".join(items), outcomes=False)


def _long_formulas(nodes: int) -> str:
    """Whist whose formulas are chains of comparisons, 167 parts each, ``nodes`` parts in all."""
    formula = "<".join(["a"] * 166)
    outcomes = [
        f'[[scoring.outcomes]]\nname = "o{n}"\nfor_each = "side"\nwhen = "{formula}"\n' for n in range(nodes // 167)
    ]
    return whist_with(scoring='vars = { a = "tricks" }\n', tail="\n".join(outcomes), outcomes=False)


def _contracts(count: int, variables: int) -> str:
    """Manille with ``count`` contracts of ``variables`` vars each (more formulas than allowed)."""
    own = "{ " + ", ".join(f'v{i} = "tricks + {i}"' for i in range(variables)) + " }"
    ladder = "".join(f'[[bidding.contracts]]\nname = "c{n}"\nvars = {own}\n' for n in range(count))
    return 'extends = "whist"\ntrump.chosen_by = "declarer"\n' + ladder


def _everything_at_once() -> str:
    """The largest deck, 996 formulas and 128 options whose patches change the outcomes, in one spec."""
    deck = deck_spec(16, 16)
    deck = deck[: deck.index("[[scoring.outcomes]]")] + deck[deck.index("[match]") :]
    names = [f"a{i}" for i in range(64)]
    variables = "[scoring]\nvars = { " + ", ".join(f'{name} = "tricks"' for name in names) + " }\n"
    pays = ", ".join('{ to = "side", amount = "a0 < a1 < a2" }' for _ in range(6))
    items = "".join(
        f'[[scoring.{kind}]]\nname = "o{n}"\nfor_each = "side"\nwhen = "a0 < a1 < a2"\npay = [{pays}]\n'
        for kind, count in (("outcomes", 128), ("bonuses", 5))
        for n in range(count)
    )
    patch = 'choices.on.scoring.outcomes = [{{name = "o{k}", when = "a1 < a2"}}]'
    options = "".join(f'[options.o{k}]\ndefault = "on"\nchoices.off = {{}}\n{patch.format(k=k)}\n' for k in range(128))
    return deck + variables + items + options


#: Near-limit worst cases: a builder of the spec's text (given a folder for extra files), and a
#: fragment of the refusal ("" when the spec loads).
WORST_CASES: dict[str, tuple[Callable[[Path], str], str]] = {
    "largest deck, 17 trump tables": (lambda _: deck_spec(16, 16), ""),
    "largest deck, 8 players": (lambda _: deck_spec(16, 16, players=8), ""),
    "longest suits": (lambda _: deck_spec(4, 64), ""),
    "996 formulas of 4 parts": (lambda _: _formulas_at_the_limits(4), ""),
    "formulas of 167 parts up to the budget": (lambda _: _long_formulas(MAX_FORMULA_NODES - 200), ""),
    "formulas of 167 parts past the budget": (lambda _: _long_formulas(MAX_FORMULA_NODES + 400), "parts together"),
    "more formulas than allowed": (lambda _: _contracts(32, 64), f"more than {MAX_FORMULAS} formulas"),
    "formulas nested 39 deep": (
        lambda _: whist_with(
            tail="".join(
                f'[[scoring.bonuses]]\nname = "b{n}"\nwhen = "{"(" * 38}tricks{")" * 38}"\n' for n in range(100)
            )
        ),
        "",
    ),
    "128 options patching an array of 1,024 named tables": (
        lambda _: _options_patching_a_long_array(),
        "unknown key 'foo'",
    ),
    "five files merging arrays of 1,000 named tables": (_overlay_chain, "unknown key 'foo'"),
    "49,000 values": (
        lambda _: WHIST.replace(
            "[deck]", "".join(f"x{j} = [{','.join(['1'] * 1000)}]\n" for j in range(49)) + "[deck]"
        ),
        "unknown key 'x0'",
    ),
    "24,000 keys in 24 tables": (
        lambda _: WHIST + "".join(f"[t{j}]\n" + "".join(f"k{i} = {i}\n" for i in range(1000)) for j in range(24)),
        "unknown key 't0'",
    ),
    "everything at once": (lambda _: _everything_at_once(), ""),
    "a file of 256 KiB of comments": (
        lambda _: WHIST + "#" + "x" * (MAX_SPEC_BYTES - len(WHIST.encode()) - 2) + "\n",
        "",
    ),
}


@pytest.mark.parametrize("case", sorted(WORST_CASES))
def test_finding3_near_limit_worst_cases_load_or_are_refused_quickly(tmp_path: Path, case: str) -> None:
    build, refused = WORST_CASES[case]
    path = write(tmp_path, "worst.toml", build(tmp_path))
    assert path.stat().st_size <= MAX_SPEC_BYTES
    elapsed, result = timed(lambda: trickrules.load(path))
    assert elapsed < FAST, f"{case}: {elapsed:.2f} s"
    if refused:
        assert isinstance(result, SpecError), f"{case}: loaded"
        assert refused in str(result)
    else:
        assert isinstance(result, trickrules.Game), f"{case}: {result}"


def _exceeding(pattern: str, most: int) -> str:
    """Whist with one more item than allowed at ``pattern`` (a key path of SECTION_LIMITS)."""
    n = most + 1
    item = {
        "deck.suits": lambda i: f'{{ code = "s{i}", name = "s{i}", colour = "red" }}',
        "deck.ranks": lambda i: f'{{ code = "r{i}", name = "r{i}" }}',
        "trump.promotions": lambda i: f'{{ name = "p{i}", place = {i + 1}, card = "AS" }}',
        "bidding.contracts": lambda i: f'{{ name = "c{i}" }}',
        "bidding.announcements": lambda i: f'{{ name = "a{i}" }}',
        "declarations": lambda i: f'{{ name = "d{i}", ranks = ["A"], suit = "any", points = 1 }}',
        "scoring.outcomes": lambda i: f'{{ name = "o{i}", when = "True" }}',
        "scoring.bonuses": lambda i: f'{{ name = "b{i}", when = "True" }}',
        "scoring.counters": lambda i: f'{{ name = "c{i}", update = "0" }}',
    }
    if pattern in item:
        head, _, key = pattern.rpartition(".")
        listed = ", ".join(item[pattern](i) for i in range(n))
        return 'extends = "whist"\n' + (f"[{head}]\n" if head else "") + f"{key} = [{listed}]\n"
    if pattern.endswith(".vars"):
        table = "{ " + ", ".join(f'v{i} = "1"' for i in range(n)) + " }"
        if pattern.startswith("bidding"):
            return f'extends = "whist"\n[[bidding.contracts]]\nname = "solo"\nvars = {table}\n'
        return f'extends = "whist"\n[scoring]\nvars = {table}\n'
    if pattern.endswith(".pay"):
        kind = pattern.split(".")[1].split("[")[0]
        pays = ", ".join('{ to = "side", amount = "1" }' for _ in range(n))
        return f'extends = "whist"\n[[scoring.{kind}]]\nname = "x"\nwhen = "True"\npay = [{pays}]\n'
    if pattern == "options":
        return 'extends = "whist"\n' + "".join(f'[options.o{i}]\ndefault = "a"\nchoices.a = {{}}\n' for i in range(n))
    assert pattern == "options.*.choices", pattern
    choices = ", ".join(f"c{i} = {{}}" for i in range(n))
    return f'extends = "whist"\n[options.o]\ndefault = "c0"\nchoices = {{ {choices} }}\n'


@pytest.mark.parametrize("pattern", sorted(SECTION_LIMITS))
def test_finding3_every_section_limit_is_refused_naming_the_key_path_and_the_limit(
    tmp_path: Path, pattern: str
) -> None:
    most, what = SECTION_LIMITS[pattern]
    message = refusal(write(tmp_path, "over.toml", _exceeding(pattern, most)))
    shown = re.escape(pattern).replace(r"\[\]", r"\[\d+\]").replace(r"\*", r"\w+")
    assert re.search(rf"{shown}: \d+ {what}; at most {most} are allowed\.", message), message


def test_finding3_long_texts_long_arrays_and_big_overlay_chains_are_refused_naming_the_limit(tmp_path: Path) -> None:
    text = refusal(write(tmp_path, "text.toml", f'extends = "whist"\ntitle = "{"x" * (MAX_TEXT + 1)}"\n'))
    assert f"title: a text of {MAX_TEXT + 1} characters; at most {MAX_TEXT} are allowed." in text
    items = refusal(write(tmp_path, "items.toml", f'extends = "whist"\nsources = [{", ".join(["1"] * 1025)}]\n'))
    assert f"sources: 1025 items; at most {MAX_ITEMS} are allowed." in items
    padding = "#" + "x" * (MAX_SPEC_BYTES // 2) + "\n"
    write(tmp_path, "base.toml", WHIST.replace('name = "whist"', 'name = "base"') + padding)
    chain = refusal(write(tmp_path, "chain.toml", 'extends = "base.toml"\n' + padding))
    assert f"would be more than {MAX_SPEC_BYTES} bytes together" in chain


# -- finding 4: huge integers, and misnamed variables -------------------------------------------

BIG = "9" * 5000


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (f'extends = "whist"\n[match]\ntarget = {BIG}\n', "match.target: integer out of range"),
        (f'extends = "whist"\n[choose]\nx = {BIG}\n', "choose.x: integer out of range"),
        (f'extends = "whist"\ndeal.packets = [1, {BIG}]\n', "deal.packets[1]: integer out of range"),
        (f'extends = "whist"\nx = -{BIG}\n', "x: integer out of range"),
        (f'extends = "whist"\nx = {BIG[:4000]}\n', "x: integer out of range"),
        (f'extends = "whist"\nx = 0x{"f" * 5000}\n', "x: integer out of range"),
        (f'extends = "whist"\nx = {"1_" * 4400}1\n', "x: integer out of range"),
        (f'extends = "whist"\nscoring.vars = {{ a = "{BIG[:400]}" }}\n', "scoring.vars.a: the number '999"),
        (f'extends = "whist"\nscoring.vars = {{ a = "{BIG}" }}\n', "scoring.vars.a: a text of 5000 characters"),
    ],
)
def test_finding4_a_5000_digit_integer_is_a_spec_error_naming_where_it_is(
    tmp_path: Path, text: str, fragment: str
) -> None:
    """A 5,000-digit integer raised a bare ValueError from Python's own limit on reading integers."""
    assert fragment in refusal(write(tmp_path, "big.toml", text))


def test_finding4_a_5000_digit_integer_as_an_option_value_is_a_spec_error() -> None:
    message = refusal("manille", {"match_end": 10**5000})
    assert "options['match_end']: the integer an integer of about 5000 digits is out of range" in message
    assert "an integer of about 5000 digits" in refusal("manille", {10**5000: "12"})  # type: ignore[dict-item]


@pytest.mark.parametrize("command", ["check", "rules"])
def test_finding4_the_command_line_prints_one_line_for_a_5000_digit_integer(tmp_path: Path, command: str) -> None:
    """``trickrules check FILE`` printed a traceback; now one line and a non-zero exit status."""
    path = write(tmp_path, "big.toml", f'extends = "whist"\n[match]\ntarget = {BIG}\n')
    run = subprocess.run(
        [sys.executable, "-m", "trickrules.faces.cli", command, str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode != 0
    printed = (run.stdout + run.stderr).strip()
    assert "Traceback" not in printed
    assert len(printed.splitlines()) == 1
    assert "match.target: integer out of range" in printed
    if command == "rules":
        assert run.stderr.startswith("error: ")


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("if", "it is a keyword of the formula language"),
        ("True", "it is a keyword of the formula language"),
        ("lambda", "it is a keyword of the formula language"),
        ("min", "it is a function of the formula language"),
        ("floor", "it is a function of the formula language"),
        ("tricks", "it is a built-in variable"),
        ("own_tricks", "it is a built-in variable"),
        ("1x", "a variable's name is a word of ASCII letters"),
        ("\uff50oints", "a variable's name is a word of ASCII letters"),
    ],
)
def test_finding4_a_misnamed_scoring_variable_is_blamed_on_scoring_vars(tmp_path: Path, name: str, why: str) -> None:
    """A scoring variable named ``if`` was blamed on a payment's amount that does not use it."""
    path = write(tmp_path, "var.toml", f'extends = "whist"\nscoring.vars = {{ "{name}" = "1" }}\n')
    message = refusal(path)
    assert f"{key_path('scoring.vars', name)}: {name!r} cannot be the name of a variable: {why}" in message
    assert "amount" not in message


def test_finding4_a_misnamed_variable_is_blamed_where_it_is_defined(tmp_path: Path) -> None:
    spaced = write(tmp_path, "spaced.toml", 'extends = "whist"\nscoring.vars = { "two words" = "1" }\n')
    assert "scoring.vars.\"two words\": 'two words' cannot be the name of a variable" in refusal(spaced)
    contract = (
        'extends = "whist"\ntrump.chosen_by = "declarer"\n[[bidding.contracts]]\nname = "solo"\nvars = { "if" = "1" }\n'
    )
    message = refusal(write(tmp_path, "contract.toml", contract))
    assert "bidding.contracts[0].vars.if: 'if' cannot be the name of a variable: it is a keyword" in message
    counter = 'extends = "whist"\n[[scoring.counters]]\nname = "if"\nupdate = "0"\n'
    assert "scoring.counters[0].name: 'if' must be an identifier" in refusal(write(tmp_path, "counter.toml", counter))


# -- finding 9: a formula that can divide by zero ------------------------------------------------

GUARDS = '[[scoring.outcomes]]\nname = "odd tricks"\npay = [{ to = "side", amount = "AMOUNT" }]\n'


@pytest.mark.parametrize(
    ("formula", "fragment"),
    [
        ("10 / tricks", "'10 / tricks' can divide by zero: its divisor 'tricks' can be 0 (it is between 0 and 13)"),
        ("10 // (tricks - 6)", "its divisor 'tricks - 6' can be 0 (it is between -6 and 7)"),
        ("10 % opp_tricks", "'10 % opp_tricks' can divide by zero"),
        ("tricks / 0", "'tricks / 0' divides by zero: its divisor '0' is always 0"),
        ("tricks % (1 - 1)", "divides by zero"),
        ("10 / (tricks > 3)", "its divisor 'tricks > 3' can be 0 (it is between 0 and 1)"),
        ("10 / pot", "its divisor 'pot' can be 0 (it is 0 or more)"),
        ("10 / last_trick", "its divisor 'last_trick' can be 0"),
        ("10 / (tricks if tricks > 2 else opp_tricks)", "can divide by zero"),
        ("tricks * 1" + "0" * 300, "can come to more than 10**300 in size (up to about 10**301)"),
        ("(((tricks + 100) ** 8) ** 8) ** 8", "' can come to more than 10**300 in size (up to about 10**1051)"),
    ],
)
def test_finding9_a_formula_that_can_divide_by_zero_is_refused_at_load(
    tmp_path: Path, formula: str, fragment: str
) -> None:
    """It was accepted, and the deal that made its divisor 0 could never be finished."""
    message = refusal(write(tmp_path, "div.toml", 'extends = "whist"\n' + GUARDS.replace("AMOUNT", formula)))
    assert "scoring.outcomes[0].pay[0].amount: " in message
    assert fragment in message


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('extends = "whist"\nscoring.vars = { share = "tricks / opp_tricks" }\n', "scoring.vars.share"),
        ('extends = "whist"\nscoring.ante = "players / deal"\nscoring.ante_when = "every_deal"\n', "scoring.ante"),
        (
            'extends = "whist"\n[[scoring.counters]]\nname = "c"\nupdate = "c + 1 / tricks"\n',
            "scoring.counters[0].update",
        ),
        (
            'extends = "whist"\ntrump.chosen_by = "declarer"\n[[bidding.contracts]]\nname = "solo"\n'
            'end_when = "tricks / tricks_played > 1 and 1 / opp_tricks < 1"\n',
            "bidding.contracts[0].end_when",
        ),
        (
            'extends = "whist"\ntrump.chosen_by = "declarer"\n[[bidding.contracts]]\nname = "solo"\n'
            'vars = { rate = "2 // no_trump" }\n',
            "bidding.contracts[0].vars.rate",
        ),
    ],
)
def test_finding9_every_kind_of_formula_is_checked_for_a_zero_divisor(tmp_path: Path, text: str, path: str) -> None:
    message = refusal(write(tmp_path, "div.toml", text))
    assert f"{path}: " in message
    assert "divide by zero" in message


@pytest.mark.parametrize(
    "formula",
    [
        "10 / tricks if tricks else 0",
        "10 / tricks if tricks > 0 else 0",
        "0 if tricks == 0 else 10 / tricks",
        "0 if not tricks else 10 // tricks",
        "tricks > 0 and 10 / tricks > 2",
        "tricks == 0 or 10 / tricks > 2",
        "10 / max(1, tricks)",
        "10 / (tricks + 1)",
        "10 % (tricks - 14)",
        "10 / tricks_total",
        "10 / players",
        "10 / score",  # a score's range is unknown: checked while playing
        "(tricks - 6) ** 8 * 100000000",
    ],
)
def test_finding9_a_guarded_division_loads(tmp_path: Path, formula: str) -> None:
    path = write(tmp_path, "guarded.toml", 'extends = "whist"\n' + GUARDS.replace("AMOUNT", formula))
    assert trickrules.load(path).name == "whist"


def _first_error(game: trickrules.Game) -> tuple[State, trickrules.Action, FormulaError]:
    """Play random legal actions until one raises a FormulaError: the state, the action, the error."""
    rng = random.Random(3)
    state = game.new_match(seed=3)
    for _ in range(5000):
        action = rng.choice(state.legal_actions())
        try:
            state = state.apply(action)
        except FormulaError as exc:
            return state, action, exc
    raise AssertionError("no formula failed")


@pytest.mark.parametrize(
    ("amount", "fragment"),
    [
        ("100 / score", "division by zero in '100 / score'. In deal 0, with score = 0."),
        ("100 % (score - opp_score)", "In deal 0, with opp_score = 0, score = 0."),
        ("tricks / 3", "is not a whole number, and rounding is 'exact'. In deal 0, with tricks = "),
    ],
)
def test_finding9_a_formula_failing_while_playing_names_itself_the_deal_and_the_values_and_leaves_the_state_usable(
    tmp_path: Path, amount: str, fragment: str
) -> None:
    """A formula whose variables have no known range (a score) fails in the step that scores the deal.

    The error names the formula's key path, the deal and the variables' values;
    the state the step was applied to is untouched: it still lists its legal
    actions, and every one of them can be tried again.
    """
    text = WHIST.replace('name = "odd tricks"', 'name = "odd tricks"\nbonus = 0').replace("bonus = 0\n", "")
    text = text.replace('amount = "tricks - 6"', f'amount = "{amount}"')
    if "rounding is 'exact'" not in fragment:
        text = text.replace('rounding = "exact"', 'rounding = "floor"')
    game = trickrules.load(write(tmp_path, "runtime.toml", text))
    state, action, error = _first_error(game)
    assert "scoring.outcomes[0].pay[0].amount: " in str(error) or "scoring odd tricks" in str(error)
    assert fragment in str(error)
    before = (state.phase, state.to_move, state.hands, state.trick, state.match, state.deal, state.tally)
    legal = state.legal_actions()
    assert action in legal
    for other in legal:
        with pytest.raises(FormulaError, match="In deal 0"):
            state.apply(other)
    assert (state.phase, state.to_move, state.hands, state.trick, state.match, state.deal, state.tally) == before
    assert state.legal_actions() == legal


def test_finding9_a_counter_failing_while_playing_names_the_deal_and_the_values(tmp_path: Path) -> None:
    text = 'extends = "whist"\n[[scoring.counters]]\nname = "c"\nupdate = "100 // (c + score)"\n'
    game = trickrules.load(write(tmp_path, "counter.toml", text))
    _, _, error = _first_error(game)
    assert "scoring.counters[0].update: division by zero in '100 // (c + score)'" in str(error)
    assert "In deal 0, with c = 0, score = 0." in str(error)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[tricks_bid]\nmax = 1000000000000\n", "tricks_bid.max: at most the tricks of the largest deal (13)"),
        ("[tricks_bid]\nmin = 14\n", "tricks_bid.min: at most the tricks of the smallest deal (13), found 14."),
        ("[tricks_bid]\nmin = 13\nlast_not_total = true\n", "needs min below the tricks of every deal (13)"),
        (
            "[tricks_bid]\npartners_within_tricks = true\nlast_not_total = true\n",
            "last_not_total: cannot be used with partners_within_tricks",
        ),
    ],
)
def test_finding3_bids_of_tricks_that_no_deal_could_offer_are_refused(tmp_path: Path, text: str, fragment: str) -> None:
    """``tricks_bid.max = 10**12`` loaded, and listing the legal bids then never ended.

    A lowest bid above the tricks of a deal left the bidder with no bid at all,
    and so did the last bid when it may not make the total and a partner had
    bid every trick.
    """
    spec = WHIST.replace("[play]", text + "[play]")
    assert fragment in refusal(write(tmp_path, "bids.toml", spec))


def test_finding3_a_game_made_from_an_oversized_spec_object_is_refused_fast() -> None:
    """A spec built in Python (not read by the loader) is held to the same limits when it is compiled."""
    import attrs

    from trickrules.spec.model import RankSpec, SuitSpec

    spec = trickrules.load("whist").spec
    suits = tuple(SuitSpec(f"s{i}", f"suit {i}", "red") for i in range(200))
    big = attrs.evolve(spec, deck=attrs.evolve(spec.deck, suits=suits, ranks=(RankSpec("A", "Ace"),)))
    elapsed, result = timed(lambda: trickrules.Game(big))
    assert isinstance(result, SpecError)
    assert "deck.suits: 200 suits; at most 16 are allowed." in str(result)
    assert elapsed < FAST


def test_finding9_a_guard_that_can_never_hold_is_not_analysed_and_does_not_crash(tmp_path: Path) -> None:
    """Found by ``benchmarks/fuzz.py --target formula``: a guard contradicting a variable's range crashed the check.

    ``ante`` is always 0, so ``ante > 0`` never holds and the division it
    guards is never evaluated; the check once divided by the empty range.
    """
    from trickrules.compile.ranges import check_formula, span
    from trickrules.spec.formula import compile_formula

    formula = compile_formula("not n < 1 and x / n > 1", ["n", "x"])
    assert check_formula(formula, {"n": span(0, 0), "x": span(0, 1)}, "") is not None
    text = 'extends = "whist"\n' + GUARDS.replace("AMOUNT", "1 if ante > 0 and 10 / ante > 1 else 2")
    assert trickrules.load(write(tmp_path, "never.toml", text)).name == "whist"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (
            'extends = "quadrille"\ndeal.packets = [3]\n',
            "bidding.contracts[0].call: a called card must be in someone's hand, but the deal leaves 28 of the 40",
        ),
        (
            'extends = "quadrille"\ndeal.packets = [3]\n[[bidding.contracts]]\nname = "alliance"\ncall = false\n'
            '[[bidding.contracts]]\nname = "dimidiator"\ncall = false\n[[bidding.contracts]]\nname = "casco"\n'
            "call = false\nexchange = 0\nside = 'alone'\n",
            "bidding.all_pass.holder_of: the card must be in someone's hand, but the deal leaves 28",
        ),
    ],
)
def test_finding3_a_card_whose_holder_is_sought_must_be_dealt(tmp_path: Path, text: str, fragment: str) -> None:
    """Found by ``benchmarks/fuzz.py --target spec``: Quadrille dealt three cards each loaded, and the call crashed.

    The declarer could call a card left in the stock, and the call phase, looking
    for its holder, raised ``StopIteration``; so could forcing the holder of a
    card nobody was dealt to play.
    """
    assert fragment in refusal(write(tmp_path, "stock.toml", text))


def test_finding3_a_contract_that_calls_a_card_needs_a_rank_that_can_be_called(tmp_path: Path) -> None:
    """Found by ``benchmarks/fuzz.py --target spec``: Quadrille with no callable ranks loaded, and then stuck.

    The declarer of a contract that calls a card was offered nothing to call,
    so the match could not go on; now the spec is refused.
    """
    text = 'extends = "quadrille"\n[calling]\nranks = []\nfallback_ranks = []\nallow_own = false\n'
    assert "calling.ranks: a contract calls a card (call = true): name the ranks" in refusal(
        write(tmp_path, "nocall.toml", text)
    )
    aces = ", ".join(f'{{ name = "A{suit}", card = "A{suit}", place = {n + 1} }}' for n, suit in enumerate("SHDC"))
    promoted = (
        f'extends = "whist"\ntrump.chosen_by = "declarer"\ntrump.promotions = [{aces}]\n'
        'ranks.plain.default = ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]\n'
        '[[bidding.contracts]]\nname = "call"\ncall = true\n[calling]\nranks = ["A"]\n'
    )
    message = refusal(write(tmp_path, "trumps.toml", promoted))
    assert "calling.ranks: with trumps 'S', every card of these ranks is a trump." in message


def test_finding9_an_eligibility_rule_may_use_only_the_vars_known_before_the_play(tmp_path: Path) -> None:
    """An ``eligible`` formula using a var that needs the tricks loaded, and listing the bids then failed.

    The auction defines only the vars whose own variables are known before the
    play; the formula is now refused when the spec is loaded, with the vars it
    may use.
    """
    contract = '[[bidding.contracts]]\nname = "solo"\nvars = { value = "2" }\neligible = "EXPR"\n'
    head = 'extends = "whist"\ntrump.chosen_by = "declarer"\nscoring.vars = { made = "tricks - 6" }\n'
    message = refusal(write(tmp_path, "eligible.toml", head + contract.replace("EXPR", "made > 0")))
    assert "bidding.contracts[0].eligible: the name 'made' is not a variable of this formula" in message
    assert "(allowed: deal, opp_score, players, score, target, value)" in message
    path = write(tmp_path, "fine.toml", head + contract.replace("EXPR", "score + value < target"))
    game = trickrules.load(path)
    assert game.new_match(seed=1).legal_actions()


def test_finding9_an_ante_out_of_range_names_the_formula_the_deal_and_the_values(tmp_path: Path) -> None:
    """The ante is scored like any payment: its error names its place, the deal and the values it read."""
    text = 'extends = "quadrille"\n[scoring]\nante = "pot * pot + 1"\nante_when = "every_deal"\n'
    path = write(tmp_path, "ante.toml", text)
    game = trickrules.load(path)
    assert game.new_match(seed=1, pot=10**100).match.pot > 10**100  # within range: paid as usual
    with pytest.raises(FormulaError) as caught:
        game.new_match(seed=1, pot=10**200)
    message = str(caught.value)
    assert "scoring.ante: value out of range: 'pot * pot'" in message
    assert "In deal 0, with pot = 1000" in message

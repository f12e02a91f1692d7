"""Overlays (`extends`, `[variant]`, `[choose]`), merging, and the examples in docs/dsl.md."""

from __future__ import annotations

import random
import re
import time
import tomllib
from pathlib import Path

import attrs
import pytest

import parts
import trickrules
from trickrules import Game, SpecError, State, View
from trickrules.compile import rules as compiled_rules
from trickrules.engine.events import TrickWon
from trickrules.spec import model as spec_module
from trickrules.spec.model import ObligationSpec, PaymentSpec, VariantSpec

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "dsl.md"
MANILLE = trickrules.load_spec("manille")
CUATROLA = trickrules.load_spec("cuatrola")


def write(directory: Path, name: str, text: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(path: Path) -> str:
    start = time.perf_counter()
    with pytest.raises(SpecError) as caught:
        trickrules.load(path)
    assert time.perf_counter() - start < 20.0  # a hang guard, not a speed measurement
    return str(caught.value)


def outcome_names(game: Game) -> list[str]:
    return [o.name for o in game.spec.scoring.outcomes]


def play_first_deal(game: Game, seed: int) -> tuple[State, dict[int, int]]:
    # Random legal actions until the first deal is scored; returns the state and the
    # tricks each seat took. The bound turns an engine loop into a failure, not a hang.
    rng = random.Random(seed)
    state = game.new_match(seed=seed)
    tricks = dict.fromkeys(range(game.rules.players), 0)
    for _ in range(1000):
        if state.is_terminal or state.deal.number > 0:
            return state, tricks
        state = state.apply(rng.choice(state.legal_actions()))
        for event in state.last_events:
            if isinstance(event, TrickWon):
                tricks[event.seat] += 1
    raise AssertionError("the first deal did not end within 1000 actions")


# --- one overlay ---


def test_overlay_changes_one_key_and_keeps_the_rest(tmp_path: Path) -> None:
    path = write(tmp_path, "to51.toml", 'extends = "manille"\n\n[match]\ntarget = 51\n')
    spec = trickrules.load(path).spec
    # Tables merge key by key: tie_break comes from manille.
    assert spec.match == attrs.evolve(MANILLE.match, target=51)
    assert attrs.evolve(spec, match=MANILLE.match) == MANILLE
    assert spec.name == "manille"
    assert spec.variant is None


def test_overlay_choose_sets_options(tmp_path: Path) -> None:
    text = 'extends = "manille"\n\n[choose]\ndeal_packets = "4-4"\nlast_trick_bonus = true\n'
    game = trickrules.load(write(tmp_path, "chosen.toml", text))
    assert game.options["deal_packets"] == "4-4"
    assert game.options["last_trick_bonus"] == "on"
    assert game.spec.deal.packets == (4, 4)
    assert game.spec.scoring.last_trick_bonus == 1


def test_integer_in_choose_picks_the_choice_of_that_text(tmp_path: Path) -> None:
    path = write(tmp_path, "to16.toml", 'extends = "cuatrola"\n\n[choose]\ntarget = 16\n')
    assert trickrules.load(path).spec.match.target == 16


def test_options_given_to_load_override_the_overlays_choose(tmp_path: Path) -> None:
    text = 'extends = "manille"\n\n[choose]\ndeal_packets = "4-4"\nlast_trick_bonus = "on"\n'
    game = trickrules.load(write(tmp_path, "chosen.toml", text), {"deal_packets": "3-2-3"})
    assert game.spec.deal.packets == (3, 2, 3)
    assert game.options["last_trick_bonus"] == "on"


def test_unknown_choice_in_choose_names_the_overlay(tmp_path: Path) -> None:
    path = write(tmp_path, "bad_choice.toml", 'extends = "cuatrola"\n\n[choose]\ntarget = 17\n')
    message = load_error(path)
    assert "bad_choice.toml" in message
    assert "option 'target' has no choice '17' (choices: 21, 16, 11)" in message


def test_variant_declares_identity_and_names_the_spec(tmp_path: Path) -> None:
    text = (
        'extends = "manille"\n\n[variant]\nname = "manille-44"\ntitle = "Manille dealt 4-4"\n'
        'changes = ["manille:L22"]\n\n[deal]\npackets = [4, 4]\n'
    )
    spec = trickrules.load(write(tmp_path, "v.toml", text)).spec
    assert spec.variant == VariantSpec(
        name="manille-44", title="Manille dealt 4-4", changes=("manille:L22",)
    )
    assert spec.name == "manille-44"
    assert spec.title == "Manille"  # the spec's own title is the parent's unless set


def test_overlay_that_sets_name_keeps_it_over_the_variant_name(tmp_path: Path) -> None:
    text = 'extends = "manille"\nname = "mine"\n\n[variant]\nname = "manille-44"\n'
    assert trickrules.load(write(tmp_path, "named.toml", text)).spec.name == "mine"


def test_overlay_with_packets_4_4_still_deals_8_cards_each(tmp_path: Path) -> None:
    path = write(tmp_path, "p44.toml", 'extends = "manille"\n\n[deal]\npackets = [4, 4]\n')
    state = trickrules.load(path).new_match(seed=1)
    assert [len(state.hand(seat)) for seat in range(4)] == [8, 8, 8, 8]
    # The same deal as the bundled option that makes the same change.
    option = trickrules.load("manille", {"deal_packets": "4-4"}).new_match(seed=1)
    assert [state.hand(s) for s in range(4)] == [option.hand(s) for s in range(4)]
    assert state.hand(0) != trickrules.load("manille").new_match(seed=1).hand(0)


def test_overlay_rule_change_shows_in_play(tmp_path: Path) -> None:
    # Without trumps there is nobody to ask for them: play starts at once.
    text = 'extends = "manille"\n\n[trump]\nchosen_by = "none"\n'
    state = trickrules.load(write(tmp_path, "sans.toml", text)).new_match(seed=1)
    assert (state.phase, state.trump) == ("play", "none")
    assert trickrules.load("manille").new_match(seed=1).phase == "trump"


# --- merging arrays of named tables ---


def test_named_outcome_merge_changes_only_its_pay(tmp_path: Path) -> None:
    text = (
        'extends = "cuatrola"\n\n[[scoring.outcomes]]\nname = "hand won"\n'
        'pay = [{ to = "side", amount = "3" }]\n'
    )
    spec = trickrules.load(write(tmp_path, "pay3.toml", text)).spec
    changed = spec.scoring.outcomes[0]
    before = CUATROLA.scoring.outcomes[0]
    assert changed.pay == (PaymentSpec(to="side", amount="3"),)
    assert attrs.evolve(changed, pay=before.pay) == before
    assert spec.scoring.outcomes[1:] == CUATROLA.scoring.outcomes[1:]


def test_new_outcome_with_before_is_inserted_there(tmp_path: Path) -> None:
    text = (
        'extends = "cuatrola"\n\n[[scoring.outcomes]]\nname = "capot"\n'
        'before = "contract made"\ncontracts = ["cuatrola", "quintola"]\n'
        'when = "tricks == tricks_total"\npay = [{ to = "side", amount = "value + 1" }]\n'
    )
    game = trickrules.load(write(tmp_path, "capot.toml", text))
    assert outcome_names(game) == [
        "hand won",
        "solo made",
        "capot",
        "contract made",
        "contract failed",
    ]
    # 'before' only places the element; it is not part of it.
    assert game.spec.scoring.outcomes[2].contracts == ("cuatrola", "quintola")


def test_new_outcome_without_before_is_appended(tmp_path: Path) -> None:
    text = 'extends = "cuatrola"\n\n[[scoring.outcomes]]\nname = "never"\nwhen = "False"\n'
    assert outcome_names(trickrules.load(write(tmp_path, "app.toml", text)))[-1] == "never"


def test_outcome_removed_with_remove_true(tmp_path: Path) -> None:
    text = 'extends = "cuatrola"\n\n[[scoring.outcomes]]\nname = "solo made"\nremove = true\n'
    names = outcome_names(trickrules.load(write(tmp_path, "rm.toml", text)))
    assert names == ["hand won", "contract made", "contract failed"]


def test_change_insert_and_remove_in_one_patch(tmp_path: Path) -> None:
    text = """extends = "cuatrola"
scoring.outcomes = [
  { name = "hand won", pay = [{ to = "side", amount = "3" }] },
  { name = "capot", before = "contract made", when = "tricks == tricks_total" },
  { name = "solo made", remove = true },
  { name = "last resort", when = "True" },
]
"""
    game = trickrules.load(write(tmp_path, "all.toml", text))
    assert outcome_names(game) == [
        "hand won",
        "capot",
        "contract made",
        "contract failed",
        "last resort",
    ]
    assert game.spec.scoring.outcomes[0].pay[0].amount == "3"


def test_obligations_merge_by_rule(tmp_path: Path) -> None:
    text = (
        'extends = "manille"\n\n[[play.obligations]]\nrule = "overtrump"\npartner_exempt = true\n'
    )
    obligations = trickrules.load(write(tmp_path, "exempt.toml", text)).spec.play.obligations
    assert [o.rule for o in obligations] == ["follow_suit", "trump_when_void", "overtrump"]
    assert obligations[2] == ObligationSpec(rule="overtrump", if_unable="any", partner_exempt=True)


def test_patch_naming_every_element_gives_the_order(tmp_path: Path) -> None:
    text = (
        'extends = "manille"\nplay.obligations = [{ rule = "overtrump" }, '
        '{ rule = "trump_when_void" }, { rule = "follow_suit" }]\n'
    )
    obligations = trickrules.load(write(tmp_path, "order.toml", text)).spec.play.obligations
    assert [o.rule for o in obligations] == ["overtrump", "trump_when_void", "follow_suit"]
    assert obligations[1].mode == "always"  # merged, not replaced


def test_arrays_without_names_are_replaced(tmp_path: Path) -> None:
    # 'pay' entries have no name: the overlay's list replaces quadrille's two payments.
    text = (
        'extends = "quadrille"\n\n[[scoring.outcomes]]\nname = "won"\n'
        'pay = [{ from = "defenders", to = "declarer_side", amount = "stake" }]\n'
    )
    spec = trickrules.load(write(tmp_path, "pay.toml", text)).spec
    won = next(o for o in spec.scoring.outcomes if o.name == "won")
    assert won.pay == (PaymentSpec(from_="defenders", to="declarer_side", amount="stake"),)


def test_option_patch_inserts_before_a_named_outcome() -> None:
    # manille's revoke option adds two outcomes with before = "deal won".
    spec = trickrules.load_spec("manille", {"revoke": "penalise"})
    assert [o.name for o in spec.scoring.outcomes] == ["revoke", "revoke penalty", "deal won"]


# --- chains, cycles, depth ---


def test_chain_of_two_overlays_by_relative_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Relative 'extends' paths are looked up next to the overlay, not in the working directory.
    folder = tmp_path / "variants"
    write(
        folder,
        "first.toml",
        'extends = "manille"\n\n[variant]\nname = "first"\n\n[choose]\nlast_trick_bonus = "on"\n'
        'deal_packets = "4-4"\n\n[match]\ntarget = 51\n',
    )
    second = write(
        folder,
        "second.toml",
        'extends = "first.toml"\n\n[variant]\nname = "second"\n\n[choose]\n'
        'deal_packets = "3-2-3"\n\n[trump]\nallow_none = false\n',
    )
    monkeypatch.chdir(tmp_path)
    game = trickrules.load(second)
    spec = game.spec
    assert spec.name == "second"
    assert spec.variant == VariantSpec(name="second")
    assert spec.match.target == 51  # from the first overlay
    assert spec.trump.allow_none is False  # from the second
    assert spec.trump.chosen_by == "dealer"  # from manille
    # Choices are inherited; the nearer overlay wins.
    assert game.options["last_trick_bonus"] == "on"
    assert game.options["deal_packets"] == "3-2-3"


def test_overlay_of_a_spec_file_that_is_not_bundled(tmp_path: Path) -> None:
    write(tmp_path / "base", "game.toml", (ROOT / "specs" / "cuatrola.toml").read_text())
    path = write(
        tmp_path / "base",
        "short.toml",
        'extends = "game.toml"\n\n[variant]\nname = "cuatrola-11"\n\n[match]\ntarget = 11\n',
    )
    spec = trickrules.load(path).spec
    assert (spec.name, spec.match.target) == ("cuatrola-11", 11)


def test_overlay_cycle_fails(tmp_path: Path) -> None:
    write(tmp_path, "a.toml", 'extends = "b.toml"\n')
    b = write(tmp_path, "b.toml", 'extends = "a.toml"\n')
    message = load_error(b)
    assert "extends" in message
    assert "a cycle" in message


def test_overlay_extending_itself_fails(tmp_path: Path) -> None:
    path = write(tmp_path, "self.toml", 'extends = "self.toml"\n')
    assert "extends: 'self.toml' extends this file again (a cycle)" in load_error(path)


def overlay_chain(tmp_path: Path, links: int) -> Path:
    # level1 extends manille, level2 extends level1, ...: `links` extends in all.
    parent = "manille"
    path = tmp_path
    for level in range(1, links + 1):
        text = f'extends = "{parent}"\n\n[variant]\nname = "level{level}"\n'
        path = write(tmp_path, f"level{level}.toml", text)
        parent = path.name
    return path


def test_more_than_four_overlay_levels_fail(tmp_path: Path) -> None:
    message = load_error(overlay_chain(tmp_path, 5))
    assert "extends: more than 4 levels of overlays" in message


def test_three_overlay_levels_load(tmp_path: Path) -> None:
    assert trickrules.load(overlay_chain(tmp_path, 3)).spec.name == "level3"


def test_four_overlay_levels_load(tmp_path: Path) -> None:
    assert trickrules.load(overlay_chain(tmp_path, 4)).spec.name == "level4"


def test_extends_must_be_a_string(tmp_path: Path) -> None:
    path = write(tmp_path, "num.toml", "extends = 5\n")
    assert "num.toml: extends: expected the name or path of a spec, found 5" in load_error(path)


def test_typo_in_overlay_names_the_overlay_and_key(tmp_path: Path) -> None:
    path = write(tmp_path, "typo.toml", 'extends = "manille"\n\n[match]\ntarget = 51\ntarjet = 5\n')
    message = load_error(path)
    assert "typo.toml" in message
    assert "match: unknown key 'tarjet'" in message


def test_broken_parent_is_named_in_the_error(tmp_path: Path) -> None:
    write(tmp_path, "parent.toml", "this is not = = toml\n")
    child = write(tmp_path, "child.toml", 'extends = "parent.toml"\n')
    message = load_error(child)
    assert "parent.toml: not valid TOML" in message


def test_missing_parent_names_the_overlay_and_extends(tmp_path: Path) -> None:
    path = write(tmp_path, "orphan.toml", 'extends = "nothere.toml"\n')
    message = load_error(path)
    assert "orphan.toml" in message
    assert "extends" in message


def test_before_naming_no_element_is_refused(tmp_path: Path) -> None:
    text = (
        'extends = "manille"\n\n[[scoring.outcomes]]\nname = "x"\nbefore = "deal wonn"\n'
        'when = "True"\n'
    )
    assert "deal wonn" in load_error(write(tmp_path, "before.toml", text))


def test_remove_naming_no_element_is_refused(tmp_path: Path) -> None:
    text = 'extends = "manille"\n\n[[scoring.outcomes]]\nname = "deal wonn"\nremove = true\n'
    assert "deal wonn" in load_error(write(tmp_path, "remove.toml", text))


# --- docs/dsl.md: its examples must keep working ---

DOC_TEXT = DOCS.read_text(encoding="utf-8")
TOML_BLOCKS = re.findall(r"```toml\n(.*?)```", DOC_TEXT, re.S)


def complete_example() -> str:
    # The first TOML block after the heading "A complete example".
    heading = re.search(r"^#+ A complete example\s*$", DOC_TEXT, re.M)
    assert heading is not None, "docs/dsl.md has no heading 'A complete example'"
    block = re.search(r"```toml\n(.*?)```", DOC_TEXT[heading.end() :], re.S)
    assert block is not None, "no TOML block under 'A complete example'"
    return block.group(1)


def test_complete_example_in_docs_plays_a_deal(tmp_path: Path) -> None:
    game = trickrules.load(write(tmp_path, "whist.toml", complete_example()))
    spec = game.spec
    assert (spec.name, game.cards.size, game.rules.hand_size) == ("whist", 52, 13)
    assert spec.seating.teams == ((0, 2), (1, 3))
    state, tricks = play_first_deal(game, seed=3)
    assert state.deal.number == 1 or state.is_terminal
    assert sum(tricks.values()) == 13
    # One point per trick over six, to both partners of the side that took them.
    for team in spec.seating.teams:
        taken = sum(tricks[seat] for seat in team)
        assert [state.scoreboard[seat] for seat in team] == [max(0, taken - 6)] * len(team)


def test_complete_example_turns_the_dealers_last_card_for_trumps(tmp_path: Path) -> None:
    game = trickrules.load(write(tmp_path, "whist.toml", complete_example()))
    state = game.new_match(seed=5, dealer=2)
    assert state.phase == "play"
    assert state.to_move == 3  # the eldest hand leads
    assert state.trump is not None
    assert state.trump == parts.v_turned(View.from_state(state, 0))[-1:]


def test_every_toml_block_in_docs_is_valid_toml() -> None:
    assert len(TOML_BLOCKS) > 20
    for block in TOML_BLOCKS:
        tomllib.loads(block)


def test_every_overlay_example_in_docs_loads(tmp_path: Path) -> None:
    overlays = [b for b in TOML_BLOCKS if b.startswith("extends = ")]
    assert len(overlays) >= 2
    for n, block in enumerate(overlays):
        trickrules.load(write(tmp_path, f"doc_overlay_{n}.toml", block))


def test_docs_name_every_key_of_the_schema() -> None:
    # Every field of every spec class, spelt as in TOML ('from', not 'from_').
    missing = []
    for name in spec_module.__all__:
        cls = getattr(spec_module, name)
        for field in attrs.fields(cls):
            key = field.name.rstrip("_")
            # As `key` or as the end of a documented path such as `suits[].code`.
            if not re.search(rf"`([\w\[\].]*\.)?{key}`", DOC_TEXT):
                missing.append(f"{name}.{key}")
    assert missing == []


def test_docs_name_every_variable_role_rule_and_word() -> None:
    words = [
        *compiled_rules.DEAL_VARS,
        *compiled_rules.SIDE_VARS,
        *compiled_rules.PLAYER_VARS,
        *compiled_rules.ELIGIBILITY_VARS,
        *compiled_rules.PAYMENT_ROLES,
        *spec_module.OBLIGATION_RULES,
        *spec_module.TRUMP_CHOOSERS,
        *spec_module.CONTRACT_SIDES,
    ]
    assert [w for w in words if f"`{w}`" not in DOC_TEXT] == []


@pytest.mark.parametrize(
    ("base", "patch", "words"),
    [
        # (cuatrola: quadrille's options set the match length and its multiple themselves)
        ("cuatrola", "[match]\ndeals = 12\ndeals_multiple_of = 0\n", "match.deals_multiple_of: expected a positive"),
        ("cuatrola", "[match]\ndeals = 10\ndeals_multiple_of = 4\n", "match.deals: 10 deals is not a multiple of 4"),
        ("quadrille", '[match]\npot_at_end = "burned"\n', "pot_at_end"),
        ("quadrille", '[play]\ntrick_winner = "lowest"\n', "trick_winner"),
        ("quadrille", '[bidding]\nannouncements = [{ name = "vole", alone = "lead" }]\n', "need after_run"),
        ("quadrille", '[bidding]\nannouncements = [{ name = "vole", after_run = 6, refused = "maybe" }]\n', "refused"),
        ("quadrille", '[bidding]\nauction = "forever"\n', "auction"),
        (
            "cuatrola",
            '[[bidding.contracts]]\nname = "quintola"\nend_when = "().__class__"\n',
            "bidding.contracts",
        ),
        ("cuatrola", '[[bidding.contracts]]\nname = "quintola"\nend_when = "points > 3"\n', "points"),
        ("cuatrola", '[[declarations]]\nname = "40"\nmax_first_window = -1\n', "declarations[0].max_first_window"),
        ("cuatrola", '[[declarations]]\nname = "40"\nmax_per_window = 0\n', "declarations[0].max_per_window"),
    ],
)
def test_bad_values_of_the_late_and_early_end_keys_are_refused(
    tmp_path: Path, base: str, patch: str, words: str
) -> None:
    """The keys for late announcements, early ends, match lengths and trick winners are checked."""
    path = write(tmp_path, "bad.toml", f'extends = "{base}"\n\n{patch}')
    with pytest.raises(trickrules.SpecError, match=re.escape(words)):
        trickrules.load(path)

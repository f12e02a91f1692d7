"""What the command line prints reads as what happened (issue #18 item 5).

A pass says what it declined, a deal's cards come before its antes, a
variant shows its own title, ``rules --json`` holds the whole game and
``rules --option`` shows what the option changes.
"""

from __future__ import annotations

import json

import pytest

import trickrules
from trickrules.engine.events import DealScored, Dealt, Paid, Passed
from trickrules.faces.cli import main
from trickrules.faces.render import describe_event, in_print_order


def _passes(name: str, seeds: range) -> dict[str, int]:
    """How many passes of each phase random matches of ``name`` hold."""
    import random

    game = trickrules.load(name)
    found: dict[str, int] = {}
    for seed in seeds:
        state = game.new_match(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal and state.match.deals_done < 3:
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.random() * len(legal))])
        for _, event in state.entries():
            if isinstance(event, Passed):
                found[event.phase] = found.get(event.phase, 0) + 1
    return found


@pytest.mark.parametrize(
    ("name", "phases"),
    [("quadrille", {"bidding", "announce"}), ("cuatrola", {"bidding", "declare"}), ("euchre", {"making", "alone"})],
)
def test_every_pass_names_the_phase_it_declines_and_reads_differently(name: str, phases: set[str]) -> None:
    found = _passes(name, range(12))
    assert phases <= set(found), found
    lines = {describe_event(Passed(0, phase)) for phase in found}
    assert len(lines) == len(found)  # each phase reads differently
    assert describe_event(Passed(0, "bidding")) == "  seat 0: pass"
    assert describe_event(Passed(0, "announce")) == "  seat 0: announces nothing"
    assert describe_event(Passed(0, "declare")) == "  seat 0: declares nothing"


def test_a_pass_in_the_log_says_its_phase() -> None:
    game = trickrules.load("quadrille")
    state = game.new_match(seed=1)
    for text in ("bid solo", "pass", "pass", "pass", "trump H", "pass"):
        state = state.apply(text)
    lines = [json.loads(line) for line in trickrules.EventLog.from_state(state).to_json().splitlines()[1:]]
    assert [e["phase"] for e in lines if e["type"] == "pass"] == ["bidding"] * 3 + ["announce"]


def test_a_deals_cards_are_printed_before_its_antes() -> None:
    game = trickrules.load("quadrille")
    step = game.new_match(seed=1).last_events
    assert isinstance(step[0], Paid)
    assert isinstance(step[-1], Dealt)
    ordered = in_print_order(step)
    assert isinstance(ordered[0], Dealt)
    assert sorted(map(id, ordered)) == sorted(map(id, step))
    # A deal's last step: its scoring, then the next deal's antes and cards.
    scored = DealScored(0, "won", (1, 2, 3, 4), 0)
    ante = Paid(0, -1, 4, "ante")
    dealt = step[-1]
    assert in_print_order([ante, scored, ante, dealt]) == [ante, scored, dealt, ante]


def test_play_prints_each_deal_header_before_its_antes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "quadrille", "--seed", "1", "--deals", "2"]) == 0
    out = capsys.readouterr().out
    deal2 = out.index("Deal 2,")
    scores1 = out.index("  scores:")
    assert scores1 < deal2
    assert "(ante)" not in out[scores1:deal2]  # the second deal's antes follow its header
    assert "(ante)" in out[deal2:]
    assert ": announces nothing" in out  # the declined announcement, not "pass"


def test_a_variant_shows_its_own_title(capsys: pytest.CaptureFixture[str]) -> None:
    assert trickrules.load("manille-difference").title == "Manille scored by difference"
    assert trickrules.load("manille").title == trickrules.load("manille").spec.title
    assert main(["play", "manille-difference", "--seed", "1", "--quiet"]) == 0
    assert capsys.readouterr().out.startswith("Manille scored by difference: seed 1")
    assert main(["rules", "manille-difference"]) == 0
    assert capsys.readouterr().out.startswith("Manille scored by difference (manille-difference")


def test_play_without_a_seed_draws_one_and_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    seeds = set()
    for _ in range(2):
        assert main(["play", "manille", "--quiet", "--deals", "1"]) == 0
        first = capsys.readouterr().out.splitlines()[0]
        seeds.add(int(first.split("seed ")[1].split(",")[0]))
    assert len(seeds) == 2
    assert 0 not in seeds


def test_the_match_end_and_counts_read_as_english(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "quadrille"]) == 0
    assert "Match ends after 12 deals; ties: extra_deal." in capsys.readouterr().out
    assert main(["rules", "manille"]) == 0
    assert "Match ends when a side reaches 101" in capsys.readouterr().out
    assert main(["check", "specs/manille-difference.toml"]) == 0
    out = capsys.readouterr().out
    assert "1 outcome," in out
    assert "overlay of 'manille'" in out
    assert "Manille scored by difference" in out


def test_rules_json_holds_the_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "quadrille", "--json", "--option", "forced_spadille=off"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [o["trump"] for o in data["orders"]] == ["S", "H", "D", "C"]
    assert data["contracts"] == ["alliance", "dimidiator", "casco", "solo"]
    forced = data["options"]["forced_spadille"]
    assert forced["value"] == "off"
    assert forced["default"] == "on"
    assert "off" in forced["choices"]
    spec = data["spec"]
    assert spec["play"]["obligations"]
    assert spec["scoring"]["outcomes"]
    assert spec["bidding"]
    assert data == json.loads(json.dumps(data))  # plain JSON data throughout


def test_rules_with_an_option_shows_what_it_changes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "manille", "--option", "scoring=difference"]) == 0
    out = capsys.readouterr().out
    changes = out[out.index("What scoring=difference changes from the defaults:") :]
    assert "manille:L50.cap-six" in changes
    assert "-  cap = 6" in changes
    assert "+  cap = 60" in changes
    assert main(["rules", "manille"]) == 0
    assert "changes from the defaults" not in capsys.readouterr().out

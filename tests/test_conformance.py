"""The conformance suite runs inside pytest: every line accounted for, every case passing.

The cases themselves live in ``conformance/cases/``; this file runs them all
(through the same runner as ``trickrules conformance``) and checks the runner.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from trickrules import load
from trickrules.compile.duties import NoUndertrump
from trickrules.engine.obligations import _no_undertrump
from trickrules.engine.state import State
from trickrules.errors import IllegalActionError
from trickrules.faces.cli import main
from trickrules.faces.conformance.cli import coverage_markdown
from trickrules.faces.conformance.runner import DocumentReport, Suite, default_root, load_suite, run_suite

ROOT = Path(__file__).resolve().parent.parent
#: Clauses that have no case (meta clauses excepted: they carry no executable rule).
MAX_CLAUSES_WITHOUT_CASE = 0


@cache
def suite() -> Suite:
    return load_suite()


@cache
def reports() -> tuple[DocumentReport, ...]:
    return tuple(run_suite(suite()))


def test_every_manifest_accounts_for_every_non_blank_line() -> None:
    for report in reports():
        line_problems = [p for p in report.problems if "has no case" not in p]
        assert not line_problems, f"{report.document}: {line_problems}"
        assert report.unaccounted == 0
        assert report.lines == report.normative + report.informative


def test_the_five_documents_have_manifests() -> None:
    sources = sorted(r.source for r in reports())
    assert sources == sorted(
        [
            "000_fafe8648c957942c.txt",
            "001_6d311053103c51f0.txt",
            "002_a9798d4e87d79a61.txt",
            "003_f1898d258b7bbe2e.txt",
            "004_0e10f05f8770af6a.txt",
        ]
    )


def test_every_case_passes() -> None:
    failures = [f"{f.case.id}: {f.detail}" for r in reports() for f in r.failures]
    assert not failures, "\n".join(failures)


def test_every_case_names_a_clause_of_a_manifest() -> None:
    clauses = {c.id for m in suite().manifests for c in m.clause}
    for case in suite().cases:
        unknown = [c for c in case.clauses if c not in clauses]
        assert not unknown, f"{case.id} ({case.path}) names unknown clauses {unknown}"
        assert case.id.split("/")[0] in case.clauses, f"{case.id} is not named after one of its clauses"


def test_clauses_without_a_case_only_ever_decrease() -> None:
    missing = [p for r in reports() for p in r.problems if "has no case" in p]
    assert len(missing) <= MAX_CLAUSES_WITHOUT_CASE, "\n".join(missing)


def test_docs_conformance_md_is_current() -> None:
    expected = coverage_markdown(suite(), list(reports()))
    current = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    assert current == expected, "docs/conformance.md is stale: run `python -m trickrules.faces.conformance.report`"


def test_runner_json_output_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    main(["conformance", "manille", "--json"])
    data = json.loads(capsys.readouterr().out)
    counts = {"lines", "normative", "informative", "clauses", "cases", "passed", "failed", "unaccounted", "changed"}
    named = {"source", "document", "changed_lines", "problems", "failures"}
    assert set(data) == {"documents", "total", "ok"}
    assert set(data["documents"][0]) == counts | named
    assert set(data["total"]) == counts | {"problems"}
    assert data["documents"][0]["source"] == "004_0e10f05f8770af6a.txt"
    assert data["documents"][0]["document"] == "manille"


#: A case whose expectation is deliberately wrong (Manille L40: the 10 of hearts is legal there), for the
#: tests of how a failing case is reported.
WRONG_CASE = (
    '[[case]]\nid = "manille:L40/deliberately-wrong"\nclause = "manille:L40"\ndealer = 0\n'
    'hands = [["10S","AS","KS","QS","JS","9S","8S","7S"],["10H","AH","KH","QH","JH","9H","8H","7C"],'
    '["7H","10D","AD","KD","QD","JD","9D","8D"],["10C","AC","KC","QC","JC","9C","8C","7D"]]\n'
    'actions = ["trump D", "play 10H"]\n[case.expect]\nlegal = ["play 10D"]\n'
)

def test_a_failing_case_is_reported_with_clause_lines_and_paraphrase(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "wrong.toml").write_text(
        WRONG_CASE,
        encoding="utf-8",
    )
    status = main(["conformance", "manille", "--cases", str(tmp_path), "--select", "*deliberately*"])
    out = capsys.readouterr().out
    assert status == 1
    assert "FAIL manille:L40/deliberately-wrong" in out
    assert re.search(r"manille:L40 \(line 40\): \S", out)
    assert "legal actions: expected ['play 10D'], got ['play 7H']" in out


def test_the_bundled_conformance_folder_is_found() -> None:
    assert default_root() == ROOT / "conformance"


BUNDLED_OVERLAYS = sorted(
    p.name
    for p in (ROOT / "specs").glob("*.toml")
    if p.read_text(encoding="utf-8").lstrip().startswith(("extends", "#"))
    and "\nextends = " in "\n" + p.read_text(encoding="utf-8")
)


def test_at_least_four_overlays_are_bundled() -> None:
    assert len(BUNDLED_OVERLAYS) >= 4, BUNDLED_OVERLAYS


@pytest.mark.parametrize("overlay", BUNDLED_OVERLAYS)
def test_verify_passes_every_bundled_overlay(overlay: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(ROOT / "specs" / overlay)]) == 0
    assert "  ok: declares " in capsys.readouterr().out


def test_verify_reports_what_the_quadrille_overlay_changes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(ROOT / "specs" / "quadrille-no-forced-spadille.toml")]) == 0
    out = capsys.readouterr().out
    assert "ok: declares quadrille-es:L25.all-pass, quadrille-es:L43.forced-alliance" in out
    assert "quadrille-es:L25.all-pass: quadrille-es:L25.all-pass/spadille-holder-becomes-hombre changes:" in out


def test_verify_catches_an_overlay_that_changes_an_undeclared_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The Matador privilege changed by a raw patch, with nothing declared.
    wrong = tmp_path / "sneaky.toml"
    wrong.write_text(
        'extends = "quadrille"\n[variant]\nname = "sneaky"\nchanges = []\n'
        '[play]\nobligations = [{ rule = "privileged_cards", forced_by = "any_trump_lead" }]\n',
        encoding="utf-8",
    )
    assert main(["verify", str(wrong)]) == 1
    out = capsys.readouterr().out
    assert "UNDECLARED: quadrille-es:L52" in out
    assert "FAILED" in out


def test_verify_catches_a_stale_declaration(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stale = tmp_path / "stale.toml"
    stale.write_text(
        'extends = "quadrille"\n[variant]\nname = "stale"\nchanges = ["quadrille-es:L13.deck"]\n', encoding="utf-8"
    )
    assert main(["verify", str(stale)]) == 1
    assert "STALE: declares quadrille-es:L13.deck" in capsys.readouterr().out


def _finding_options() -> list[tuple[str, str, str, str, bool]]:
    """(finding id, game, option name, choice, planned) for every finding that names an option."""
    import tomllib

    out = []
    for path in sorted((ROOT / "conformance" / "manifests").glob("*.toml")):
        manifest = tomllib.loads(path.read_text(encoding="utf-8"))
        game = manifest["document"]["game"]
        for finding in manifest.get("finding", []):
            text = finding.get("option", "")
            planned = text.startswith("planned:")
            found = re.fullmatch(r"(\w+) = ([\w|]+)", text.removeprefix("planned:").strip())
            if found:
                out.append((finding["id"], game, found.group(1), found.group(2), planned))
    return out


def test_finding_options_exist_unless_planned() -> None:
    """A finding's option is a real choice of its game's spec; a 'planned' one is not there yet.

    This keeps the manifests (and docs/decisions.md, which quotes them) from
    promising an option that does not exist, or calling a real one planned.
    """
    from trickrules import load

    games: dict[str, object] = {}
    wrong = []
    for fid, game, name, choices, planned in _finding_options():
        spec = games.setdefault(game, load(game).spec)
        option = spec.options.get(name)  # type: ignore[attr-defined]
        exists = option is not None and all(c in option.choices for c in choices.split("|"))
        if exists == planned:
            wrong.append(f"{fid}: {'planned ' if planned else ''}{name} = {choices}")
    assert not wrong, wrong


def test_decisions_quote_each_findings_option() -> None:
    """docs/decisions.md gives every finding's option as its manifest does."""
    text = (ROOT / "docs" / "decisions.md").read_text(encoding="utf-8")
    missing = []
    for fid, _, name, choices, planned in _finding_options():
        anchor = "### D-" + fid.replace(":", "-") + "\n"
        entry = text.split(anchor, 1)[1].split("\n### ", 1)[0]
        want = f"Planned, not in the spec yet: `{name} = {choices}`" if planned else f"`{name} = {choices}` (an option"
        if want not in entry:
            missing.append(fid)
    assert not missing, missing


_BASE_RESULTS: dict[str, object] = {}


def _option_choices() -> list[object]:
    from trickrules import load

    out: list[object] = []
    for game in ("quadrille", "quadrille-fi", "cuatrola", "manille"):
        for name, option in load(game).spec.options.items():
            choices = [c for c in option.choices if c != option.default]
            out.extend(pytest.param(game, name, c, id=f"{game}-{name}-{c}") for c in choices)
    return out


@pytest.mark.parametrize(("game", "option", "choice"), _option_choices())
def test_every_option_changes_exactly_the_clauses_it_declares(game: str, option: str, choice: str) -> None:
    """Each house-rule choice changes exactly the clauses it declares.

    Its cases change where its ``changes`` table names the clause, and no
    others do (``trickrules verify --option``).
    """
    from trickrules.faces.conformance.runner import verify_option

    report = verify_option(game, option, choice, suite(), _BASE_RESULTS)  # type: ignore[arg-type]
    assert not report.undeclared, report.undeclared
    assert not report.stale, report.stale


def test_verify_option_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """`trickrules verify --option GAME:OPTION=CHOICE` reports the clauses the choice changes."""
    assert main(["verify", "--option", "quadrille:whist_style_following=on"]) == 0
    out = capsys.readouterr().out
    assert "quadrille-es:L77.whist-following:" in out
    assert "ok: declares quadrille-es:L51.trick-winner, quadrille-es:L77.whist-following" in out


_RUFFED_HANDS = [
    ["AS", "QH", "JH", "2H", "3H", "KC", "4D", "6D", "7D", "AC"],
    ["KS", "QS", "JS", "7S", "6S", "5S", "4S", "3S", "2S", "KH"],
    ["2D", "5D", "QC", "JC", "7C", "6C", "5C", "4C", "4H", "5H"],
    ["3D", "AD", "KD", "QD", "JD", "3C", "2C", "6H", "7H", "AH"],
]


def _after_a_ruff(options: dict[str, str]) -> State:
    """quadrille-fi, diamonds trumps: 3S led and ruffed with 2D; seat 3, void in spades, to play."""
    state = load("quadrille-fi", options).new_match(hands=_RUFFED_HANDS, dealer=0)
    for text in ("bid solo", "pass", "pass", "pass", "trump D", "play 3S", "play 2D"):
        state = state.apply(text)
    return state


def test_no_undertrump_refuses_a_low_trump_while_other_cards_are_open() -> None:
    """The ``no_undertrump`` primitive, through quadrille-fi's forbid_undertrump option (finding F19).

    Seat 3's higher trumps (AD, KD, QD, JD) and its plain cards stay open; 3D,
    below 2D, does not. Without the option 3D may be played.
    """
    state = _after_a_ruff({"forbid_undertrump": "on"})
    legal = {str(a) for a in state.legal_actions()}
    assert "play 3D" not in legal
    assert {"play AD", "play 3C", "play 6H"} <= legal
    with pytest.raises(IllegalActionError, match="may not undertrump"):
        state.apply("play 3D")
    assert "play 3D" in {str(a) for a in _after_a_ruff({}).legal_actions()}


def test_no_undertrump_leaves_the_low_trumps_when_nothing_else_is_allowed() -> None:
    """A player whose only allowed cards are trumps below the trick's winning trump still plays one."""
    state = _after_a_ruff({"forbid_undertrump": "on"})
    tables = state.game.tables
    trump = state.deal.trump
    assert trump is not None
    data = tables.trumps[trump]
    low = 1 << tables.card_of["3D"]
    trick = state.trick
    # Only a low trump allowed: it stays. A low trump and a plain card: the low trump goes.
    seat = state.to_move
    assert seat is not None

    def without_undertrumps(allowed: int) -> tuple[int, str]:
        return _no_undertrump(NoUndertrump(), tables, data, allowed, "", trick, state.leader, seat, state.deal)

    assert without_undertrumps(low) == (low, "")
    plain = 1 << tables.card_of["3C"]
    assert without_undertrumps(low | plain) == (
        plain,
        "no_undertrump",
    )


def test_no_normative_clause_is_pinned_by_one_case() -> None:
    """Every clause that states a rule has at least two cases (the rule and its edge, both sides, ...)."""
    counts: dict[str, int] = {}
    for case in suite().cases:
        for clause in case.clauses:
            counts[clause] = counts.get(clause, 0) + 1
    thin = [
        f"{c.id} ({counts.get(c.id, 0)})" for m in suite().manifests for c in m.clause
        if c.testable != "meta" and counts.get(c.id, 0) < 2
    ]  # fmt: skip
    assert not thin, thin


def test_no_reading_is_only_planned() -> None:
    """Every finding's other reading is an option of its game, or the manifest says why no one plays it."""
    undecided = [
        f.id for m in suite().manifests for f in m.finding
        if f.alternative and (f.option.startswith("planned") or not (f.option or f.no_option_because))
    ]  # fmt: skip
    assert not undecided, undecided

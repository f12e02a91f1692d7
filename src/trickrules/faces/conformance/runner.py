"""Running conformance cases, counting coverage, and verifying variants.

A case loads its game (the document's, or the spec given to the runner), starts a match from its seed,
dealer and stacked hands, applies its actions and checks its expectations. Each failure names the case,
its clauses, their source lines and what differed.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from attrs import frozen

from trickrules.engine.events import event_to_data
from trickrules.engine.game import Game, load
from trickrules.engine.phases.call import CallView
from trickrules.engine.state import GameLike, State
from trickrules.errors import IllegalActionError, SpecError, TrickrulesError
from trickrules.faces.conformance.model import Case, Expect, Manifest, load_cases, load_manifest
from trickrules.faces.conformance.sources import ChangedLine, account
from trickrules.faces.render import rules_data
from trickrules.records.view import View
from trickrules.spec.converter import unstructure
from trickrules.spec.loader import bundled_names

__all__ = [
    "CaseResult",
    "DocumentReport",
    "Suite",
    "base_of",
    "check_case",
    "default_root",
    "load_suite",
    "run_suite",
    "verify_option",
    "verify_variant",
]


def default_root() -> Path:
    """The bundled ``conformance/`` folder (next to ``specs/`` in a checkout)."""
    package = Path(__file__).resolve().parents[2]
    installed = package / "_conformance"
    return installed if installed.is_dir() else package.parent.parent / "conformance"


def default_seeds() -> Path:
    """Where the source documents are: ``shared/seeds`` beside the checkout."""
    return default_root().parent.parent / "shared" / "seeds"


SEEDS = default_seeds()


@frozen
class Suite:
    """Manifests by document id, and every case."""

    manifests: tuple[Manifest, ...]
    cases: tuple[Case, ...]

    def document_of(self, clause: str) -> str:
        """The document id a clause id belongs to (the part before ``:``)."""
        return clause.split(":", 1)[0]


def load_suite(root: Path | None = None, extra_cases: Iterable[Path] = ()) -> Suite:
    """Read every manifest under ``root/manifests`` and every case file under ``root/cases``."""
    root = root or default_root()
    manifests = tuple(load_manifest(p) for p in sorted((root / "manifests").glob("*.toml")))
    cases: list[Case] = []
    for folder in (root / "cases", *extra_cases):
        for path in sorted(Path(folder).rglob("*.toml")):
            cases.extend(load_cases(path))
    ids = [c.id for c in cases]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise SpecError(f"conformance cases: duplicate case ids {dupes}")
    return Suite(manifests, tuple(cases))


@frozen
class CaseResult:
    """The outcome of one case: passed, or the first thing that differed."""

    case: Case
    passed: bool
    detail: str = ""
    observed: str = ""
    #: The situation could not be reached (the game did not load, or an action was refused).
    setup_failed: bool = False


class Games:
    """Compiled games, cached by (spec, options)."""

    def __init__(
        self, override: str | None = None, override_base: str | None = None, extra: Mapping[str, str] | None = None
    ) -> None:
        self.override = override
        self.override_base = override_base
        # Options every game is loaded with, unless a case chooses them itself.
        self.extra = dict(extra or {})
        self._cache: dict[tuple[str, tuple[tuple[str, str], ...]], Game] = {}

    def get(self, name: str, options: Mapping[str, str]) -> Game:
        source = name
        if self.override is not None and (self.override_base is None or name == self.override_base):
            source = self.override
        options = {**self.extra, **options}
        key = (source, tuple(sorted(options.items())))
        game = self._cache.get(key)
        if game is None:
            game = self._cache[key] = load(source, dict(options))
        return game


def _event_matches(event: dict[str, Any], want: Mapping[str, Any]) -> bool:
    def same(got: object, value: object) -> bool:
        if isinstance(value, list | tuple):
            return isinstance(got, list | tuple) and list(got) == list(value)
        return got == value

    return all(same(event.get(key), value) for key, value in want.items())


def _fmt(value: object) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    return repr(value) if isinstance(value, str) else str(value)


def _differ(what: str, want: object, got: object) -> str:
    return f"{what}: expected {_fmt(want)}, got {_fmt(got)}"


def _check_cards(game: GameLike, expect: Expect) -> list[str]:
    """The expectations about the card orders, the deck and the card points that do not hold."""
    bad: list[str] = []
    if expect.trump or expect.trump_order is not None or expect.plain_order is not None:
        data = rules_data(game, expect.trump or None)
        if expect.trump_order is not None and list(expect.trump_order) != data["trump_order"]:
            bad.append(_differ(f"trump order with trump {data['trump']}", expect.trump_order, data["trump_order"]))
        for suit, order in (expect.plain_order or {}).items():
            got = data["plain_orders"].get(suit, [])
            if list(order) != got:
                bad.append(_differ(f"plain order of {suit} with trump {data['trump']}", order, got))
    if expect.deck_size is not None and expect.deck_size != game.cards.size:
        bad.append(_differ("deck size", expect.deck_size, game.cards.size))
    if expect.total_points is not None and expect.total_points != sum(game.cards.points):
        bad.append(_differ("total card points", expect.total_points, sum(game.cards.points)))
    for code, points in (expect.card_points or {}).items():
        got_points = game.cards.points[game.cards.card(code)] if code in game.cards.codes else None
        if got_points != points:
            bad.append(_differ(f"points of {code}", points, got_points))
    return bad


def _check_turn(state: State, expect: Expect) -> list[str]:
    """The expectations about the phase, the seat to move and its legal actions that do not hold."""
    bad: list[str] = []
    if expect.phase and expect.phase != state.phase:
        bad.append(_differ("phase", expect.phase, state.phase))
    if expect.to_move is not None and expect.to_move != state.to_move:
        bad.append(_differ("seat to move", expect.to_move, state.to_move))
    legal = [str(a) for a in state.legal_actions()]
    if expect.legal is not None and sorted(expect.legal) != sorted(legal):
        bad.append(_differ("legal actions", sorted(expect.legal), sorted(legal)))
    for text in expect.legal_includes:
        if text not in legal:
            bad.append(f"legal actions: expected {text!r} among them, got {_fmt(legal)}")
    for text in expect.legal_excludes:
        if text in legal:
            bad.append(f"legal actions: expected {text!r} not among them, got {_fmt(legal)}")
    for reject in expect.rejects:
        try:
            state.apply(reject.action)
        except IllegalActionError as exc:
            if reject.reason and reject.reason not in str(exc):
                bad.append(f"{reject.action!r} was refused, but the reason {str(exc)!r} does not say {reject.reason!r}")
        else:
            bad.append(f"{reject.action!r} was accepted; expected it to be refused ({reject.reason or 'any reason'})")
    return bad


def _check_events(state: State, expect: Expect) -> list[str]:
    """The expectations about the last step's events and the whole log that do not hold."""
    bad: list[str] = []
    last = [event_to_data(e) for e in state.last_events]
    for want in expect.events:
        if not any(_event_matches(e, want) for e in last):
            bad.append(f"the last step's events: expected one like {dict(want)}, got {last}")
    if expect.log_includes or expect.log_excludes:
        log = [event_to_data(e) for _, e in state.entries()]
        for want in expect.log_includes:
            if not any(_event_matches(e, want) for e in log):
                bad.append(f"the log: expected an event like {dict(want)}")
        for want in expect.log_excludes:
            found = [e for e in log if _event_matches(e, want)]
            if found:
                bad.append(f"the log: expected no event like {dict(want)}, found {found[0]}")
    return bad


def _check_deal(game: GameLike, state: State, expect: Expect) -> list[str]:
    """The expectations about the deal and the match (contract, tricks, scores...) that do not hold."""
    bad: list[str] = []
    if expect.contract is not None and expect.contract != (state.contract or ""):
        bad.append(_differ("contract", expect.contract, state.contract or ""))
    if expect.declarer is not None and expect.declarer != state.declarer:
        bad.append(_differ("declarer", expect.declarer, state.declarer))
    if expect.dealer is not None and expect.dealer != state.dealer:
        bad.append(_differ("dealer", expect.dealer, state.dealer))
    if expect.state_trump is not None and expect.state_trump != state.trump:
        bad.append(_differ("trumps", expect.state_trump, state.trump))
    if expect.tricks_won is not None:
        got = [state.tricks_won()[s] for s in range(game.rules.players)]
        if list(expect.tricks_won) != got:
            bad.append(_differ("tricks won", expect.tricks_won, got))
    if expect.scoreboard is not None and list(expect.scoreboard) != list(state.match.scores):
        bad.append(_differ("scoreboard", expect.scoreboard, state.match.scores))
    if expect.pot is not None and expect.pot != state.pot:
        bad.append(_differ("pot", expect.pot, state.pot))
    if expect.terminal is not None and expect.terminal != state.is_terminal:
        bad.append(_differ("match over", expect.terminal, state.is_terminal))
    if expect.winners is not None and list(expect.winners) != list(state.winners):
        bad.append(_differ("winners", expect.winners, state.winners))
    return bad


def _check_seats(state: State, expect: Expect) -> list[str]:
    """The expectations about the seats' hands and views that do not hold."""
    bad: list[str] = []
    for seat_key, cards in (expect.hand or {}).items():
        got_hand = state.hand(int(seat_key))
        if sorted(cards) != sorted(got_hand):
            bad.append(_differ(f"hand of seat {seat_key}", sorted(cards), sorted(got_hand)))
    for seat_text, partner in (expect.view_partner or {}).items():
        got_partner = _partner_seen(View.from_state(state, int(seat_text)))
        if got_partner != partner:
            bad.append(_differ(f"seat {seat_text}'s view of the partner", partner, got_partner))
    for seat in expect.view_hides_partner:
        view = View.from_state(state, seat)
        seen = _partner_seen(view)
        if seen is not None:
            bad.append(f"seat {seat}'s view shows the partner (seat {seen}) before the rules reveal it")
        if "partner" in view.to_json().replace('"partner":null', ""):
            bad.append(f"seat {seat}'s view JSON names the partner")
    return bad


def _check(game: GameLike, state: State, expect: Expect) -> list[str]:
    """The expectations that do not hold, as sentences (empty: all hold)."""
    return [
        *_check_cards(game, expect),
        *_check_turn(state, expect),
        *_check_events(state, expect),
        *_check_deal(game, state, expect),
        *_check_seats(state, expect),
    ]


def check_case(case: Case, games: Games, default_game: str) -> CaseResult:
    """Run one case; never raises for a rules problem (that is a failed case)."""
    name = case.game or default_game
    if case.expect.load_error:
        try:
            games.get(name, case.options)
        except SpecError as exc:
            if case.expect.load_error in str(exc):
                return CaseResult(case, True, "", str(exc))
            said = f"the load was refused, but {str(exc)!r} does not say {case.expect.load_error!r}"
            return CaseResult(case, False, said)
        return CaseResult(case, False, f"the game loaded; expected a refusal saying {case.expect.load_error!r}")
    try:
        game = games.get(name, case.options)
    except TrickrulesError as exc:
        return CaseResult(
            case, False, f"the game {name!r} with options {dict(case.options)} does not load: {exc}", setup_failed=True
        )
    try:
        state = game.new_match(
            seed=case.seed,
            dealer=case.dealer,
            hands=[list(h) for h in case.hands] if case.hands is not None else None,
            turned=case.turned or None,
            scores=list(case.scores) if case.scores is not None else None,
            pot=case.pot,
        )
    except (ValueError, TrickrulesError) as exc:
        return CaseResult(case, False, f"the situation cannot be set up: {exc}", setup_failed=True)
    for n, text in enumerate(case.actions):
        try:
            state = state.apply(text)
        except (IllegalActionError, ValueError) as exc:
            return CaseResult(case, False, f"action {n + 1} ({text!r}) was refused: {exc}", setup_failed=True)
    try:
        problems = _check(game, state, case.expect)
    except (ValueError, TrickrulesError) as exc:
        problems = [f"an expectation could not be checked: {exc}"]
    observed = str(unstructure(View.from_state(state, state.to_move if state.to_move is not None else 0)))[:2000]
    if problems:
        return CaseResult(case, False, "; ".join(problems), observed)
    return CaseResult(case, True, "", observed)


#: The counts of a document's report, in the order the reports give them.
COUNTS = ("lines", "normative", "informative", "clauses", "cases", "passed", "failed", "unaccounted")


@frozen
class DocumentReport:
    """Counts for one source document, and its failures."""

    source: str
    document: str
    lines: int
    normative: int
    informative: int
    clauses: int
    cases: int
    passed: int
    failed: int
    unaccounted: int
    problems: tuple[str, ...]
    failures: tuple[CaseResult, ...]
    #: Whether the source document was at hand, so that its lines' text was checked against the digests.
    sources_checked: bool = False
    #: The accounted lines whose text no longer has the manifest's digest (each is also among ``problems``).
    changed: tuple[ChangedLine, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether nothing is wrong: no failed case, no line unaccounted for or changed, no other problem."""
        return not (self.failed or self.unaccounted or self.changed or self.problems)

    def counts(self) -> dict[str, Any]:
        """The document as the ``--json`` output gives it: the counts, then what is wrong, by name.

        ``changed`` counts the lines whose text no longer has the manifest's
        digest and ``changed_lines`` names them; ``problems`` lists every
        problem as the text report words it (changed lines among them) and
        ``failures`` every failed case.
        """
        out: dict[str, Any] = {k: getattr(self, k) for k in ("source", "document", *COUNTS)}
        out["changed"] = len(self.changed)
        out["changed_lines"] = [c.to_json() for c in self.changed]
        out["problems"] = list(self.problems)
        out["failures"] = [
            {"case": f.case.id, "clauses": list(f.case.clauses), "path": f.case.path, "detail": f.detail}
            for f in self.failures
        ]
        return out


def run_suite(
    suite: Suite,
    documents: Iterable[str] = (),
    spec: str | None = None,
    select: str | None = None,
    seeds: Path = SEEDS,
) -> list[DocumentReport]:
    """Run the cases of the chosen documents (all by default) and count coverage.

    ``spec`` runs every case against that spec file instead of the game the
    case names (only for cases of the game the spec extends, when it is an
    overlay). ``select`` is a glob over case ids and clause ids.
    """
    wanted = set(documents)
    base = base_of(spec) if spec else None
    games = Games(spec, base)
    clauses_all = {c.id: c for m in suite.manifests for c in m.clause}
    by_clause: dict[str, list[Case]] = {}
    for case in suite.cases:
        for clause in case.clauses:
            by_clause.setdefault(clause, []).append(case)
    default_game = {m.document.id: m.document.game for m in suite.manifests}
    results: dict[str, CaseResult] = {}
    reports = []
    for manifest in suite.manifests:
        doc = manifest.document
        if wanted and doc.id not in wanted and doc.game not in wanted:
            continue
        accounting = account(manifest, seeds, set(clauses_all))
        problems = list(accounting.problems)
        mine = sorted({c for entry in manifest.line for c in entry.clauses} | {c.id for c in manifest.clause})
        cases: dict[str, Case] = {}
        for clause_id in mine:
            known = clauses_all.get(clause_id)
            if known is None:
                continue
            found = by_clause.get(clause_id, [])
            if not found and known.testable != "meta":
                problems.append(f"clause {clause_id} (line {', '.join(map(str, known.lines))}) has no case")
            for case in found:
                cases[case.id] = case
        if select:
            cases = {
                k: c
                for k, c in cases.items()
                if fnmatch.fnmatch(k, select) or any(fnmatch.fnmatch(x, select) for x in c.clauses)
            }
        failures = []
        passed = 0
        for case_id, case in sorted(cases.items()):
            if case_id not in results:
                owner = suite.document_of(case.clauses[0])
                results[case_id] = check_case(case, games, default_game.get(owner, doc.game))
            result = results[case_id]
            if result.passed:
                passed += 1
            else:
                failures.append(result)
        unaccounted = sum(1 for p in problems if "not accounted" in p or "names no clause" in p or "says not why" in p)
        reports.append(
            DocumentReport(
                source=doc.source,
                document=doc.id,
                lines=accounting.lines,
                normative=accounting.normative,
                informative=accounting.informative,
                clauses=len(mine),
                cases=len(cases),
                passed=passed,
                failed=len(failures),
                unaccounted=unaccounted,
                problems=tuple(problems),
                failures=tuple(failures),
                sources_checked=accounting.checked,
                changed=accounting.changed,
            )
        )
    return reports


def base_of(spec: str) -> str | None:
    """The bundled game an overlay (finally) extends, or ``None`` for a standalone spec."""
    from trickrules.spec.loader import read_raw

    path = Path(spec)
    for _ in range(8):
        if spec in bundled_names() and not path.is_file():
            return spec
        raw = read_raw(path)
        parent = raw.get("extends")
        if not isinstance(parent, str):
            return raw.get("name") if isinstance(raw.get("name"), str) and raw["name"] in bundled_names() else None
        if parent in bundled_names():
            return parent
        path = path.parent / parent
        spec = str(path)
    return None


def describe_failure(result: CaseResult, suite: Suite) -> str:
    """A failure as the runner prints it: case, clauses with lines and paraphrase, what differed."""
    clauses = {c.id: c for m in suite.manifests for c in m.clause}
    out = [f"FAIL {result.case.id} ({result.case.path})"]
    for clause_id in result.case.clauses:
        clause = clauses.get(clause_id)
        if clause is None:
            out.append(f"  {clause_id}: (no such clause in any manifest)")
        else:
            out.append(f"  {clause_id} (line {', '.join(map(str, clause.lines))}): {clause.says}")
    out.append(f"  differs: {result.detail}")
    return "\n".join(out)


@frozen
class VariantReport:
    """What a variant changes: per declared clause, the cases whose outcome changed."""

    variant: str
    base: str
    declared: tuple[str, ...]
    changed: tuple[tuple[tuple[str, ...], str, str], ...]
    stale: tuple[str, ...]
    undeclared: tuple[tuple[str, str], ...]
    cases: int
    inapplicable: tuple[tuple[str, str], ...] = ()

    @property
    def ok(self) -> bool:
        """Whether the variant changes exactly the clauses it declares."""
        return not self.stale and not self.undeclared


def verify_variant(overlay: str, suite: Suite) -> VariantReport:
    """Run the base game's cases against ``overlay`` and compare outcomes.

    A case *changes* when it passes under one and fails under the other, or
    fails differently. A case whose situation the variant cannot reach (an
    action of its setup is refused) is *inapplicable* unless its clause is
    declared: it is listed, but tells nothing about its clause. Every clause the overlay declares (``variant.changes``
    and the ``changes`` of the options it chooses) must have a changed case;
    no case of an undeclared clause may change.
    """
    base = base_of(overlay)
    if base is None:
        raise SpecError(f"{overlay}: it extends no bundled game, so no conformance case compares it with its base.")
    variant_game = load(overlay)
    spec = variant_game.spec
    declared = set(spec.variant.changes if spec.variant else ())
    for name, choice in spec.chosen.items():
        option = spec.options[name]
        if choice != option.default:
            declared.update(option.changes.get(choice, ()))
    return _compare(spec.variant.name if spec.variant else spec.name, base, declared, suite, Games(overlay, base))


def verify_option(
    game: str, option: str, choice: str, suite: Suite, base_results: dict[str, CaseResult] | None = None
) -> VariantReport:
    """Run ``game``'s cases with one option choice and compare outcomes, as :func:`verify_variant` does.

    The choice must change exactly the clauses its option's ``changes`` table
    declares for it. A case that chooses the option itself keeps its own
    choice. ``base_results`` may carry the base game's results between calls.
    """
    spec = load(game).spec
    known = spec.options.get(option)
    if known is None:
        raise SpecError(f"{game}: unknown option {option!r} (options: {', '.join(spec.options)}).")
    if choice not in known.choices:
        raise SpecError(f"{game}: option {option!r} has no choice {choice!r} (choices: {', '.join(known.choices)}).")
    declared = set(spec.options[option].changes.get(choice, ()))
    variant_games = Games(extra={option: choice})
    return _compare(f"{game} {option}={choice}", game, declared, suite, variant_games, base_results)


def _compare(
    name: str,
    base: str,
    declared: set[str],
    suite: Suite,
    variant_games: Games,
    base_results: dict[str, CaseResult] | None = None,
) -> VariantReport:
    """Run ``base``'s cases under ``base`` and under ``variant_games``; sort the changes by declaration."""
    documents = {m.document.id for m in suite.manifests if m.document.game == base}
    cases = [c for c in suite.cases if suite.document_of(c.clauses[0]) in documents and (not c.game or c.game == base)]
    base_games = Games()
    changed: list[tuple[tuple[str, ...], str, str]] = []
    undeclared: list[tuple[str, str]] = []
    inapplicable: list[tuple[str, str]] = []
    touched: set[str] = set()
    known = base_results if base_results is not None else {}
    for case in cases:
        key = f"{base}|{case.id}"
        before = known.get(key) or check_case(case, base_games, base)
        known[key] = before
        after = check_case(case, variant_games, base)
        if (before.passed, before.detail) == (after.passed, after.detail):
            continue
        what = after.detail if not after.passed else f"passes under the variant; under {base}: {before.detail}"
        hit = [c for c in case.clauses if c in declared]
        if hit:
            touched.update(hit)
            changed.append((tuple(hit), case.id, what))
        elif after.setup_failed and before.passed:
            # The variant's rules never reach this case's situation (an action of its
            # setup is not legal there): it says nothing about the case's own clause.
            inapplicable.append((case.id, what))
        else:
            undeclared.append((case.id, what))
    stale = tuple(sorted(declared - touched))
    return VariantReport(
        name,
        base,
        tuple(sorted(declared)),
        tuple(changed),
        stale,
        tuple(undeclared),
        len(cases),
        tuple(inapplicable),
    )


def _partner_seen(view: View) -> int | None:
    """The called card's holder as the view shows him (``None``: hidden, or no call in this game)."""
    call = view.part(CallView)
    return None if call is None else call.partner

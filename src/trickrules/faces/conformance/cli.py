"""The ``trickrules conformance`` and ``trickrules verify`` commands (the reports they print are in ``report``)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from trickrules.errors import ArgumentError
from trickrules.faces.conformance.report import KEYS, coverage_markdown, json_report, problem_lines, totals
from trickrules.faces.conformance.runner import (
    SEEDS,
    Suite,
    VariantReport,
    describe_failure,
    load_suite,
    run_suite,
    verify_option,
    verify_variant,
)
from trickrules.faces.conformance.standalone import SpecReport, is_overlay, verify_spec
from trickrules.faces.guard import input_file
from trickrules.spec.loader import bundled_names

__all__ = ["add_commands", "coverage_markdown"]


def _folder(path: str | None, flag: str) -> Path | None:
    """``path`` as a folder that exists; :class:`ArgumentError` naming ``flag`` if it is not one."""
    if path is None:
        return None
    folder = Path(path)
    if not folder.is_dir():
        raise ArgumentError(f"{flag}: {path!r} is not a folder that exists")
    return folder


def _root(path: str | None) -> Path | None:
    root = _folder(path, "--root")
    if root is not None and not (root / "manifests").is_dir():
        raise ArgumentError(f"--root: {str(root)!r} holds no 'manifests' folder (not a conformance folder)")
    return root


def _cmd_conformance(args: argparse.Namespace) -> int:
    root = _root(args.root)
    cases = _folder(args.cases, "--cases")
    suite = load_suite(root, [cases] if cases else [])
    known = {m.document.id for m in suite.manifests} | {m.document.game for m in suite.manifests}
    unknown = [g for g in args.games if g not in known]
    if unknown:
        raise ArgumentError(
            f"no document or game {', '.join(map(repr, unknown))} in the suite (games and documents: "
            f"{', '.join(sorted(known))})"
        )
    seeds = _seeds(args.seeds, suite, args.require_sources)
    reports = run_suite(suite, args.games, spec=args.spec, select=args.select, seeds=seeds)
    unchecked = [r.source for r in reports if not r.sources_checked]
    if unchecked:
        print(
            f"conformance: the source documents are not in {seeds} ({', '.join(unchecked)}): the digests of their "
            "lines were not checked, only the cases ran; point --seeds at the documents' folder, or pass "
            "--require-sources to make this an error",
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps(json_report(reports), indent=2))
        for line in problem_lines(reports):  # stdout is the JSON: each reason for exit 1 is said here
            print(line, file=sys.stderr)
    else:
        header = f"{'source':<28}" + "".join(f"{k:>12}" for k in KEYS)
        print(header)
        for r in reports:
            print(f"{r.source:<28}" + "".join(f"{getattr(r, k):>12}" for k in KEYS))
        total = totals(reports)
        print(f"{'total':<28}" + "".join(f"{total[k]:>12}" for k in KEYS))
        for r in reports:
            for problem in r.problems:
                print(f"{r.document}: {problem}")
            for failure in r.failures:
                print(describe_failure(failure, suite))
    return 0 if all(r.ok for r in reports) else 1


def _seeds(given: str | None, suite: Suite, required: bool) -> Path:
    """The folder of the source documents: ``--seeds``, which must hold every document a manifest names.

    Without ``--seeds`` the bundled place (``shared/seeds`` beside the
    checkout) is used; a document missing there is only reported, unless
    ``--require-sources``.
    """
    folder = Path(given) if given is not None else SEEDS
    missing = [m.document.source for m in suite.manifests if not (folder / m.document.source).is_file()]
    if given is not None and not folder.is_dir():
        raise ArgumentError(f"--seeds: {given!r} is not a folder that exists")
    if missing and (given is not None or required):
        where = f"--seeds {given!r}" if given is not None else f"{folder} (--require-sources)"
        raise ArgumentError(f"{where}: the source documents {', '.join(missing)} are not there")
    return folder


def _cmd_verify(args: argparse.Namespace) -> int:
    if not args.overlays and not args.option:
        raise ArgumentError("nothing to verify: name a spec or overlay file or give --option GAME:OPTION=CHOICE")
    for overlay in args.overlays:
        if os.path.lexists(overlay):
            input_file(overlay)  # a regular file: a named pipe or a device is refused unread
        elif overlay not in bundled_names():
            raise ArgumentError(f"{overlay!r} is neither a spec or overlay file that exists nor a bundled overlay")
    options = []
    for text in args.option or ():
        game, _, rest = text.partition(":")
        name, _, choice = rest.partition("=")
        if not (game and name and choice):
            raise ArgumentError(f"--option {text!r}: expected GAME:OPTION=CHOICE (a game, its option, a choice)")
        options.append((text, game, name, choice))
    suite = load_suite(_root(args.root))
    status = 0
    for overlay in args.overlays:
        if Path(overlay).is_file() and not is_overlay(overlay):
            status |= _print_spec(overlay, verify_spec(overlay, suite), suite)
        else:
            status |= _print_variant(overlay, verify_variant(overlay, suite))
    for text, game, name, choice in options:
        status |= _print_variant(text, verify_option(game, name, choice, suite))
    return status


def _print_spec(what: str, report: SpecReport, suite: Suite) -> int:
    """Print a standalone spec's verification; its exit status (1 unless it had cases and all passed)."""
    if not report.results:
        print(
            f"{what}: no conformance case names the game {report.game!r}: nothing verified "
            "(write cases for it, see docs/conformance-format.md)",
            file=sys.stderr,
        )
        return 1
    failed = report.failures
    print(f"{what}: standalone spec of {report.game!r}, {len(report.results)} cases of its game")
    for result in failed:
        print(f"  {describe_failure(result, suite)}")
    print(f"  {'ok' if report.ok else 'FAILED'}: {len(report.results) - len(failed)} passed, {len(failed)} failed")
    return 0 if report.ok else 1


def _print_variant(what: str, report: VariantReport) -> int:
    """Print a variant's verification; its exit status (1 unless it changes exactly what it declares)."""
    print(f"{what}: variant {report.variant!r} of {report.base!r}, {report.cases} cases of the base game")
    for clause in report.declared:
        hits = [(case, what) for clauses, case, what in report.changed if clause in clauses]
        for case, change in hits:
            print(f"  {clause}: {case} changes: {change}")
    for clause in report.stale:
        print(f"  STALE: declares {clause}, but no case of it changes")
    for case, change in report.undeclared:
        print(f"  UNDECLARED: {case} changes: {change}")
    if report.inapplicable:
        print(f"  {len(report.inapplicable)} cases not applicable (the variant cannot reach their situation):")
        for case, _ in report.inapplicable:
            print(f"    {case}")
    print(f"  {'ok' if report.ok else 'FAILED'}: declares {', '.join(report.declared) or 'nothing'}")
    return 0 if report.ok else 1


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Register ``conformance`` and ``verify`` on the ``trickrules`` command line."""
    p = sub.add_parser("conformance", help="run the conformance suite and report coverage per document")
    p.add_argument("games", nargs="*", help="games or document ids to run (default: all)")
    p.add_argument("--spec", help="run the cases against this spec or overlay file")
    p.add_argument("--cases", help="a folder of extra case files")
    p.add_argument("--select", help="only cases whose id or clause matches this glob")
    p.add_argument("--json", action="store_true", help="print the report as JSON (counts, changed lines, problems)")
    p.add_argument("--root", help="the conformance folder (default: the bundled one)")
    p.add_argument("--seeds", help=f"the folder of the source documents (default: {SEEDS})")
    p.add_argument(
        "--require-sources",
        action="store_true",
        help="fail if the source documents are not found (their lines' digests cannot be checked without them)",
    )
    p.set_defaults(func=_cmd_conformance)

    p = sub.add_parser(
        "verify",
        help="check that an overlay changes exactly the clauses it declares, or run a standalone spec's cases",
    )
    p.add_argument("overlays", nargs="*", metavar="SPEC_OR_OVERLAY.toml")
    p.add_argument(
        "--option",
        action="append",
        metavar="GAME:OPTION=CHOICE",
        help="verify one option choice of a game instead (repeatable)",
    )
    p.add_argument("--root", help="the conformance folder (default: the bundled one)")
    p.set_defaults(func=_cmd_verify)

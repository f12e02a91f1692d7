"""Regenerate ``docs/conformance.md`` from the suite: ``python -m trickrules.faces.conformance.report``."""

from __future__ import annotations

from trickrules.faces.conformance.cli import coverage_markdown
from trickrules.faces.conformance.runner import default_root, load_suite, run_suite


def main() -> None:
    """Run the suite and write the coverage report next to the conformance folder."""
    suite = load_suite()
    text = coverage_markdown(suite, run_suite(suite))
    (default_root().parent / "docs" / "conformance.md").write_text(text, encoding="utf-8")
    print("docs/conformance.md written")


if __name__ == "__main__":
    main()

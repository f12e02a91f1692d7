"""The conformance suite.

Manifests that account for every line of the rule documents, executable
cases per clause, the runner, and variant verification.
"""

from trickrules.conformance.model import Case, Manifest, load_cases, load_manifest
from trickrules.conformance.runner import load_suite, run_suite, verify_variant

__all__ = ["Case", "Manifest", "load_cases", "load_manifest", "load_suite", "run_suite", "verify_variant"]

"""The conformance suite.

Manifests that account for every line of the rule documents, executable
cases per clause, the runner, and variant verification.
"""

from trickrules.faces.conformance.model import Case, Manifest, load_cases, load_manifest
from trickrules.faces.conformance.runner import load_suite, run_suite, verify_variant

__all__ = ["Case", "Manifest", "load_cases", "load_manifest", "load_suite", "run_suite", "verify_variant"]

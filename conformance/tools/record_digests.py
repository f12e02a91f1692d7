"""Record, in each manifest, the digest of every accounted line's text, from the source documents.

Run it after re-reading the lines whose text changed (the conformance run
names them: "004:29 changed since the manifest was written"), and after
updating their clauses and cases:

    python conformance/tools/record_digests.py [--seeds ../shared/seeds] [MANIFEST ...]

Only the ``digest = "..."`` line of each ``[[line]]`` entry is written; the
rest of a manifest is left as it is.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from trickrules.faces.conformance.model import load_manifest
from trickrules.faces.conformance.runner import SEEDS
from trickrules.faces.conformance.sources import recorded, source_lines

HERE = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifests", nargs="*", type=Path, help="default: every manifest of conformance/")
    parser.add_argument("--seeds", type=Path, default=SEEDS, help="the folder of the source documents")
    args = parser.parse_args()
    for path in args.manifests or sorted((HERE / "manifests").glob("*.toml")):
        manifest = load_manifest(path)
        text = source_lines(manifest, args.seeds)
        if text is None:
            raise SystemExit(f"{path}: its document {manifest.document.source} is not in {args.seeds}")
        before = path.read_text(encoding="utf-8")
        after = recorded(before, text)
        path.write_text(after, encoding="utf-8")
        print(f"{path.name}: {after.count('digest = ')} line digests recorded")


if __name__ == "__main__":
    main()

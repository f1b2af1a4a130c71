"""Rebuild medfig's default concept lexicon (src/medfig/concepts/data/roco_lexicon.tsv).

    .venv/bin/python tools/build_concept_lexicon.py ../shared/data/roco_v1_text/data \
        --vocabulary ../shared/data/rocov2_concepts/cui_mapping.csv

Learns from ROCO v1's train and validation folders only (test is what benchmarks/curate_concepts.py
scores on), with medfig's own learner (medfig.concepts.lexicon.learn_lexicon); the vocabulary's
names are the dictionary triggers the captions may block. Same input, same file (byte for byte).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from medfig.concepts.default_lexicon import DEFAULT_LEXICON, learn_default_lexicon
from medfig.concepts.vocabulary import load_vocabulary
from medfig.records import MedfigError


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("roco_data", help="ROCO v1 data/ folder (with train/ and validation/)")
    p.add_argument("--vocabulary", required=True, help="ROCOv2 cui_mapping.csv (its names are the dictionary triggers)")
    p.add_argument("-o", "--output", default=str(DEFAULT_LEXICON), help=f"lexicon TSV (default {DEFAULT_LEXICON})")
    args = p.parse_args(argv)
    try:
        lexicon, facts = learn_default_lexicon(args.roco_data, load_vocabulary(args.vocabulary))
    except MedfigError as exc:
        print(f"build_concept_lexicon: {exc}", file=sys.stderr)
        return 2
    lexicon.save(Path(args.output))
    print(f"{args.output}: {facts['terms']} terms, {facts['blocked_pairs']} blocked dictionary pairs, "
          f"from {facts['captions_per_folder']}; {Path(args.output).stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

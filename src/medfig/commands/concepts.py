"""``medfig concepts CAPTIONS.tsv --vocabulary FILE``: ROCO-style ``id<TAB>caption`` in, ``id<TAB>CUI;CUI`` out."""

from __future__ import annotations

import argparse
import sys


def run(args: argparse.Namespace) -> int:
    from medfig.concepts.lexicon import learn_lexicon
    from medfig.concepts.matcher import DictionaryMatcher
    from medfig.concepts.roco import read_captions, read_roco_split
    from medfig.concepts.tagger import ConceptTagger, read_id_list
    from medfig.concepts.vocabulary import load_vocabulary, mesh_vocabulary_path
    from medfig.records import MedfigError

    try:
        vocab = load_vocabulary(mesh_vocabulary_path() if args.vocabulary == "mesh" else args.vocabulary)
        lexicon = args.lexicon
        if args.learn_from:
            examples = []
            for folder in args.learn_from:
                caps, gold = read_roco_split(folder)
                examples += [(caps[k], gold.get(k, [])) for k in caps]
            lexicon = learn_lexicon(examples, DictionaryMatcher.from_vocabulary(vocab), set(vocab.names))
            if args.save_lexicon:
                lexicon.save(args.save_lexicon)
            print(f"medfig concepts: learned {len(lexicon.entries)} terms, blocked {len(lexicon.blocked)} "
                  f"dictionary pairs from {len(examples)} captions", file=sys.stderr)
        elif lexicon is None and not args.no_default_lexicon:
            from medfig.concepts.default_lexicon import default_lexicon

            lexicon = default_lexicon()  # learned from ROCO train + validation: see concepts/data/README.md
        if not args.captions:
            return 0
        tagger = ConceptTagger(vocab, lexicon, mode=args.mode,
                               allow=read_id_list(args.allow) if args.allow else None,
                               deny=read_id_list(args.deny) if args.deny else None,
                               min_frequency=args.min_frequency)
        tagged = tagger.tag_many(read_captions(args.captions))
    except (MedfigError, ValueError) as exc:
        print(f"medfig concepts: {exc}", file=sys.stderr)
        return 2
    try:
        for key, cuis in tagged.items():
            sys.stdout.write(f"{key}\t{';'.join(cuis)}\n")
        sys.stdout.flush()
    except BrokenPipeError:  # `| head`: the reader has what it wanted
        sys.stderr.close()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from medfig.commands import _args

    p = sub.add_parser("concepts", help="tag ROCO-style captions with concept ids (dictionary + learned lexicon)")
    p.add_argument("captions", nargs="?", help="id<TAB>caption file (ROCO captions.txt format)")
    p.add_argument("--vocabulary", required=True,
                   help="CSV 'CUI,Canonical name' (ROCOv2 cui_mapping.csv), a MeSH 'id,scheme,subject' CSV, or 'mesh'")
    p.add_argument("--lexicon", help="learned lexicon TSV (from --save-lexicon) instead of medfig's default "
                   "(learned from ROCO train + validation captions)")
    p.add_argument("--no-default-lexicon", action="store_true",
                   help="vocabulary names and variants only: no learned lexicon")
    p.add_argument("--learn-from", action="append", metavar="ROCO_FOLDER",
                   help="learn a lexicon from a folder with captions.txt + cuis.txt (repeatable)")
    p.add_argument("--save-lexicon", metavar="TSV", help="write the learned lexicon here")
    p.add_argument("--mode", choices=("longest", "overlapping"),
                   help="match mode (default: overlapping with a lexicon, longest without)")
    p.add_argument("--min-frequency", type=_args.non_negative_int, default=10,
                   help="drop concepts found in fewer captions of the input (default 10, as ROCOv2)")
    p.add_argument("--allow", help="file of concept ids to keep (one per line)")
    p.add_argument("--deny", help="file of concept ids to drop (one per line)")
    p.set_defaults(func=run)

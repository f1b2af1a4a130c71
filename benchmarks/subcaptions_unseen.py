"""Caption parsing alone on captions of journals medfig was never developed on: which panels a
caption names, and each panel's words (the subcaption half of MedICaT's metric).

    .venv/bin/python benchmarks/subcaptions_unseen.py [--set roco|jats|roco-letters|roco-letters-2|roco-letters-3|roco-letters-4] [--split dev|heldout] [--show]

Gold (how it was made: benchmarks/gold/subcaptions/NOTES.md), captions read in place from
../shared/data, the gold keeping ids and character offsets, not the text:
- ``roco`` (roco_gold.json): 70 captions of the ROCO test split (roco_v1_text) drawn at random
  among those holding something that might be a panel marker ("(A)", "a)", "(left)", "right",
  ...). Many name no panel ("the femoral head (right)"): telling those apart is half the task.
- ``jats`` (jats_gold.json): 50 figure captions of the JATS XML files in jats_xml_only (16
  articles, several journals) holding a possible marker, most of them of compound figures.
- ``roco-letters`` (roco_letters_gold.json): 150 captions of the ROCO validation and train splits
  holding at least two distinct letter markers ("(A) ... (B)", "A: ... B:"), drawn at random; half
  ``dev`` (may be read with ``--show``), half ``heldout`` (aggregate numbers only: ``--show``
  skips them unless ``--split heldout`` is asked for by name).
- ``roco-letters-2`` (roco_letters2_gold.json): 100 more such captions, annotated after round 11's
  caption changes; all ``heldout``.
- ``roco-letters-3`` (roco_letters3_gold.json): 75 more (round 12), drawn among the captions a
  broader letter-marker pattern finds and no earlier set holds; all ``heldout``.
- ``roco-letters-4`` (roco_letters4_gold.json): 100 more (round 13): 70 with letter markers, 30
  with position words or numbered markers ("left ... right", "(1) ... (2)"); all ``heldout``.
Annotated by reading, without parser output.

Scores, over captions (``parse_subcaptions`` + ``refine_subcaptions``: the caption half of what
``medfig compound`` runs):
- names panels: does the parser find panel markers exactly where the gold says the caption
  names panels (precision / recall over captions);
- label set: the parser's panel labels equal the gold's;
- subcaption F1: per gold panel, MedICaT's token F1 (tokens every gold panel shares, or none
  has, left out of the gold; a panel the parser misses scores 0), averaged over gold panels.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import DATA, GOLD, format_table  # noqa: E402

GOLD_FILES = {"roco": GOLD / "subcaptions" / "roco_gold.json", "jats": GOLD / "subcaptions" / "jats_gold.json",
              "roco-letters": GOLD / "subcaptions" / "roco_letters_gold.json",
              "roco-letters-2": GOLD / "subcaptions" / "roco_letters2_gold.json",
              "roco-letters-3": GOLD / "subcaptions" / "roco_letters3_gold.json",
              "roco-letters-4": GOLD / "subcaptions" / "roco_letters4_gold.json"}


def roco_captions() -> dict[str, str]:
    out: dict[str, str] = {}
    for path in sorted((DATA / "roco_v1_text" / "data").rglob("captions.txt")):
        for line in path.read_text(errors="replace").splitlines():
            if "\t" in line:
                key, caption = line.split("\t", 1)
                out.setdefault(key.strip(), caption.strip())
    return out


def jats_captions() -> dict[str, str]:
    """``file#figure-id`` -> the figure's caption text (whitespace runs made one space)."""
    import re

    from lxml import etree

    out: dict[str, str] = {}
    folder = DATA / "jats_xml_only"
    for path in sorted(list(folder.rglob("*.xml")) + list(folder.rglob("*.nxml"))):
        root = etree.parse(str(path), etree.XMLParser(recover=True, huge_tree=True, resolve_entities=False))
        for fig in root.iter("{*}fig", "fig"):
            caption = next(iter(fig.iter("{*}caption", "caption")), None)
            if caption is None:
                continue
            label = "".join(x.text or "" for x in fig.iter("{*}label", "label"))
            out.setdefault(f"{path.name}#{fig.get('id') or label}", re.sub(r"\s+", " ", " ".join(caption.itertext())).strip())
    return out


def _norm(label: str) -> str:
    return label.lower().replace(" ", "-")


def panel_f1s(caption: str, gold: dict[str, list[list[int]]], pred: dict[str, list[tuple[int, int]]]) -> list[float]:
    """MedICaT token F1 of each scored gold panel (see module doc)."""
    from medfig.evaluate.subfigures import caption_tokens, tokens_in_spans

    tokens = caption_tokens(caption)
    gold_sets = {k: tokens_in_spans(tokens, [tuple(s) for s in v]) for k, v in gold.items()}
    common = set.intersection(*gold_sets.values()) if gold_sets else set()
    out = []
    for label, g in gold_sets.items():
        g = g - common
        if not g:
            continue  # nothing of its own: MedICaT leaves such a panel out
        p = {i for i in tokens_in_spans(tokens, pred.get(label, []))}
        hit = len(g & p)
        out.append(0.0 if hit == 0 else 2 * hit / (len(g) + len(p)))
    return out


def main() -> int:
    from medfig.compound.subcaption_fill import refine_subcaptions
    from medfig.text.subcaptions import parse_subcaptions

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="roco", choices=sorted(GOLD_FILES), help="which gold captions")
    ap.add_argument("--split", choices=("dev", "heldout"), help="only the captions of this split (roco-letters)")
    ap.add_argument("--show", action="store_true", help="print every caption the parser gets wrong"
                    " (held-out captions only with --split heldout)")
    args = ap.parse_args()
    captions = roco_captions() if args.set.startswith("roco") else jats_captions()
    gold = json.loads(GOLD_FILES[args.set].read_text())["captions"]
    if args.split:
        gold = [rec for rec in gold if rec.get("split") == args.split]
    tp = fp = fn = tn = same_labels = 0
    f1s: list[float] = []
    for rec in gold:
        caption = captions[rec["id"]]
        parsed = parse_subcaptions(caption)
        refine_subcaptions(parsed)  # as analyze_compound does before giving panels their text
        pred = {_norm(s.label): list(s.spans) for s in parsed.subcaptions}
        want = {_norm(k): v for k, v in rec["subcaptions"].items()}
        named, found = bool(want), bool(pred)
        tp += named and found
        fp += found and not named
        fn += named and not found
        tn += not named and not found
        same = set(pred) == set(want)
        same_labels += same
        scores = panel_f1s(caption, want, pred) if want else []
        f1s += scores
        shown = args.split == "heldout" or rec.get("split") != "heldout"
        if args.show and shown and (not same or any(s < 0.99 for s in scores)):
            print(f"\n{rec['id']}: gold {sorted(want)} parser {sorted(pred)} F1 {[round(s, 2) for s in scores]}")
            print(f"  {caption}")
            for k in sorted(set(want) | set(pred)):
                print(f"  {k}: gold {[caption[a:b] for a, b in want.get(k, [])]}")
                print(f"  {' ' * len(k)}  pred {[caption[a:b] for a, b in pred.get(k, [])]}")
    n = len(gold)
    rows = [
        ["captions", str(n), f"{tp + fn} name panels, {fp + tn} do not"],
        ["names panels: precision", f"{tp / max(1, tp + fp):.2f}", f"{tp} of {tp + fp} captions the parser reads panels in"],
        ["names panels: recall", f"{tp / max(1, tp + fn):.2f}", f"{tp} of {tp + fn} captions that name panels"],
        ["label set exact", f"{same_labels / n:.2f}", f"{same_labels} of {n} captions"],
        ["subcaption F1 (MedICaT tokens)", f"{100 * sum(f1s) / max(1, len(f1s)):.1f}", f"{len(f1s)} scored gold panels"],
    ]
    source = {"roco": "ROCO test captions", "jats": "JATS figure captions (jats_xml_only)",
              "roco-letters": "ROCO validation/train captions with letter markers",
              "roco-letters-2": "ROCO validation/train captions with letter markers, second draw",
              "roco-letters-3": "ROCO validation/train captions with letter markers, third draw",
              "roco-letters-4": "ROCO validation/train captions with letter, position or number markers, fourth draw"}[args.set]
    if args.split:
        source += f" ({args.split} half)"
    print(f"\n{source}, journals medfig was not developed on: caption parsing alone")
    print(format_table(["measure", "value", "of"], rows, align="lrl"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

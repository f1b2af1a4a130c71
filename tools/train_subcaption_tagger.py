"""Train the subcaption tagger (medfig.text.subcaption_tagger) and print its cross-validated scores.

    .venv/bin/python tools/train_subcaption_tagger.py            # CV table, then write the model
    .venv/bin/python tools/train_subcaption_tagger.py --cv-only  # CV table only

Training data (development data only; the held-out publishers of
benchmarks/heldout_publishers.json are never read):

- weak labels: the rule parser (``parse_subcaptions(mode="rules")``) on captions whose panel
  markers all lead their clause and run a, b, c ... -- the style the rules get right --
  harvested from every JATS XML in ../shared/data (pmc_dev_corpus development publishers,
  pmc_hindawi_xml_pdf, eLife, jats_xml_only, packages), the MedICaT sample, ROCO captions and
  the EXSCLAIM captions; captions that are also in the gold are left out;
- hand labels: the subfigure gold (real_gold, heldout2_gold, fresh_gold and the development
  publishers of dev_corpus_gold), each gold caption counted ``--gold-weight`` times.

The rule parser's tag of each token is a feature only on hand-labelled captions (on weak ones
it *is* the label, and would teach the CRF nothing but to copy it).

Cross-validation: leave one gold group out (a publisher of the dev corpus, or a source of the
older gold sets); the model of each fold never sees the held group's gold. Score: the MedICaT
subcaption F1 with gold panels and gold letters (the text side of the task alone), for the
rules, the tagger alone and the hybrid (tagger where a marker sits inside its clause).

The model is written deterministically (sorted keys, rounded weights, L-BFGS from zero).
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import tempfile
import time
from pathlib import Path

from lxml import etree

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
GOLD_DIR = ROOT / "benchmarks" / "gold" / "subfigures"
HELDOUT = json.loads((ROOT / "benchmarks" / "heldout_publishers.json").read_text())["heldout"]

from medfig.compound.subcaption_fill import subcaptions_for  # noqa: E402
from medfig.evaluate.subfigures import medicat_figure_f1s, subcaption_spans  # noqa: E402
from medfig.io import atomic_write_bytes  # noqa: E402
from medfig.text.subcaption_tagger import TAGS, SubcaptionTagger, chunk_sequence, tags_from_spans, token_features  # noqa: E402
from medfig.text.subcaptions import MODES, caption_body_start, parse_subcaptions  # noqa: E402

OLD_GOLD_SOURCES = (("hindawi", "PMC4"), ("pmc-package", "PMC1"), ("elife", "elife"), ("medicat", "medicat/"),
                    ("exsclaim", "exsclaim/"))


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def harvest_captions() -> list[tuple[str, str]]:
    """(group, caption) of every figure caption in the development data, deduplicated."""
    out: dict[str, str] = {}
    for path in sorted(list(DATA.rglob("*.xml")) + list(DATA.rglob("*.nxml"))):
        rel = path.relative_to(DATA).parts
        if rel[0] == "pmc_dev_corpus":
            publisher = rel[1].split("_")[0]
            if publisher in HELDOUT:
                continue
            group = f"jats:{publisher}"
        else:
            group = f"jats:{rel[0]}"
        try:
            root = etree.parse(str(path), etree.XMLParser(recover=True, huge_tree=True, resolve_entities=False))
        except (etree.XMLSyntaxError, OSError):
            continue
        for cap in root.iter("{*}caption", "caption"):
            if cap.getparent() is None or etree.QName(cap.getparent()).localname != "fig":
                continue
            out.setdefault(_norm(" ".join(cap.itertext())), group)
    for line in (DATA / "medicat_sample" / "sample.jsonl").read_text().splitlines():
        if line.strip():
            out.setdefault(_norm(json.loads(line).get("s2_caption") or ""), "medicat")
    for path in sorted((DATA / "roco_v1_text" / "data").rglob("captions.txt")):
        for line in path.read_text(errors="replace").splitlines():
            if "\t" in line:
                out.setdefault(_norm(line.split("\t", 1)[1]), "roco")
    for path in sorted((DATA / "subfigure_annotations").rglob("*.json")):
        for fig in json.loads(path.read_text()).values():
            if isinstance(fig, dict) and fig.get("full_caption"):
                out.setdefault(_norm(fig["full_caption"]), "exsclaim")
    return [(g, c) for c, g in out.items() if c]


def weak_example(caption: str):
    """(features, tags) from the rules, or None when the caption is not in the reliable style."""
    parsed = parse_subcaptions(caption, mode="rules")
    letters = [s.label for s in parsed.subcaptions]
    if len(letters) < 2 or not all(len(l) == 1 for l in letters):
        return None
    if sorted(letters) != [chr(ord("a") + i) for i in range(len(letters))]:
        return None
    if not all(m.leading and m.kind in ("bracketed", "leading", "half") for m in parsed.markers):
        return None
    body = caption_body_start(caption)
    tokens, _, owner, _ = token_features(caption, parsed.markers, body)
    tags = tags_from_spans(caption, tokens, owner, parsed.markers, {s.label: s.spans for s in parsed.subcaptions})
    _, feats, _, chunk = token_features(caption, parsed.markers, body, tags)
    return chunk_sequence(feats, chunk, tags)


GOLD_FILES = ("real_gold", "heldout2_gold", "fresh_gold", "dev_corpus_gold")


def gold_figures(exclude: tuple[str, ...] = ()) -> list[tuple[str, dict]]:
    """(group, figure) of every compound gold figure with subcaptions, development data only."""
    out = []
    for name in (n for n in GOLD_FILES if n not in exclude):
        for fig in json.loads((GOLD_DIR / f"{name}.json").read_text())["figures"]:
            if not fig.get("compound") or not any(s.get("subcaption") for s in fig["subfigures"]):
                continue
            if name == "dev_corpus_gold":
                if fig["publisher"] in HELDOUT or fig["split"] != "dev":
                    continue
                group = f"dev:{fig['publisher']}"
            else:
                group = next((f"{name.split('_')[0]}:{g}" for g, p in OLD_GOLD_SOURCES
                              if fig["figure_key"].startswith(p)), f"{name.split('_')[0]}:other")
            out.append((group, fig))
    return out


def gold_example(fig: dict):
    caption = fig["caption"]
    rules = parse_subcaptions(caption, mode="rules")
    body = caption_body_start(caption)
    spans = {}
    for s in fig["subfigures"]:
        if s.get("label"):
            spans.setdefault(s["label"].lower(), []).extend(subcaption_spans(caption, s))
    tokens, _, owner, _ = token_features(caption, rules.markers, body)
    rule_tags = tags_from_spans(caption, tokens, owner, rules.markers, {s.label: s.spans for s in rules.subcaptions})
    _, feats, _, chunk = token_features(caption, rules.markers, body, rule_tags)
    return chunk_sequence(feats, chunk, tags_from_spans(caption, tokens, owner, rules.markers, spans))


def train(examples, c1: float, c2: float) -> dict:
    import pycrfsuite

    trainer = pycrfsuite.Trainer(verbose=False)
    for feats, tags in examples:
        trainer.append(feats, tags)
    trainer.set_params({"c1": c1, "c2": c2, "max_iterations": 150, "feature.possible_transitions": True})
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "model.crfsuite")
        trainer.train(path)
        tagger = pycrfsuite.Tagger()
        tagger.open(path)
        info = tagger.info()
        tagger.close()
    tags = list(TAGS)
    transitions = [[round(info.transitions.get((a, b), 0.0), 4) for b in tags] for a in tags]
    features: dict[str, dict[str, float]] = collections.defaultdict(dict)
    for (attr, tag), w in sorted(info.state_features.items()):
        if abs(w) >= 1e-3:
            features[attr][tag] = round(w, 4)
    return {"tags": tags, "transitions": transitions, "features": dict(sorted(features.items()))}


def score(figures: list[dict], mode: str, tagger: SubcaptionTagger | None) -> list[float]:
    """MedICaT subcaption F1 of every scored gold panel, with gold panels and gold letters."""
    f1s: list[float] = []
    for fig in figures:
        parsed = parse_subcaptions(fig["caption"], mode=mode, tagger=tagger)
        labels = [s["label"].lower() if s.get("label") and parsed.get(s["label"]) else None for s in fig["subfigures"]]
        boxes = [s["box"] for s in fig["subfigures"]]
        _, subs = subcaptions_for(boxes, labels, parsed)
        pred = {"subfigures": [{"box": b, "score": 1.0, "subcaption_spans": [list(x) for x in (s.spans if s else [])]}
                               for b, s in zip(boxes, subs)]}
        f1s.extend(medicat_figure_f1s(fig, pred))
    return f1s


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cv-only", action="store_true", help="print the cross-validation table, write no model")
    ap.add_argument("--no-cv", action="store_true", help="write the model without the cross-validation table")
    ap.add_argument("--gold-weight", type=int, default=3, help="times each hand-labelled caption is counted")
    ap.add_argument("--c1", type=float, default=0.05)
    ap.add_argument("--c2", type=float, default=0.01)
    ap.add_argument("--exclude-gold", action="append", default=[], choices=GOLD_FILES,
                    help="train without this gold file (to benchmark on it out of sample); repeatable")
    ap.add_argument("--out", default=str(ROOT / "src" / "medfig" / "text" / "models" / "subcaption_tagger.json"))
    args = ap.parse_args()
    t0 = time.time()
    golds = gold_figures(tuple(args.exclude_gold))
    # captions of every gold file stay out of the weak labels, the excluded ones too
    gold_captions = {_norm(f["caption"]) for _, f in gold_figures()}
    harvested = harvest_captions()
    weak, kept_by_group, dropped = [], collections.Counter(), collections.Counter()
    for group, caption in harvested:
        if caption in gold_captions:
            dropped["in the gold"] += 1
            continue
        ex = weak_example(caption)
        if ex is None:
            dropped["not the reliable leading-letter style"] += 1
            continue
        weak.append(ex)
        kept_by_group[group] += 1
    print(f"captions harvested: {len(harvested)}; weak-labelled: {len(weak)} "
          f"({', '.join(f'{g} {n}' for g, n in sorted(kept_by_group.items()))}); "
          f"left out: {', '.join(f'{r} {n}' for r, n in dropped.items())}")
    gold_ex = [(g, f, gold_example(f)) for g, f in golds]
    groups = sorted({g for g, _ in golds})
    print(f"gold figures: {len(golds)} in {len(groups)} groups\n")
    rows, pooled = [], {m: [] for m in MODES}
    for held in [] if args.no_cv else groups:
        train_set = weak + [ex for g, _, ex in gold_ex if g != held] * args.gold_weight
        tagger = SubcaptionTagger(train(train_set, args.c1, args.c2))
        figs = [f for g, f in golds if g == held]
        scores = {m: score(figs, m, tagger) for m in MODES}
        for m in MODES:
            pooled[m] += scores[m]
        n = len(scores["rules"])
        rows.append((held, len(figs), n, *(100 * sum(scores[m]) / n if n else float("nan") for m in MODES)))
        print(f"  fold {held}: {rows[-1][3:]}", file=sys.stderr)
    n = len(pooled["rules"])
    if n:
        rows.append(("all (pooled)", len(golds), n, *(100 * sum(pooled[m]) / n for m in MODES)))
        print("Leave-one-group-out MedICaT subcaption F1 (gold panels, gold letters)")
        print(f"{'held-out group':<22} {'figs':>4} {'panels':>6} {'rules':>6} {'tagger':>6} {'hybrid':>6}")
        for name, nf, np_, r, t, h in rows:
            print(f"{name:<22} {nf:>4} {np_:>6} {r:>6.1f} {t:>6.1f} {h:>6.1f}")
    if not args.cv_only:
        model = train(weak + [ex for _, _, ex in gold_ex] * args.gold_weight, args.c1, args.c2)
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(out, (json.dumps(model, sort_keys=True, separators=(",", ":")) + "\n").encode())
        print(f"\nmodel: {out} ({out.stat().st_size // 1024} KB, {len(model['features'])} attributes)")
    print(f"time: {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

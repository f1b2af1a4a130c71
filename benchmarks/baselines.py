"""The papers' baselines on a medfig release, frozen backbones on the CPU: one table.

    .venv/bin/python benchmarks/baselines.py [RELEASE] [--seeds 5] [--steps 20] [--markdown]

RELEASE defaults to /tmp/shared_release/release (made by tools/build_shared_release.sh).
Rows: image-text retrieval trained on captions vs captions + inline references (MedICaT Table 3;
test captions only, R@1/5/10/20 in %, mean ± standard error over the seeds), concept detection
(ROCOv2 Table 1: ImageCLEF sample F1 of EfficientNet-Lite0 vs the frequency baseline) and caption
prediction (SmolLM2 prefix decoder vs the nearest-neighbour caption), each with its wall time and
the process CPU time (all threads), which the issue's bar holds under 20 minutes on 2 cores.
Models and predictions go to --out (default /tmp/medfig_baselines). A few hundred images make
these numbers noisy: the standard errors say how much.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from harness import format_table

from medfig.train.captions import CaptionOptions, train_captions
from medfig.train.concepts import ConceptOptions, train_concepts
from medfig.train.retrieval import RetrievalOptions, train_retrieval


def _timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def _pct(mean_se: tuple[float, float]) -> str:
    mean, se = mean_se
    return f"{mean * 100:.1f} ± {se * 100:.1f}"


def _f(value) -> str:
    return "n/a" if value is None else f"{value:.4f}"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("release", nargs="?", type=Path, default=Path("/tmp/shared_release/release"))
    p.add_argument("--out", type=Path, default=Path("/tmp/medfig_baselines"))
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--steps", type=int, default=20, help="caption decoder steps (default 20: a CPU smoke run; "
                   "one step of the 135M LM takes seconds on 2 cores)")
    p.add_argument("--only", choices=("retrieval", "concepts", "captions"), action="append",
                   help="run only these tasks (repeatable; default all)")
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args()
    tasks = args.only or ["retrieval", "concepts", "captions"]
    cache = args.out / "feature-cache"
    rows = []
    if "retrieval" in tasks:
        for text in ("captions", "captions+references"):
            opts = RetrievalOptions(text=text, seeds=args.seeds, epochs=args.epochs, cache_dir=cache, quiet=True)
            r, wall, cpu = _timed(lambda: train_retrieval(args.release, args.out / f"retrieval-{text}", opts))
            t2i = r.recall["text_to_image"]
            rows.append([f"retrieval, trained on {text}", f"test {r.items['test']} (pool), train {r.items['train']}"
                         f" ({r.references_used} with refs)",
                         "text->image R@1/5/10/20 %: " + " / ".join(_pct(t2i[k]) for k in sorted(t2i)),
                         f"{args.seeds} seeds", f"{wall:.0f}", f"{cpu:.0f}"])
            i2t = r.recall["image_to_text"]
            rows.append(["", "", "image->text R@1/5/10/20 %: " + " / ".join(_pct(i2t[k]) for k in sorted(i2t)), "", "", ""])
    if "concepts" in tasks:
        opts = ConceptOptions(cache_dir=cache, quiet=True)
        r, wall, cpu = _timed(lambda: train_concepts(args.release, args.out / "concepts-lite0", opts))
        rows.append(["concepts, EfficientNet-Lite0 (frozen)", f"test {r.items['test']}, {r.labels} CUIs",
                     f"F1 {_f(r.model['f1'])}, manual F1 {_f(r.model['f1_manual'])} (threshold {r.model['threshold']})",
                     "seed 0", f"{wall:.0f}", f"{cpu:.0f}"])
        rows.append(["concepts, frequency baseline", "", f"F1 {_f(r.baseline['f1'])}, manual F1 "
                     f"{_f(r.baseline['f1_manual'])} (k={r.baseline['k']})", "", "", ""])
    if "captions" in tasks:
        opts = CaptionOptions(steps=args.steps, cache_dir=cache, quiet=True)
        r, wall, cpu = _timed(lambda: train_captions(args.release, args.out / "captions-smollm2", opts))
        keys = ("bleu1", "bleu4", "rouge_l", "meteor", "cider", "bertscore")
        rows.append([f"captions, prefix decoder ({args.steps} steps, LM frozen)", f"test {r.items['test']}",
                     ", ".join(f"{k} {_f(r.model.get(k))}" for k in keys), "seed 0", f"{wall:.0f}", f"{cpu:.0f}"])
        rows.append(["captions, nearest neighbour", "", ", ".join(f"{k} {_f(r.baseline.get(k))}" for k in keys),
                     "", "", ""])
    print(f"release {args.release}")
    print(format_table(["task", "items", "scores", "seeds", "wall s", "CPU s"], rows, markdown=args.markdown))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

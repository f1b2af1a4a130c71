"""Per-figure time of compound splitting, this code vs another checkout, measured in ONE run.

    .venv/bin/python benchmarks/compound_speed.py --baseline-src /tmp/medfig_before/src [--splits tune,test,fresh] [--scale 2.5]

The machine is shared (2 cores, other people's benchmarks), so absolute times drift by 2-3x
over minutes; only a ratio measured side by side means anything. Two worker processes, one
per code version (``PYTHONPATH`` = that version's ``src``), time ``analyze_compound`` on the
same figures, alternating figure by figure, each on one thread with its OCR model and
scipy loaded beforehand (one-off process costs are not per-figure costs). Prints mean,
median, p95 and max per version and their ratios, and the slowest figures.

Make a baseline tree with ``git archive <commit> src | tar -x -C /tmp/medfig_before``.
Figures: the real gold splits (``benchmarks/gold/subfigures``), never heldout2 by default.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from harness import SUBFIGURE_GOLD, ms_summary

HERE = Path(__file__).resolve().parent
SPLIT_FILES = {"tune": "real_gold.json", "test": "real_gold.json", "fresh": "fresh_gold.json"}

WORKER = r"""
import json, os, sys, time
os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, sys.argv[1])
from compound_real_figures import load_image
import scipy.optimize  # noqa: F401  (one-off import, not a per-figure cost)
from medfig.compound import analyze_compound
try:
    from medfig.vision.letter_recogniser import ocr_engine
except ImportError:  # a baseline from before round 8
    from medfig.vision.panel_labels import ocr_engine
ocr_engine()
figures = json.loads(sys.stdin.readline())
scale = float(sys.argv[2])
images = [load_image(f["source"]) for f in figures]
if scale != 1:  # an original file is often 2-4 times the crop
    images = [im.resize((round(im.width * scale), round(im.height * scale))) for im in images]
analyze_compound(images[0], figures[0]["caption"])  # first call: lazy imports, numpy caches
print("ready", flush=True)
for line in sys.stdin:
    i = int(line)
    t = time.perf_counter()
    result = analyze_compound(images[i], figures[i]["caption"])
    ms = 1000 * (time.perf_counter() - t)
    print(json.dumps({"ms": ms, "panels": len(result.subfigures)}), flush=True)
"""


def _worker(src: Path, scale: float) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(src), OMP_NUM_THREADS="1")
    return subprocess.Popen(
        [sys.executable, "-c", WORKER, str(HERE), str(scale)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline-src", required=True, help="src/ folder of the code to compare against")
    ap.add_argument("--splits", default="tune,test,fresh", help="comma-separated: tune, test, fresh")
    ap.add_argument("--scale", type=float, default=1.0, help="resize every figure by this factor first (original files)")
    args = ap.parse_args()
    figures = []
    for split in args.splits.split(","):
        if split not in SPLIT_FILES:
            ap.error(f"unknown split {split!r} (heldout2 is not timed here: it is run once, by compound_real.py)")
        figures += [f for f in json.loads((SUBFIGURE_GOLD / SPLIT_FILES[split]).read_text())["figures"] if f["split"] == split]
    versions = {"this code": HERE.parent / "src", "baseline": Path(args.baseline_src).resolve()}
    workers = {name: _worker(src, args.scale) for name, src in versions.items()}
    for w in workers.values():
        w.stdin.write(json.dumps(figures) + "\n")
        w.stdin.flush()
    for name, w in workers.items():
        if w.stdout.readline().strip() != "ready":
            print(f"worker for {name} ({versions[name]}) failed to start", file=sys.stderr)
            return 1
    times: dict[str, list[float]] = {name: [] for name in workers}
    from tqdm import tqdm

    for i in tqdm(range(len(figures)), desc="figures", unit="fig"):
        # alternate which version goes first, so neither always meets the other's cache state
        order = list(workers) if i % 2 == 0 else list(reversed(workers))
        for name in order:
            w = workers[name]
            w.stdin.write(f"{i}\n")
            w.stdin.flush()
            times[name].append(json.loads(w.stdout.readline())["ms"])
    for w in workers.values():
        w.stdin.close()
        w.wait()
    stats = {name: ms_summary(ms / 1000 for ms in t) for name, t in times.items()}
    print(f"\n{len(figures)} real figures ({args.splits}) at x{args.scale:g}, one thread each, same run, alternating figure by figure")
    print(f"{'version':<12} {'mean':>8} {'median':>8} {'p95':>8} {'max':>8}   (ms per figure)")
    for name, s in stats.items():
        print(f"{name:<12} {s['mean']:8.0f} {s['median']:8.0f} {s['p95']:8.0f} {s['max']:8.0f}")
    a, b = stats["this code"], stats["baseline"]
    print(f"{'ratio':<12} " + " ".join(f"{a[k] / b[k]:8.2f}" for k in ("mean", "median", "p95", "max")) + "   (this / baseline)")
    over = {name: sum(1 for t in ts if t > 500) for name, ts in times.items()}
    print("figures over 0.5 s: " + ", ".join(f"{n} {c}" for n, c in over.items()))
    print("\nslowest figures (this code / baseline, ms):")
    for i in sorted(range(len(figures)), key=lambda i: -times["this code"][i])[:8]:
        print(f"  {figures[i]['figure_key']:<60} {times['this code'][i]:6.0f} / {times['baseline'][i]:6.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

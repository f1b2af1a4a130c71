"""Where PDF extraction spends its time, per page, on the gold PDFs (34 papers, all pages).

    python benchmarks/pdf_stage_times.py

Stages (medfig.pdf.extract.extract_pdf ``seconds_by_stage``): text = words (pypdfium2),
lines and drawn objects; captions; render = page render for the detector (100 dpi);
layout = rapid-layout detector; regions = snapping, clustering and pairing.
Rows: default mode (detector on caption pages only) and cheap mode (no detector).
"cpu s/page" is the process's CPU time over the same calls: on a shared machine the
wall-clock columns also count other jobs, CPU time much less (ONNX runs with its default
threads here, so the detector's CPU time can exceed its wall time).
"""

from __future__ import annotations

import json
import statistics
import time
from collections import defaultdict

from medfig.pdf.extract import extract_pdf
from medfig.pdf.layout import get_detector

from harness import DATA, PDF_GOLD


def main() -> None:
    papers = json.loads(PDF_GOLD.read_text())["papers"]
    get_detector()
    print(f"{'mode':8s} {'pages':>5s} {'s/page':>7s} {'cpu s/page':>10s} {'median s/page':>13s} {'max s/page':>10s} "
          f"{'text':>6s} {'capt':>6s} {'render':>6s} {'layout':>6s} {'regions':>7s}   (s/page by stage)")
    for mode, kw in (("default", {}), ("cheap", {"use_layout": False})):
        stages, per_page, pages, total, cpu = defaultdict(float), [], 0, 0.0, 0.0
        for p in papers:
            t, c = time.perf_counter(), time.process_time()
            r = extract_pdf(DATA / p["pdf"], **kw)
            dt = time.perf_counter() - t
            cpu += time.process_time() - c
            total += dt
            pages += r.n_pages
            per_page.append(dt / r.n_pages)
            for k, v in r.seconds_by_stage.items():
                stages[k] += v
        print(f"{mode:8s} {pages:5d} {total / pages:7.3f} {cpu / pages:10.3f} {statistics.median(per_page):13.3f} {max(per_page):10.3f} "
              + " ".join(f"{stages.get(k, 0.0) / pages:6.3f}" for k in ("text", "captions", "render", "layout"))
              + f" {stages.get('regions', 0.0) / pages:7.3f}")


if __name__ == "__main__":
    main()

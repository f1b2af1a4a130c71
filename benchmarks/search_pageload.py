"""Result-grid page load in a real browser (Playwright + Debian Chromium) at >= 100,000 panels.

A demo dataset (with images and ground-truth panels: crops are real files) is replicated with
new article ids up to --n documents and indexed; `medfig.web` serves it; Chromium opens the
result page for each query and reports the Navigation Timing of the page: server response,
DOMContentLoaded and the load event (which waits for the thumbnails of the first 10 cards, the
ones on screen; the rest load lazily on scroll).

    .venv/bin/python benchmarks/search_pageload.py [--n 100000] [--queries 40]
"""

from __future__ import annotations

import argparse
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_latency import percentiles, replicate  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--disable-background-networking", "--disable-component-update", "--no-sandbox", "--disable-gpu",
                 "--disable-quic", "--no-first-run", "--disable-sync"]
SERVER = ("import sys, uvicorn\nfrom medfig.web.app import create_app\n"
          "uvicorn.run(create_app(sys.argv[1], index_dir=sys.argv[2]), host='127.0.0.1', port=int(sys.argv[3]),"
          " log_level='warning')")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=40)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from medfig.demo import write_demo_corpus
    from medfig.pipeline.build import build
    from medfig.search import build_index, documents_from_dataset
    from demo_panels import write_demo_subfigures

    work = Path(tempfile.mkdtemp(prefix="medfig-pageload-"))
    proc = None
    try:
        write_demo_corpus(work / "demo", n=5, seed=0)
        build(work / "demo", work / "ds", progress=False)
        write_demo_subfigures(work / "demo", work / "ds")
        real = documents_from_dataset(work / "ds")
        docs = replicate(real, args.n)
        t = time.perf_counter()
        build_index(work / "ds", index_dir=work / "index", docs=docs, progress=False)
        build_s = time.perf_counter() - t
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        proc = subprocess.Popen([sys.executable, "-c", SERVER, str(work / "ds"), str(work / "index"), str(port)])
        base = f"http://127.0.0.1:{port}"
        t = time.perf_counter()
        while True:
            try:
                urllib.request.urlopen(base + "/healthz", timeout=2).read()
                break
            except OSError:
                if proc.poll() is not None or time.perf_counter() - t > 300:
                    raise SystemExit("server did not start")
                time.sleep(0.5)
        start_s = time.perf_counter() - t
        rng = random.Random(0)
        words = sorted({w.strip(".,;()").lower() for d in real for w in (d.subcaption or d.caption).split()
                        if len(w) > 4 and w.isalpha()})
        queries = ["lung cyst CT", "axial CT lesion", "haematoxylin eosin", "ultrasound cyst"] + \
                  [" ".join(rng.sample(words, 2)) for _ in range(args.queries - 4)]
        timings = {"server response": [], "DOMContentLoaded": [], "load (grid + images)": []}
        n_results = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(base + "/?q=warm+up")
            for q in queries:
                page.goto(base + "/?" + urllib.parse.urlencode({"q": q}), wait_until="load")
                nav = page.evaluate("() => performance.getEntriesByType('navigation')[0].toJSON()")
                timings["server response"].append(nav["responseEnd"] - nav["startTime"])
                timings["DOMContentLoaded"].append(nav["domContentLoadedEventEnd"] - nav["startTime"])
                timings["load (grid + images)"].append(nav["loadEventEnd"] - nav["startTime"])
                n_results.append(page.locator("#results li.card").count())
            browser.close()
        print(f"\nResult-grid page load, Chromium headless, {len(docs):,} indexed documents "
              f"({len(real)} real demo panels/figures replicated), {len(queries)} queries, "
              f"{sum(n_results) / len(n_results):.1f} cards per page on average (24 max)")
        print("| stage | p50 ms | p95 ms | mean ms |")
        print("|---|---|---|---|")
        for name, samples in timings.items():
            p50, p95, mean = percentiles(samples)
            print(f"| {name} | {p50:.0f} | {p95:.0f} | {mean:.0f} |")
        print(f"(index build {build_s:.0f} s, server start incl. model load {start_s:.1f} s)")
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=20)
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

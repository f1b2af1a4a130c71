"""Curation step: keep figures the trained image filter calls radiology (MedICaT's second filter).

Without PyTorch the step keeps every figure, counts them as skipped with reason
``no_torch`` and says so once on stderr: a missing optional extra is not an error.
Figures without an image are skipped with reason ``no_image``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from medfig.pipeline.steps import KEEP, GroupStep, Record, Verdict, drop, note_skip


class ImageClassifierFilter(GroupStep):
    name = "image_filter"

    def __init__(self, model_path: str | Path, dataset_root: str | Path, threshold: float | None = None):
        from medfig.vision.image_filter import ImageFilterHead, torch_available

        self.head = ImageFilterHead.load(model_path)
        if threshold is not None:
            self.head.threshold = threshold
        self.root = Path(dataset_root)
        self.enabled = torch_available()

    def run_group(self, records: list[Record]) -> list[Verdict]:
        from medfig.vision.image_filter import NO_TORCH_MESSAGE, FeatureExtractor

        if not self.enabled:
            print(f"medfig curate: image filter skipped: {NO_TORCH_MESSAGE}", file=sys.stderr)
            for r in records:
                note_skip(r, self.name, "no_torch")
            return [KEEP] * len(records)
        with_image = [i for i, r in enumerate(records)
                      if r.get("image_path") and r.get("image_status") in (None, "ok")
                      and (self.root / r["image_path"]).is_file()]
        for i, r in enumerate(records):
            if i not in set(with_image):
                note_skip(r, self.name, "no_image")
        feats = FeatureExtractor().features_of_files([self.root / records[i]["image_path"] for i in with_image])
        probs = self.head.probability(feats)
        verdicts = [KEEP] * len(records)
        for i, p in zip(with_image, probs):
            records[i]["radiology_probability"] = round(float(p), 4)
            if p < self.head.threshold:
                verdicts[i] = drop("not_radiology_image", f"p(radiology)={p:.2f} < {self.head.threshold}")
        return verdicts

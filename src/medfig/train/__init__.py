"""``medfig train``: the dataset papers' baselines on a medfig release.

- :mod:`medfig.train.retrieval`: image-text retrieval (MedICaT Table 3), captions vs captions + inline references.
- :mod:`medfig.train.concepts`: multi-label CUI detection (ROCOv2 Table 1) next to a frequency baseline.
- :mod:`medfig.train.captions`: caption prediction with an image-prefix decoder next to a nearest-neighbour baseline.

torch is an optional extra (``pip install 'medfig[train]'``); every entry point calls
:func:`require_torch` first so a missing torch is one clear line, not a traceback.
"""

from __future__ import annotations

from medfig.records import MedfigError

NO_TORCH_MESSAGE = "needs PyTorch and the bundled model wheels: pip install 'medfig[train]'"


def torch_available() -> bool:
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


def require_torch() -> None:
    if not torch_available():
        raise MedfigError(NO_TORCH_MESSAGE)

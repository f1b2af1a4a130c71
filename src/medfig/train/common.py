"""Helpers the three tasks share: seeding, the feature cache, progress bars, the model folder."""

from __future__ import annotations

import hashlib
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from medfig.records import MedfigError


def seed_everything(seed: int) -> np.random.Generator:
    import random

    import torch

    random.seed(seed)
    torch.manual_seed(seed)
    return np.random.default_rng(seed)


def resolve_device(device: str) -> str:
    import torch

    if device == "cuda" and not torch.cuda.is_available():
        raise MedfigError("--device cuda: no CUDA device visible to torch (this torch build: "
                          f"{torch.__version__}); use --device cpu")
    return device


@contextmanager
def single_thread():
    """torch on one thread while the block runs: the frozen heads' matrices are tiny, and with two
    threads on a loaded machine the thread pool's waiting cost 6x the wall time and 9x the CPU time
    of one thread (measured: 30 epochs of the retrieval heads, 147 s vs 25 s, 2 shared cores)."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def progress_bar(total: int, desc: str, quiet: bool = False):
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, disable=quiet, leave=False, file=sys.stderr)


def cached_array(cache_dir: Path | None, key_parts: Sequence, compute: Callable[[], np.ndarray]) -> np.ndarray:
    """``compute()``, stored in ``cache_dir`` under a key from ``key_parts`` (file paths, sizes and
    mtimes are part of the key, so a changed image is recomputed). No cache dir: just compute."""
    if cache_dir is None:
        return compute()
    digest = hashlib.sha256()
    for part in key_parts:
        if isinstance(part, Path) and part.is_file():
            stat = part.stat()
            digest.update(f"{part}|{stat.st_size}|{stat.st_mtime_ns}".encode())
        else:
            digest.update(repr(part).encode())
    path = Path(cache_dir) / f"features-{digest.hexdigest()[:20]}.npy"
    if path.is_file():
        return np.load(path, allow_pickle=False)
    array = compute()
    from medfig.io import atomic_write_bytes
    import io

    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=False)
    atomic_write_bytes(path, buf.getvalue())
    return array


def save_weights(path: Path, state: dict) -> None:
    """torch.save to a temp file, then rename (a killed run never leaves half a weights file)."""
    import io

    import torch

    from medfig.io import atomic_write_bytes

    buf = io.BytesIO()
    torch.save(state, buf)
    atomic_write_bytes(path, buf.getvalue())


def prepare_model_dir(path: str | Path) -> Path:
    out = Path(path)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MedfigError(f"{out}: cannot create the model folder ({exc.strerror or exc})") from None
    return out

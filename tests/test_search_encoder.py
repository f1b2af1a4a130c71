"""The fast query encoder (ONNX export of MiniLM run by onnxruntime) and `medfig serve` on a busy port."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import numpy as np
import pytest
from test_search_fixtures import demo_dataset

from medfig.search import SearchIndex, documents_from_dataset
from medfig.search.encoder import OnnxQueryEncoder, get_encoder, onnx_export_present


def test_onnx_query_vectors_equal_the_torch_encoders():
    pytest.importorskip("onnx")  # export-time only (medfig[dense]); search needs onnxruntime + tokenizers
    _, dataset = demo_dataset()
    index_dir = dataset / "search"
    assert onnx_export_present(index_dir), "medfig index writes the ONNX query encoder when torch + onnx are there"
    texts = ["lung cyst CT", "xyzzyplugh", "Definitive histology: adenocarcinoma"]
    texts += [d.dense_text(("caption", "subcaption", "concepts")) for d in documents_from_dataset(dataset)][:20]
    onnx_vectors = OnnxQueryEncoder(index_dir).encode(texts)
    torch_vectors = get_encoder().encode(texts)
    cosines = np.sum(onnx_vectors * torch_vectors, axis=1)
    assert cosines.min() >= 1 - 1e-5, cosines.min()
    # and the vectors the index stored (torch, at index time) are what a query encoded by ONNX meets
    index = SearchIndex.open(dataset)
    try:
        row = int(np.argmax(index.vectors @ onnx_vectors[3]))
        assert float(index.vectors[row] @ onnx_vectors[3]) >= 1 - 1e-5
    finally:
        index.close()


def test_cli_search_does_not_import_torch():
    pytest.importorskip("onnx")
    _, dataset = demo_dataset()
    code = ("import sys; from medfig.cli import main; rc = main(['search', sys.argv[1], 'axial CT lesion', '--json']);"
            "assert rc == 0, rc; assert 'torch' not in sys.modules and 'transformers' not in sys.modules, "
            "sorted(m for m in sys.modules if m.startswith(('torch', 'transformers')))")
    done = subprocess.run([sys.executable, "-c", code, str(dataset)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert '"dense_rank": 1' in done.stdout  # the dense side did run


def test_serve_on_a_busy_port_fails_at_once_naming_the_port():
    _, dataset = demo_dataset()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "medfig.cli", "serve", str(dataset), "--port", str(port)],
                              capture_output=True, text=True, timeout=60)
        seconds = time.monotonic() - started
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and f"127.0.0.1:{port}" in lines[0] and "in use" in lines[0], done.stderr
    assert "Traceback" not in done.stderr
    # before the fix the index and the sentence model loaded first (17 s); now the port is checked first
    assert seconds < 8, seconds

"""Recall@K over a candidate pool: hand-computed ranks, pessimistic ties, file checks, the CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest

from medfig.cli import main
from medfig.evaluate.retrieval_metrics import (
    load_similarity_npy,
    parse_ks,
    ranks_of_correct,
    recall_at_k,
    recall_from_ranks,
)
from medfig.records import MedfigError

# 4 queries x 5 candidates (column 4 is a distractor); the right candidate of row i is column i.
#   row 0: 0.9 is the highest                                  -> rank 1
#   row 1: 0.7 (col 0) and 0.6 (col 4) beat its 0.5           -> rank 3
#   row 2: 0.4 ties with col 3's 0.4; ties count against it    -> rank 2
#   row 3: 0.1 is beaten by all four others                    -> rank 5
SIMILARITY = np.array([
    [0.9, 0.1, 0.2, 0.3, 0.0],
    [0.7, 0.5, 0.1, 0.2, 0.6],
    [0.1, 0.2, 0.4, 0.4, 0.3],
    [0.2, 0.3, 0.4, 0.1, 0.5],
])
# R@1 = 1/4 (row 0), R@2 = 2/4 (rows 0, 2), R@3 = 3/4, R@5 = 4/4


def test_hand_computed_ranks_and_recall():
    assert ranks_of_correct(SIMILARITY).tolist() == [1, 3, 2, 5]
    assert recall_at_k(SIMILARITY, ks=(1, 2, 3, 5)) == {1: 0.25, 2: 0.5, 3: 0.75, 5: 1.0}
    assert recall_at_k(SIMILARITY) == {1: 0.25, 5: 1.0, 10: 1.0, 20: 1.0}


def test_constant_similarity_gets_no_credit():
    # every candidate ties: pessimistic rank = pool size, so R@1 = 0 (an optimistic tie would give 1)
    assert recall_at_k(np.ones((3, 3)), ks=(1, 2, 3)) == {1: 0.0, 2: 0.0, 3: 1.0}


def test_recall_from_ranks():
    assert recall_from_ranks([1, 2, 7, 30, 11], ks=(1, 10, 20)) == {1: 0.2, 10: 0.6, 20: 0.8}
    with pytest.raises(MedfigError, match="1-based"):
        recall_from_ranks([0, 1])


@pytest.mark.parametrize("matrix, problem", [
    (np.ones(4), "2-D"),
    (np.ones((3, 2)), "at least as many columns as rows"),
    (np.array([[1.0, np.nan], [0.0, 1.0]]), "not finite, e.g. row 0, column 1"),
    (np.ones((0, 3)), "no queries"),
])
def test_bad_matrices_are_refused(matrix, problem):
    with pytest.raises(MedfigError, match=problem):
        recall_at_k(matrix)


def test_parse_ks():
    assert parse_ks("1,5,10") == (1, 5, 10)
    for bad in ("1,x", "0,5", ""):
        with pytest.raises(MedfigError):
            parse_ks(bad)


def test_npy_reader_names_the_file(tmp_path):
    good = tmp_path / "sim.npy"
    np.save(good, SIMILARITY.astype(np.float32))
    assert load_similarity_npy(good).shape == (4, 5)
    text = tmp_path / "sim_text.npy"
    text.write_text("not numpy", encoding="utf-8")
    with pytest.raises(MedfigError, match="sim_text.npy: not a readable .npy"):
        load_similarity_npy(text)
    objects = tmp_path / "objects.npy"
    np.save(objects, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(MedfigError, match="objects.npy"):
        load_similarity_npy(objects)


def test_cli(tmp_path, capsys):
    path = tmp_path / "sim.npy"
    np.save(path, SIMILARITY)
    assert main(["evaluate", "retrieval", str(path), "--k", "1,2,3", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == {"queries": 4, "candidates": 5, "recall_at": {"1": 0.25, "2": 0.5, "3": 0.75},
                               "median_rank": 2.5}
    assert "4 queries over 5 candidates" in err
    assert main(["evaluate", "retrieval", str(path), "--transpose"]) == 2  # 5 x 4 after transposing
    assert "--transpose needs a square matrix" in capsys.readouterr().err
    square = tmp_path / "square.npy"
    # transposed, column i is the query: query 0 -> [0.9, 0.2], right one first; query 1 -> [0.1, 0.8] -> rank 1
    np.save(square, np.array([[0.9, 0.1], [0.2, 0.8]]))
    assert main(["evaluate", "retrieval", str(square), "--transpose", "--k", "1"]) == 0
    assert "R@1    1.0000" in capsys.readouterr().out


def test_cli_bad_file_exit_2(tmp_path, capsys):
    bad = tmp_path / "broken.npy"
    bad.write_bytes(b"\x93NUMPY garbage")
    assert main(["evaluate", "retrieval", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "broken.npy" in err and len(err.strip().splitlines()) == 1

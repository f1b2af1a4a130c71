"""The one reader behind ``read_captions_csv`` and ``read_concepts_csv`` (medfig.evaluate.rocov2_csv):
both files get the same checks and the same one-line errors naming the file and the line."""

from __future__ import annotations

import pytest

from medfig.evaluate.caption_metrics import read_captions_csv
from medfig.evaluate.concept_metrics import read_concepts_csv
from medfig.records import MedfigError

READERS = {"captions": (read_captions_csv, "ID,Caption"), "concepts": (read_concepts_csv, "ID,CUIs")}


@pytest.mark.parametrize("kind", sorted(READERS))
@pytest.mark.parametrize("body, problem", [
    ("\n,C0040405\n", "line 3: empty image ID"),
    ("a,C0040405\n\nb,x\na,C0024485\n", "line 5: image ID 'a' given twice"),
    # a field past csv's size limit: the concepts reader raised a bare csv.Error before the shared reader
    ("a," + "x" * 200_000 + "\n", "line 2: not valid CSV"),
])
def test_both_readers_name_the_file_and_line(tmp_path, kind, body, problem):
    reader, header = READERS[kind]
    path = tmp_path / f"bad_{kind}.csv"
    path.write_text(f"{header}\n{body}", encoding="utf-8")
    with pytest.raises(MedfigError) as info:
        reader(path)
    assert str(info.value).startswith(f"{path}: ") and problem in str(info.value)


def test_byte_order_mark_and_blank_lines_are_read_the_same_by_both(tmp_path):
    captions, concepts = tmp_path / "c.csv", tmp_path / "k.csv"
    captions.write_text("\ufeffID,Caption\nimg1,\"Axial CT, contrast\"\n\n  \nimg2,Chest X-ray\n", encoding="utf-8")
    concepts.write_text("\ufeffID,CUIs\nimg1,c0040405;C1306645\n\n  \nimg2\n", encoding="utf-8")
    assert read_captions_csv(captions) == {"img1": "Axial CT, contrast", "img2": "Chest X-ray"}
    assert read_concepts_csv(concepts) == {"img1": frozenset({"C0040405", "C1306645"}), "img2": frozenset()}


def test_each_reader_keeps_its_own_field_rule(tmp_path):
    path = tmp_path / "three.csv"
    path.write_text("ID,Caption\na,CT, axial\n", encoding="utf-8")
    with pytest.raises(MedfigError, match=r"line 2: expected 2 fields 'ID,Caption', got 3 \(a caption holding commas"):
        read_captions_csv(path)
    path.write_text("ID,CUIs\na,C0040405,C1306645\n", encoding="utf-8")
    with pytest.raises(MedfigError, match=r"line 2: expected 'ID,CUI;CUI;...', got 3 fields \(CUIs are joined by ';'"):
        read_concepts_csv(path)

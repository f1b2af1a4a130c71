"""``medfig evaluate figures``: both protocols on exact synthetic boxes, file formats both
directions, and a real run on gold PDFs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from reportlab.pdfgen import canvas

from medfig.evaluate.figure_crop import WhitespaceCropper
from medfig.evaluate.figure_files import FigureBox, figure_number, load_figure_dir, parse_figure_json
from medfig.evaluate.figure_protocols import grade_pdffigures2, score_deepfigures, score_pdffigures2
from medfig.evaluate.figures import evaluate_figures, evaluate_papers

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
GOLD = Path(__file__).resolve().parents[1] / "benchmarks" / "gold" / "pdf_figures" / "gold.json"


def fb(name, page, box, cap=None, text="", t=None):
    return FigureBox(name=name, fig_type=t or ("Table" if name.startswith("Table") else "Figure"), page=page, box=box,
                     caption_box=cap, caption=text)


def test_figure_numbers_normalise_across_formats():
    assert [figure_number(n) for n in ("Figure 3", "Fig. 3.", "3", "FIGURE 3 |", "Table S2", "Supplementary Figure 1")] \
        == ["3", "3", "3", "3", "s2", "1"]
    # Veterinary World labels its figures "Figure-1:" (XML label "Figure-1")
    assert [figure_number(n) for n in ("Figure-1", "Figure-2:", "Table\u20133")] == ["1", "2", "3"]
    # an article with Figure 1 and Scheme 1 (MDPI molecules) has two different things numbered 1
    assert [figure_number(n) for n in ("Scheme 1", "Scheme 1.", "Box 2", "Figure 1")] == ["scheme1", "scheme1", "box2", "1"]


def test_deepfigures_protocol_is_hungarian_per_page_not_by_name():
    gold = [fb("Figure 1", 0, [0, 0, 100, 100]), fb("Figure 2", 0, [0, 200, 100, 300]), fb("Table 1", 1, [0, 0, 50, 50])]
    # names swapped: DeepFigures ignores names for correctness, counts them for pairing accuracy
    pred = [fb("Figure 2", 0, [0, 0, 100, 100]), fb("Figure 1", 0, [0, 200, 100, 279]),  # IoU 0.79: wrong
            fb("Table 1", 1, [0, 0, 50, 45]),  # IoU 0.9
            fb("Figure 9", 1, [60, 60, 90, 90])]  # a false positive on page 1
    s = score_deepfigures(pred, gold, {0, 1}, 0.8)
    f, t = s["figures"], s["tables"]
    assert (f.n_pred, f.n_gold, f.correct, f.named_correct) == (3, 2, 1, 0)
    assert abs(f.precision - 1 / 3) < 1e-9 and abs(f.recall - 0.5) < 1e-9
    assert (t.n_pred, t.n_gold, t.correct, t.named_correct) == (1, 1, 1, 1)


def test_pdffigures2_protocol_pairs_by_name_and_crops_predictions():
    cap1, cap2 = [0, 105, 100, 112], [0, 305, 100, 312]
    gold = [fb("Figure 1", 0, [0, 0, 100, 100], cap1), fb("Figure 2", 0, [0, 200, 100, 300], cap2)]
    pred = [fb("Figure 2", 0, [0, 0, 100, 100], cap1),  # right box, wrong name: wrong under pdffigures2
            fb("Figure 1", 0, [0, 0, 100, 130], cap1)]  # padded: IoU 0.77 uncropped
    s = score_pdffigures2(pred, gold, {0}, 0.8)["figures"]
    assert (s.n_pred, s.n_gold, s.correct) == (2, 2, 0)
    # the crop removes the padding (a stand-in cropper clipping at y = 100 and leaving captions)
    crop = lambda page, b: [b[0], b[1], b[2], min(b[3], 100)] if b[3] > 100 and b[1] < 100 else list(b)
    s = score_pdffigures2(pred, gold, {0}, 0.8, crop)["figures"]
    assert s.correct == 1 and s.precision == 0.5 and s.recall == 0.5
    # a right region with a wrong caption box is not correct (pdffigures2 needs both)
    pred[1].caption_box = [0, 150, 100, 160]
    assert score_pdffigures2(pred, gold, {0}, 0.8, crop)["figures"].correct == 0
    # ... unless the caption text is the same after removing hyphens and spaces
    gold[0].caption, pred[1].caption = "Figure 1: X-ray of the chest.", "Figure 1: Xray of the\nchest."
    assert score_pdffigures2(pred, gold, {0}, 0.8, crop)["figures"].correct == 1


def test_pdffigures2_grades_and_caption_only_counts():
    gold = [fb("Figure 1", 0, [0, 0, 100, 100], [0, 105, 100, 112]), fb("Table 1", 0, [0, 200, 100, 300], [0, 190, 100, 197]),
            fb("Figure 2", 1, [0, 0, 100, 100], [0, 105, 100, 112])]
    pred = [fb("Figure 1", 0, None, [0, 105, 100, 112]),  # right caption, no region: not returned as a figure
            fb("Table 1", 0, [0, 0, 100, 50], [0, 190, 100, 197]),  # right caption, wrong region
            fb("Figure 7", 1, [0, 0, 100, 100], [0, 105, 100, 112]),  # a name the gold does not have
            fb("Figure 2", 1, [0, 0, 100, 100], None)]  # no caption box at all
    grades = sorted(g for _, g, _ in grade_pdffigures2(pred, gold, {0, 1}, 0.8))
    assert grades == ["false_positive", "no_caption_found", "right_caption_no_region", "wrong_region_box"]
    s = score_pdffigures2(pred, gold, {0, 1}, 0.8)
    f, t, c = s["figures"], s["tables"], s["captions"]
    assert (f.n_pred, f.n_gold, f.correct) == (2, 2, 0)  # returned: the false positive and no_caption_found
    assert (t.n_pred, t.n_gold, t.correct) == (1, 1, 0)
    assert (c.n_pred, c.n_gold, c.correct) == (4, 3, 2)  # caption-only: right caption whatever the region


def test_captions_correct_by_box_or_by_text():
    gold = [fb("Figure 1", 0, [0, 0, 10, 10], cap=[0, 100, 200, 120], text="Figure 1: CT of the chest, axial."),
            fb("Figure 2", 0, [0, 0, 10, 10], cap=[0, 300, 200, 320], text="Figure 2: MRI.")]
    pred = [fb("Figure 1", 0, None, cap=[0, 150, 200, 170], text="FIGURE 1 CT of the chest, axial"),  # text matches
            fb("Figure 2", 0, None, cap=[0, 302, 200, 320], text="something else")]  # box IoU 0.9
    c = score_deepfigures(pred, gold, {0}, 0.8)["captions"]
    assert (c.n_pred, c.n_gold, c.correct) == (2, 2, 2)
    # pdffigures2 compares text exactly (after NFKC, hyphens and whitespace out): case and punctuation count
    assert score_pdffigures2(pred, gold, {0}, 0.8)["captions"].correct == 1
    pred[0].caption = "Figure 1: CT of the chest, axial."
    assert score_pdffigures2(pred, gold, {0}, 0.8)["captions"].correct == 2
    pred[0].caption = "Figure 1: a different caption"
    assert score_deepfigures(pred, gold, {0}, 0.8)["captions"].correct == 1


def test_whitespace_crop_on_a_rendered_page(tmp_path):
    pdf = tmp_path / "p.pdf"
    c = canvas.Canvas(str(pdf), pagesize=(300, 400))
    c.setFillColorRGB(0, 0, 0)
    c.rect(50, 400 - 250, 100, 150, stroke=0, fill=1)  # top-left origin: [50, 100, 150, 250]
    c.showPage()
    c.save()
    with WhitespaceCropper(pdf, dpi=72) as cr:
        box = cr.crop(0, [30, 80, 200, 300])
        assert max(abs(a - b) for a, b in zip(box, [50, 100, 150, 250])) <= 1.0
        assert cr.crop(0, [200, 300, 250, 350]) == [200, 300, 250, 350]  # nothing drawn: unchanged


def test_formats_medfig_and_pdffigures2_read_the_same(tmp_path):
    medfig_doc = {"schema": "medfig.pdf_figures/1", "pdf": "x.pdf", "figures": [
        {"name": "Figure 2", "fig_type": "Figure", "page": 1, "box": [1, 2, 3, 4], "caption_box": [1, 5, 3, 6], "caption": "c"}],
        "regionless": [{"name": "Table 1", "fig_type": "Table", "page": 2, "box": None, "caption_box": [0, 0, 1, 1], "caption": "t"}]}
    p2_doc = [{"name": "2", "figType": "Figure", "page": 1, "caption": "c", "captionBoundary": {"x1": 1, "y1": 5, "x2": 3, "y2": 6},
               "regionBoundary": {"x1": 1, "y1": 2, "x2": 3, "y2": 4}, "renderDpi": 150}]
    (a,) = parse_figure_json(medfig_doc, "a")
    (b,) = parse_figure_json(p2_doc, "a")
    assert (a.items[0].number, a.items[0].box, a.items[0].caption_box) == (b.items[0].number, b.items[0].box, b.items[0].caption_box)
    assert a.items[1].box is None and a.items[1].fig_type == "Table"
    ev = evaluate_papers({"a": a}, {"a": b}, protocols=("deepfigures",))
    assert ev.overall["deepfigures"]["figures"].f1 == 1.0
    assert ev.overall["deepfigures"]["captions"].n_pred == 2  # the regionless caption counts as a caption
    # pdffigures2 without the PDF ("x.pdf" does not exist): scored uncropped, and said so
    ev = evaluate_papers({"a": a}, {"a": b})
    assert ev.uncropped == ["a"] and "WITHOUT whitespace cropping" in ev.table()
    assert ev.overall["pdffigures2"]["figures"].f1 == 1.0
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "ok.json").write_text(json.dumps(p2_doc))
    papers, errors = load_figure_dir(tmp_path)
    assert list(papers) == ["ok"] and len(errors) == 1 and "bad.json" in errors[0]


def _gold_subset(keys):
    gold = json.loads(GOLD.read_text())
    gold["papers"] = [p for p in gold["papers"] if p["key"] in keys]
    return gold


def test_gold_as_pdffigures2_scores_perfect_both_protocols(tmp_path):
    """Real gold boxes written in pdffigures2's format and read back: every box and caption
    correct under both protocols (with whitespace cropping on the real PDFs)."""
    keys = {"PMC4657150", "PMC4691483", "elife-19405"}
    gold = _gold_subset(keys)
    pred_dir = tmp_path / "pred"
    pred_dir.mkdir()
    for p in gold["papers"]:
        doc = [{"name": figure_number(f["name"]), "figType": f["fig_type"], "page": f["page"], "caption": "",
                "captionBoundary": dict(zip(("x1", "y1", "x2", "y2"), f["caption_box"])),
                "regionBoundary": dict(zip(("x1", "y1", "x2", "y2"), f["box"]))} for f in p["figures"]]
        (pred_dir / f"{p['key']}.json").write_text(json.dumps(doc))
    (tmp_path / "gold.json").write_text(json.dumps(gold))
    ev = evaluate_figures(pred_dir, tmp_path / "gold.json", pdf_dir=DATA)
    assert not ev.uncropped and len(ev.papers) == 3
    for pr in ("deepfigures", "pdffigures2"):
        for cat in ("figures", "tables", "captions"):
            s = ev.overall[pr][cat]
            assert s.n_gold > 0 and s.f1 == 1.0, (pr, cat, s)


def test_cli_real_run_on_gold_pdfs(tmp_path):
    """medfig extract on three gold PDFs, then medfig evaluate figures against the gold set."""
    from medfig.pdf.extract import extract_pdf
    from medfig.pdf.output import to_medfig_json

    keys = ["PMC4657150", "PMC4706923", "elife-19405"]
    gold = _gold_subset(set(keys))
    pred_dir = tmp_path / "pred"
    pred_dir.mkdir()
    for p in gold["papers"]:
        res = extract_pdf(DATA / p["pdf"], use_layout=False)
        (pred_dir / f"{p['key']}.json").write_text(json.dumps(to_medfig_json(res)))
    (tmp_path / "gold.json").write_text(json.dumps(gold))
    out = subprocess.run([sys.executable, "-m", "medfig.cli", "evaluate", "figures", str(pred_dir), str(tmp_path / "gold.json"),
                          "--pdf-dir", str(DATA), "--json"], capture_output=True, text=True, check=True)
    doc = json.loads(out.stdout)
    assert [p["key"] for p in doc["papers"]] == sorted(keys) and doc["uncropped"] == []
    figs = doc["overall"]["deepfigures"]["figures"]
    assert figs["n_gold"] == sum(1 for p in gold["papers"] for f in p["figures"] if f["fig_type"] == "Figure")
    assert figs["f1"] >= 0.8  # cheap mode finds the raster figures of these papers
    # text output names every paper in the per-paper table
    out = subprocess.run([sys.executable, "-m", "medfig.cli", "evaluate", "figures", str(pred_dir), str(tmp_path / "gold.json"),
                          "--pdf-dir", str(DATA)], capture_output=True, text=True, check=True)
    assert all(k in out.stdout for k in keys) and "pdffigures2  figures" in out.stdout


@pytest.mark.parametrize("bad", ["{}", "[1, 2]"])
def test_bad_file_is_named(tmp_path, bad):
    (tmp_path / "x.json").write_text(bad)
    papers, errors = load_figure_dir(tmp_path)
    assert not papers and str(tmp_path / "x.json") in errors[0]

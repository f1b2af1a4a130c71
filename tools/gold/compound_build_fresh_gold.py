"""Build the FRESH held-out subfigure gold (``gold/subfigures/fresh_gold.json``).

25 real compound figures that are not in ``real_gold.json`` (Hindawi PDF figures the first
gold set excluded, and eLife figures cropped by ``medfig build``). Every box below was read
by eye on a 50 px coordinate grid drawn over the figure (``--grid DIR`` redraws those
sheets); labels are the letters printed in the image; each subcaption is a verbatim caption
span chosen by hand by its first and last words (``_span``), never drafted by medfig's
caption parser. See NOTES.md ("Fresh held-out gold").

    .venv/bin/python tools/gold/compound_build_fresh_gold.py [--grid DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))  # harness, compound_real_figures
from compound_real_figures import load_image, pdf_figures  # noqa: E402
from harness import DATA, GOLD  # noqa: E402

OUT = GOLD / "subfigures" / "fresh_gold.json"
HINDAWI = "pmc_hindawi_xml_pdf/{}/fulltext.pdf"

# eLife figures: PDF page (0-based) and clip in PDF points (origin top-left) as `medfig build`
# cropped them (figures.parquet pdf_page / pdf_box).
ELIFE_CLIPS = {
    "elife-04177-vor-r1/fig1": ("elife_xml_pdf_pairs/elife-04177-vor-r1/elife-04177.pdf", 3, [168.0, 54.0, 522.0, 512.0]),
    "elife-04177-vor-r1/fig2": ("elife_xml_pdf_pairs/elife-04177-vor-r1/elife-04177.pdf", 5, [168.0, 54.0, 522.0, 533.0]),
    "elife-04177-vor-r1/fig3": ("elife_xml_pdf_pairs/elife-04177-vor-r1/elife-04177.pdf", 7, [168.0, 54.0, 522.0, 488.0]),
    "elife-04177-vor-r1/fig4": ("elife_xml_pdf_pairs/elife-04177-vor-r1/elife-04177.pdf", 9, [36.0, 36.0, 494.0, 357.0]),
    "elife-04177-vor-r1/fig5": ("elife_xml_pdf_pairs/elife-04177-vor-r1/elife-04177.pdf", 11, [168.0, 276.0, 366.0, 594.0]),
    "elife-15600-vor-r1/fig1": ("elife_xml_pdf_pairs/elife-15600-vor-r1/elife-15600.pdf", 2, [181.0, 66.0, 523.0, 527.0]),
    "elife-15600-vor-r1/fig2": ("elife_xml_pdf_pairs/elife-15600-vor-r1/elife-15600.pdf", 4, [49.0, 66.0, 467.0, 462.0]),
    "elife-15600-vor-r1/fig3": ("elife_xml_pdf_pairs/elife-15600-vor-r1/elife-15600.pdf", 6, [49.0, 66.0, 475.0, 607.0]),
    "elife-15600-vor-r1/fig4": ("elife_xml_pdf_pairs/elife-15600-vor-r1/elife-15600.pdf", 8, [49.0, 66.0, 504.0, 481.0]),
    "elife-15600-vor-r1/fig5": ("elife_xml_pdf_pairs/elife-15600-vor-r1/elife-15600.pdf", 9, [49.0, 74.0, 563.0, 386.0]),
    "elife-15600-vor-r1/fig6": ("elife_xml_pdf_pairs/elife-15600-vor-r1/elife-15600.pdf", 10, [37.0, 30.0, 455.0, 679.0]),
    "elife-15600-vor-r1/fig7": ("elife_xml_pdf_pairs/elife-15600-vor-r1/elife-15600.pdf", 12, [183.0, 74.0, 363.0, 660.0]),
}

# figure key -> panels: (label or None, [x0, y0, x1, y1] image px, [(first words, last words), ...])
# A span (a, b) is the caption text from the occurrence of a to the end of b (after a).
P = None
ANNOTATIONS: dict[str, list] = {
    "PMC4657150/fig1": [
        ("a", [4, 4, 474, 312], [("Immunohistochemical staining", "Fluorescence microscopy")]),
        ("b", [490, 70, 830, 312], [("Demonstration by Western blot of expression", "NIH 3T3 cells.")]),
        ("c", [230, 345, 600, 738], [("Demonstration by Western blot that", "only in the nucleus.")]),
    ],
    "PMC4657150/fig2": [
        ("a", [0, 0, 482, 255], [("qPCR for each", "for the three experiments.")]),
        ("b", [490, 0, 758, 255], [("Western blot for SDH A", "in the transfected cells.")]),
    ],
    "PMC4709619/fig1": [
        ("a", [0, 0, 460, 500], [("Total patients", "Total patients.")]),
        ("b", [470, 0, 927, 500], [("Patients in the early", "early stage.")]),
        ("c", [235, 545, 690, 1060], [("Patients in the advanced", "advanced stage.")]),
    ],
    "PMC4709619/fig2": [
        ("a", [0, 0, 470, 525], [("Total patients", "Total patients.")]),
        ("b", [470, 0, 943, 525], [("Patients in the early", "early stage.")]),
        ("c", [245, 580, 700, 1100], [("Patients in the advanced", "advanced stage.")]),
    ],
    "PMC4709619/fig3": [
        ("a", [0, 0, 465, 500], [("Patients with ages", "(P = 0.046).")]),
        ("b", [470, 0, 924, 500], [("Patients with tumor diameter", "(P = 0.029).")]),
        ("c", [235, 545, 690, 1070], [("Patients with Borrmann", "(P = 0.023).")]),
    ],
    # three photos, the caption's "(a) and (b)" text describes all of them: boxes only
    "PMC4736587/fig1": [(P, [6, 6, 175, 460], []), (P, [196, 6, 380, 460], []), (P, [517, 6, 902, 460], [])],
    # a1/a2 and b1/b2 printed under the panels: label = the letter
    "PMC4738934/fig7": [
        ("a", [0, 0, 348, 288], [("T2-weighted image.", "T2-weighted image.")]),
        ("a", [365, 0, 705, 288], [("T2-weighted image.", "T2-weighted image.")]),
        ("b", [0, 333, 350, 615], [("Late gadolinium", "(LGE) image.")]),
        ("b", [365, 333, 705, 615], [("Late gadolinium", "(LGE) image.")]),
    ],
    "PMC4738934/fig9": [
        ("a", [6, 6, 348, 283], [("T2-weighted image.", "T2-weighted image.")]),
        ("a", [367, 6, 712, 283], [("T2-weighted image.", "T2-weighted image.")]),
        ("b", [7, 334, 348, 612], [("LGE image.", "LGE image.")]),
        ("b", [366, 334, 712, 612], [("LGE image.", "LGE image.")]),
    ],
    "PMC4745290/fig2": [
        ("a", [0, 0, 190, 295], [("Axial contrast-enhanced CT scan", "Axial contrast-enhanced CT scan")]),
        ("b", [205, 0, 477, 295], [("coronal MIP image", "coronal MIP image")]),
    ],
    "PMC4745298/fig1": [
        ("a", [119, 6, 341, 347], [("incurvation of Tibia", "incurvation of Tibia")]),
        ("b", [361, 6, 596, 347], [("incurvation of Tibia", "incurvation of Tibia")]),
        ("c", [6, 388, 347, 563], [("corneal opacity", "microphthalmia")]),
        ("d", [368, 388, 640, 563], [("corneal opacity", "microphthalmia")]),
    ],
    "PMC4745298/fig2": [
        ("a", [6, 6, 158, 347], [("Lateral spine radiographs", "platyspondyly")]),
        ("b", [178, 6, 350, 347], [("Lateral spine radiographs", "platyspondyly")]),
        ("c", [370, 6, 658, 347], [("Skull X-ray", "wormian bone")]),
    ],
    # no panel markers in these two captions (2D / 3D ultrasound; moving tongue): boxes only
    "PMC4745307/fig1": [(P, [6, 6, 360, 259], []), (P, [370, 6, 687, 259], [])],
    "PMC4745307/fig2": [(P, [6, 6, 342, 216], []), (P, [348, 6, 687, 216], [])],
    "elife-04177-vor-r1/fig1": [
        ("a", [20, 20, 240, 295], [("Selective contribution of IRF5", "by Student's t test.")]),
        ("b", [240, 20, 600, 240], [("Representative images of lungs from WT or Irf5", "2 × 106 of B16F1 cells.")]),
        ("c", [20, 300, 650, 585], [("In vitro killing assay of immune cells", "effector/target cell ratio.")]),
        ("d", [20, 605, 690, 895], [("Purified NK cells (WT; 1 × 105 cells) without", "represented as Net lysis (%).")]),
    ],
    "elife-04177-vor-r1/fig2": [
        ("a", [20, 20, 420, 240], [("Nuclear translocation of IRF5", "nuclear marker protein.")]),
        ("b", [430, 20, 705, 295], [("In vitro killing activity of whole splenocytes", "against B16F1 cells.")]),
        ("c", [20, 310, 560, 620], [("In vitro killing activity of purified NK cells", "represented as Net lysis (%).")]),
        ("d", [20, 640, 240, 935], [("Number of metastasized colonies in lungs from WT or Dectin", "1 × 106 of B16F1 cells.")]),
        ("e", [240, 640, 560, 900], [("Representative images of lungs from WT or Dectin", "2 × 106 of B16F1 cells.")]),
    ],
    "elife-04177-vor-r1/fig3": [
        ("a", [20, 20, 460, 265], [("Binding of sDectin-1 to B16F1 cells", "flow cytometric analysis.")]),
        ("b", [20, 285, 710, 525], [("Effect of N-glycosidase treatment", "cells remain alive.")]),
        ("c", [20, 550, 600, 845], [("The effect of N-glycosidase or O-glycosidase", "in vitro killing assay.")]),
    ],
    "elife-04177-vor-r1/fig4": [
        ("a", [20, 55, 540, 320], [("Effect of the supernatant", "(right panel).")]),
        ("b", [545, 55, 850, 320], [("Effect of antibodies against cytokines", "IFNs or IL12p40.")]),
        ("c", [20, 350, 345, 560], [("Induction of mRNAs in DCs", "membrane-bound protein are listed.")]),
        ("d", [350, 350, 620, 600], [("Induction of Fam26f", "expression of Gapdh mRNA.")]),
        ("e", [620, 350, 910, 620], [("Effect of INAM expression", "against B16F1 cells were monitored.")]),
    ],
    "elife-04177-vor-r1/fig5": [
        ("a", [20, 20, 370, 195], [("Binding of sDectin-1 to 3LL", "described in Figure 3A.")]),
        ("b", [20, 205, 395, 410], [("In vitro killing activity of WT or Dectin-1−/− splenocytes against 3LL", "as indicated E/T ratio.")]),
        ("c", [20, 415, 395, 610], [("Quantification of metastasis", "days after the injection.")]),
    ],
    "elife-15600-vor-r1/fig1": [
        ("a", [20, 0, 400, 270], [("Diagram showing placement", "recording location.")]),
        ("b", [400, 0, 680, 270], [("Raw traces of cell-attached", "modality of stimulus.")]),
        ("c", [20, 270, 680, 600], [("Example raster plots", "as a function of ISI.")]),
        ("d", [20, 600, 680, 922], [("Grouped data from both", "at the ISI's tested.")]),
    ],
    "elife-15600-vor-r1/fig2": [
        ("a", [0, 0, 420, 350], [("Histogram bars show the ISI", "broader range of ISIs.")]),
        ("b", [420, 0, 835, 350], [("Histogram bars show the ISI", "broader range of ISIs.")]),
        ("c", [0, 355, 210, 790], [("Maximum MSIn ratios", "MSIn gain over development.")]),
        ("d", [210, 355, 430, 790], [("The identity of the ISI's", "are compared.")]),
        ("e", [430, 355, 835, 792], [("MSIn-versus-ISI tuning curves", "around their preferred ISI.")]),
    ],
    "elife-15600-vor-r1/fig3": [
        ("a", [0, 0, 400, 580], [("Traces show examples", "sum of the individual responses.")]),
        ("b", [420, 0, 852, 540], [("For each cell, the maximum", "indicating a sublinear interaction.")]),
        ("c", [0, 590, 420, 1081], [("Cumulative Frequency Distributions", "calculation of Z-scores, see Materials and methods.")]),
        ("d", [430, 590, 852, 1050], [("Distribution of cells by interaction type", "few developmental differences.")]),
    ],
    "elife-15600-vor-r1/fig4": [
        ("a", [0, 0, 420, 400], [("Grouped data showing enhancement", "at the ISI's tested.")]),
        ("b", [430, 0, 910, 400], [("Histogram bars show the ISI that for each cell, exhibited maximal PPR", "shorter ISIs in both groups.")]),
        ("c", [0, 410, 210, 829], [("Maximum PPR ratios", "PPR gain over development.")]),
        ("d", [210, 410, 450, 829], [("The identity of the ISI's at which", "separated by developmental group.")]),
        ("e", [450, 410, 910, 829], [("PPR-versus-ISI tuning curves", "does not change over development.")]),
    ],
    "elife-15600-vor-r1/fig5": [
        ("a", [0, 0, 345, 295], [("Grouped data from stage 48–9", "at each ISI tested.")]),
        ("b", [345, 0, 660, 295], [("Histogram bars show the ISI at which", "to shorter intervals.")]),
        ("c", [660, 0, 850, 295], [("Maximum MSIn ratios are compared across control", "with inhibitory blockade.")]),
        ("d", [850, 0, 1028, 295], [("The identity of the ISI's responsible", "PTX groups are compared.")]),
        ("e", [0, 295, 345, 625], [("MSI-versus-ISI tuning curves", "around their preferred ISI.")]),
        ("f", [345, 295, 690, 625], [("For each cell, the maximum raw spike counts", "to the left of the dashed line.")]),
        # printed "G" in the image; the caption calls it a second "(C)"
        ("g", [690, 295, 1028, 625], [("Cumulative Frequency Distributions", "Kolmogorov-Smirnov test).")]),
    ],
    "elife-15600-vor-r1/fig6": [
        ("a", [0, 80, 460, 490], [("Plot of response onset times", "for all experimental groups.")]),
        ("b", [0, 490, 460, 880], [("Plot of response onset times", "for all experimental groups.")]),
        ("c", [0, 880, 460, 1275], [("Plot of response onset times", "for all experimental groups.")]),
        ("d", [460, 80, 836, 680], [("Comparison of response onset times", "single modality responses.")]),
        ("e", [460, 680, 836, 1290], [("Comparison between paired response", "picrotoxin delays onset times.")]),
    ],
    "elife-15600-vor-r1/fig7": [
        ("a", [0, 0, 361, 365], [("Sample excitatory (red)", "respectively in this example).")]),
        ("b", [0, 365, 361, 600], [("Plot of crossmodal enhancement of excitatory", "less enhanced in the older tadpoles.")]),
        ("c", [0, 600, 361, 870], [("Plot of crossmodal enhancement of inhibitory", "2-way ANOVA.")]),
        ("d", [0, 870, 361, 1171], [("Plot of maximum excitatory", "than excitatory enhancement.")]),
    ],
}


def _span(caption: str, first: str, last: str) -> str:
    i = caption.index(first)
    j = caption.index(last, i) + len(last)
    return caption[i:j]


def sources() -> dict[str, dict]:
    """figure key -> {source, caption} for every annotated figure."""
    from compound_real_figures import _xml_captions

    out: dict[str, dict] = {}
    for key in ANNOTATIONS:
        if key in ELIFE_CLIPS:
            path, page, clip = ELIFE_CLIPS[key]
            xml = (DATA / path).with_suffix(".xml")
            caption = _xml_captions(xml)[key.rsplit("fig", 1)[1]]
            out[key] = {"source": {"kind": "pdf", "path": path, "page": page, "clip_pt": clip, "scale": 2.0}, "caption": caption}
    by_article: dict[str, list[str]] = {}
    for key in ANNOTATIONS:
        if key not in ELIFE_CLIPS:
            by_article.setdefault(key.split("/")[0], []).append(key)
    for pmcid, keys in by_article.items():
        pdf = DATA / HINDAWI.format(pmcid)
        for fig in pdf_figures(pdf, pdf.parent / "fulltext.xml"):
            key = f"{pmcid}/fig{fig['figure_number']}"
            if key in keys:
                rel = pdf.relative_to(DATA).as_posix()
                out[key] = {"source": {"kind": "pdf", "path": rel, "page": fig["page"], "clip_pt": fig["clip_pt"], "scale": 2.0}, "caption": fig["caption"]}
    missing = set(ANNOTATIONS) - set(out)
    if missing:
        raise SystemExit(f"figures not found: {sorted(missing)}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grid", metavar="DIR", help="also write each figure with a 50 px grid and the gold boxes")
    args = ap.parse_args()
    old = {f["figure_key"] for f in json.loads((OUT.parent / "real_gold.json").read_text())["figures"]}
    assert not old & set(ANNOTATIONS), "fresh gold must not overlap real_gold.json"
    src = sources()
    figures = []
    for key, panels in ANNOTATIONS.items():
        image = load_image(src[key]["source"])
        w, h = image.size
        subs = []
        for label, box, spans in panels:
            x0, y0, x1, y1 = box
            assert 0 <= x0 < x1 <= w + 2 and 0 <= y0 < y1 <= h + 2, (key, box, (w, h))
            box = [x0, y0, min(x1, w), min(y1, h)]
            subs.append({"label": label, "box": box, "subcaption": [_span(src[key]["caption"], a, b) for a, b in spans]})
        figures.append({"figure_key": key, "source": src[key]["source"], "width": w, "height": h,
                        "caption": src[key]["caption"], "compound": True, "subfigures": subs, "split": "fresh"})
        if args.grid:
            from PIL import ImageDraw

            d = ImageDraw.Draw(image)
            for x in range(0, w, 50):
                d.line([(x, 0), (x, h)], fill=(255, 170, 170))
            for y in range(0, h, 50):
                d.line([(0, y), (w, y)], fill=(170, 170, 255))
            for s in subs:
                d.rectangle(s["box"], outline=(0, 180, 0), width=3)
                d.text((s["box"][0] + 4, s["box"][1] + 4), str(s["label"]), fill=(0, 120, 0))
            Path(args.grid).mkdir(parents=True, exist_ok=True)
            image.save(Path(args.grid) / (key.replace("/", "_") + ".png"))
    OUT.write_text(json.dumps({"figures": figures}, indent=1, ensure_ascii=False) + "\n")
    n = sum(len(f["subfigures"]) for f in figures)
    print(f"{len(figures)} fresh compound figures, {n} panels -> {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

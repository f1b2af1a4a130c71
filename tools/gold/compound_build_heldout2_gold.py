"""Build the second held-out subfigure gold (``gold/subfigures/heldout2_gold.json``).

Real figures from ../shared/data that are in neither ``real_gold.json`` nor
``fresh_gold.json``, annotated BEFORE any change to the splitter tuned after the fresh
split was seen, and never used for tuning (see NOTES.md, "Held-out 2").

- Figure FILES as distributed where the package has them: PMC10802347 (real PMC OA
  package, ``-f0002/3/4.jpg``), elife-19405 (eLife PMC deposit, ``-fig1.tif``), elife-00353
  and medRxiv 24301711 (single-panel negatives). Files whose longer side exceeds
  ``MAX_SIDE`` px are downscaled (Lanczos) to it, so boxes are in those stored pixels
  (``compound_real_figures.load_image``, source kind ``file``).
- Hindawi figures without a figure file: the PDF page region ``medfig build --no-subfigures``
  cropped (figures.parquet ``pdf_page`` / ``pdf_box``, PDF points, origin top-left),
  rendered by pypdfium2 at scale 2 like the other gold sets.

Every box was read by eye on a 50 px coordinate grid drawn over the figure (``--grid DIR``
redraws those sheets with the gold boxes): whole panel = letter, picture or axes, axis
labels, legend; a printed "(a)" under a panel belongs to it. No medfig splitter output was
looked at. Labels are the letters printed in the image. Each subcaption is a verbatim
caption span chosen by hand by its first and last words (``_span``), MedICaT style (this
panel's own words; title / text shared by all panels, statistics boilerplate such as
"N = 3 per group. Statistic: ... Bars represent mean ..." and scale left out; "((b) and (c))"
text given to both panels), never drafted by medfig's caption parser.

    .venv/bin/python tools/gold/compound_build_heldout2_gold.py [--grid DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))  # harness, compound_real_figures
from compound_real_figures import _xml_captions, load_image  # noqa: E402
from harness import DATA, GOLD  # noqa: E402

OUT = GOLD / "subfigures" / "heldout2_gold.json"
MAX_SIDE = 1200  # figure files larger than this (longer side, px) are downscaled to it
PKG = "jats_pdf_figure_packages/"
PMC10802347 = PKG + "PMC10802347_partial_oa_package/nihpp-2023.12.31.573776v1"

# figure key -> (image file, JATS XML whose caption it is, figure number in that XML)
FILES = {
    "PMC10802347/fig2": (PMC10802347 + "-f0002.jpg", PMC10802347 + ".nxml", "2"),
    "PMC10802347/fig3": (PMC10802347 + "-f0003.jpg", PMC10802347 + ".nxml", "3"),
    "PMC10802347/fig4": (PMC10802347 + "-f0004.jpg", PMC10802347 + ".nxml", "4"),
    "elife-19405/fig1": (PKG + "elife-19405_pmc_deposit/elife-19405-fig1.tif", PKG + "elife-19405_pmc_deposit/elife-19405.xml", "1"),
    "elife-00353/fig1": (PKG + "elife-00353_vor/elife-00353-fig1-v1.tif", PKG + "elife-00353_vor/elife-00353-v1.xml", None),
    "medrxiv-24301711/fig1": (PKG + "medrxiv-24301711_meca/content/24301711v1_fig1.tif", PKG + "medrxiv-24301711_meca/content/24301711.xml", "1"),
}

# Hindawi figure key -> (PDF page 0-based, clip [x0, y0, x1, y1] PDF points, origin top-left)
# as `medfig build --no-subfigures` cropped them.
PDF_CLIPS = {
    "PMC4738934/fig1": (1, [123.54, 74.3, 474.81, 259.52]),
    "PMC4739213/fig3": (1, [368.52, 73.91, 488.58, 272.63]),
    "PMC4739223/fig2": (1, [81.12, 326.3, 260.3, 524.75]),
    "PMC4739453/fig1": (1, [84.57, 74.33, 256.08, 259.52]),
    "PMC4739453/fig4": (2, [84.57, 301.73, 256.32, 486.95]),
    "PMC4745290/fig4": (2, [141.51, 74.03, 457.26, 225.52]),
    "PMC4745298/fig3": (2, [164.34, 85.86, 433.11, 182.02]),
    "PMC4745327/fig1": (1, [69.75, 73.33, 528.31, 436.28]),
    "PMC4745327/fig2": (2, [69.25, 73.2, 529.33, 450.28]),
    "PMC4745327/fig3": (3, [69.25, 73.31, 529.33, 445.23]),
    "PMC4745327/fig4": (4, [69.25, 73.29, 529.33, 435.29]),
    "PMC4706934/fig2": (2, [124.38, 74.04, 474.48, 233.27]),
    # single-panel negatives
    "PMC4657150/fig3": (3, [54.11, 346.74, 286.64, 501.53]),
    "PMC4736587/fig2": (1, [332.13, 73.7, 524.49, 300.5]),
    "PMC4738714/fig1": (1, [84.81, 73.46, 255.63, 201.8]),
    "PMC4738714/fig4": (2, [84.81, 403.07, 255.63, 531.98]),
    "PMC4745298/fig4": (2, [164.85, 227.09, 434.38, 311.6]),
    "PMC4745327/fig5": (5, [57.22, 73.12, 283.09, 186.26]),
    "PMC4691483/fig1": (1, [317.25, 73.14, 539.51, 222.26]),
    "PMC4691483/fig4": (2, [314.87, 72.78, 540.23, 202.29]),
}

# single-panel figures (one chart, photo, micrograph, schematic, illustration, flow chart)
SINGLE = [
    "PMC4657150/fig3", "PMC4736587/fig2", "PMC4738714/fig1", "PMC4738714/fig4", "PMC4745298/fig4",
    "PMC4745327/fig5", "PMC4691483/fig1", "PMC4691483/fig4", "elife-00353/fig1", "medrxiv-24301711/fig1",
]

# figure key -> panels: (label or None, [x0, y0, x1, y1] image px, [(first words, last words), ...])
P = None
_S10802347 = "brown adipocytes."
ANNOTATIONS: dict[str, list] = {
    "PMC10802347/fig2": [
        ("a", [0, 0, 148, 205], [("Expression of SLC25A48 (endogenous)", "Values relative to SLC25A48-KO.")]),
        ("b", [148, 0, 388, 195], [("Cellular respiration of SLC25A48-KO", "(Rot/AA).")]),
        ("c", [388, 0, 512, 195], [("Top 50 genes co-evolved", "AHCY, adenosylhomocysteinase.")]),
        ("d", [512, 0, 720, 195], [("Gene ontology pathway enrichment", "(Figure 2D).")]),
        ("e", [0, 200, 205, 446], [("Schematic of mitochondrial contribution", "s-adenosylhomocysteine (SAH).")]),
        ("f", [205, 200, 385, 446], [("Mitochondrial metabolomics from brown adipocytes", "uridine diphosphate.")]),
        ("g", [385, 200, 545, 446], [("Whole cell metabolomics of SLC25A48-KO", "compared to SLC25A48-KOSLC25A48-Flag brown adipocytes.")]),
        ("h", [545, 200, 720, 446], [("Pathway analysis of metabolites", "whole cell of SLC25A48-KO brown adipocytes.")]),
    ],
    "PMC10802347/fig3": [
        ("a", [0, 0, 232, 415], [("Schematic of mitochondrial choline transport", "analysis of choline and its metabolites.")]),
        ("b", [240, 0, 385, 265], [("Whole cell labeled (D9, red) and unlabeled (D0, blue) choline in", _S10802347)]),
        ("c", [385, 0, 545, 265], [("Whole cell labeled (D9, red) and unlabeled (D0, blue) betaine aldehyde", _S10802347)]),
        ("d", [545, 0, 720, 265], [("Whole cell labeled (D9, red) and unlabeled (D0, blue) betaine in", _S10802347)]),
        ("e", [240, 285, 385, 541], [("Mitochondrial labeled (D9, red) and unlabeled (D0, blue) choline", _S10802347)]),
        ("f", [385, 285, 545, 541], [("Mitochondrial labeled (D9, red) and unlabeled (D0, blue) betaine aldehyde", _S10802347)]),
        ("g", [545, 285, 720, 541], [("Mitochondrial labeled (D9, red) and unlabeled (D0, blue) betaine in", _S10802347)]),
    ],
    "PMC10802347/fig4": [
        ("a", [0, 0, 345, 300], [("Whole cell metabolite abundance of betaine", "HEK 293T cells.")]),
        ("b", [375, 0, 630, 290], [("Cell growth in HEK-293T cells", "relative to time 0 h.")]),
        ("c", [0, 330, 235, 585], [("Cell viability of ovarian", "24 hours post transfection.")]),
        ("d", [235, 330, 470, 585], [("Cell cycle analysis of SKOV3", "SLC25A48-KO plasmid.")]),
        ("e", [470, 330, 729, 585], [("Cell cycle analysis of U2OS", "SLC25A48-KO plasmid.")]),
        ("f", [0, 600, 729, 899], [("Mitochondrial choline import regulates purine nucleotide pools through", "required for cell proliferation.")]),
    ],
    # the arrow between the two rows links them and belongs to neither panel
    "elife-19405/fig1": [
        ("a", [0, 0, 1200, 480], [("Before the cells divide", "also grows a primary cilium.")]),
        ("b", [50, 615, 1015, 1060], [("When the cells begin to divide", "anterior-posterior axis.")]),
    ],
    "PMC4738934/fig1": [
        ("a", [0, 0, 343, 368], [("Chronic total occlusion", "(RCA).")]),
        ("b", [362, 0, 703, 368], [("Retrograde filling of the distal RCA", "(LAD).")]),
    ],
    # AP and lateral radiographs stacked / side by side, no panel markers: boxes only
    "PMC4739213/fig3": [(P, [0, 0, 240, 190], []), (P, [0, 200, 240, 397], [])],
    "PMC4739223/fig2": [(P, [0, 0, 185, 397], []), (P, [185, 0, 359, 397], [])],
    "PMC4739453/fig1": [
        ("a", [0, 0, 163, 368], [("Posterior-anterior", "Posterior-anterior")]),
        ("b", [181, 0, 343, 368], [("lateral", "lateral")]),
    ],
    "PMC4739453/fig4": [
        ("a", [0, 0, 163, 368], [("Posterior-anterior", "Posterior-anterior")]),
        ("b", [181, 0, 344, 368], [("lateral", "lateral")]),
    ],
    "PMC4745290/fig4": [
        ("a", [0, 0, 345, 303], [("Axial T2-weighted MRI", "bilaterally")]),
        ("b", [362, 0, 632, 303], [("Contrast-enhanced T1-weighted Vibe", "liver hydatid cyst")]),
    ],
    # "(b)" is printed under the proband's sequence line at the top, "(a)" under the
    # chromatogram + reference sequence
    "PMC4745298/fig3": [
        ("b", [0, 0, 537, 88], [("cDNA of the proband revealed", "trp757-to-stop codon.")]),
        ("a", [0, 88, 537, 192], [("cDNA reference sequence for LRP5", "cDNA reference sequence for LRP5")]),
    ],
    "PMC4745327/fig1": [
        ("a", [0, 0, 460, 390], [("There was no statistically significant difference between the groups", "in their learning ability")]),
        ("b", [470, 0, 917, 390], [("the length of time in target quadrant", "when compared to the controls")]),
        ("c", [235, 390, 700, 726], [("the length of time in target quadrant", "when compared to the controls")]),
    ],
    "PMC4745327/fig2": [
        ("a", [0, 0, 460, 418], [("All the groups of the 6-month-old mice", "in their ability to learn")]),
        ("b", [470, 0, 921, 418], [("the memory retention of the V6 group", "when compared to the control group")]),
        ("c", [240, 420, 680, 755], [("the memory retention of the V6 group", "when compared to the control group")]),
    ],
    "PMC4745327/fig3": [
        ("a", [0, 0, 460, 410], [("All the groups of the 9-month-old rats", "no statistically significant difference among them")]),
        ("b", [470, 0, 921, 410], [("there was a statistically significant decrease in memory retention", "relative to control"),
                                   ("The W6 group showed some recovery", "still significantly less than the controls.")]),
        ("c", [235, 415, 685, 743], [("there was a statistically significant decrease in memory retention", "relative to control"),
                                    ("The W6 group showed some recovery", "still significantly less than the controls.")]),
    ],
    # the caption names no "(a)": panel a's sentence is given to it by its content
    "PMC4745327/fig4": [
        ("a", [0, 0, 460, 400], [("All the groups of the 12-month-old rats", "no statistically significant difference among them.")]),
        ("b", [470, 0, 921, 400], [("there was statistically significant decrease in memory retention in V12", "relative to controls"),
                                   ("The W9 group showed a remarkable recovery", "comparable to the controls.")]),
        ("c", [230, 405, 695, 724], [("there was statistically significant decrease in memory retention in V12", "relative to controls")]),
    ],
    # empty caption in the JATS XML: boxes only
    "PMC4706934/fig2": [(P, [0, 0, 345, 320], []), (P, [357, 0, 700, 320], [])],
}


def _span(caption: str, first: str, last: str) -> str:
    i = caption.index(first)
    j = caption.index(last, i) + len(last)
    return caption[i:j]


def _caption(xml_rel: str, number: str | None) -> str:
    from medfig.jats.parse import parse_jats

    xml = DATA / xml_rel
    if number is None:  # unlabelled single figure
        return parse_jats(xml.read_bytes(), key=xml.parent.name).figures[0].caption
    return _xml_captions(xml)[number]


def source_of(key: str) -> tuple[dict, str]:
    """(gold ``source`` record, caption) for one figure key."""
    if key in FILES:
        path, xml, number = FILES[key]
        return {"kind": "file", "path": path, "max_side": MAX_SIDE}, _caption(xml, number)
    page, clip = PDF_CLIPS[key]
    pmcid, fig = key.split("/")
    src = {"kind": "pdf", "path": f"pmc_hindawi_xml_pdf/{pmcid}/fulltext.pdf", "page": page, "clip_pt": clip, "scale": 2.0}
    return src, _caption(f"pmc_hindawi_xml_pdf/{pmcid}/fulltext.xml", fig.removeprefix("fig"))


def _grid(image, subs, path: Path) -> None:
    from PIL import ImageDraw

    w, h = image.size
    d = ImageDraw.Draw(image)
    for x in range(0, w, 50):
        d.line([(x, 0), (x, h)], fill=(255, 120, 120) if x % 100 == 0 else (255, 200, 200))
    for y in range(0, h, 50):
        d.line([(0, y), (w, y)], fill=(120, 120, 255) if y % 100 == 0 else (200, 200, 255))
    for s in subs:
        d.rectangle(s["box"], outline=(0, 180, 0), width=3)
        d.text((s["box"][0] + 4, s["box"][1] + 4), str(s["label"]), fill=(0, 120, 0))
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grid", metavar="DIR", help="also write each figure with a 50 px grid and the gold boxes")
    args = ap.parse_args()
    old = set()
    for name in ("real_gold.json", "fresh_gold.json"):
        old |= {f["figure_key"] for f in json.loads((OUT.parent / name).read_text())["figures"]}
    keys = list(ANNOTATIONS) + SINGLE
    assert not old & set(keys), f"heldout2 overlaps the older gold: {sorted(old & set(keys))}"
    figures = []
    for key in keys:
        src, caption = source_of(key)
        image = load_image(src)
        w, h = image.size
        subs = []
        for label, box, spans in ANNOTATIONS.get(key, []):
            x0, y0, x1, y1 = box
            assert 0 <= x0 < x1 <= w + 2 and 0 <= y0 < y1 <= h + 2, (key, box, (w, h))
            subs.append({"label": label, "box": [x0, y0, min(x1, w), min(y1, h)],
                         "subcaption": [_span(caption, a, b) for a, b in spans]})
        figures.append({"figure_key": key, "source": src, "width": w, "height": h, "caption": caption,
                        "compound": bool(subs), "subfigures": subs, "split": "heldout2"})
        if args.grid:
            _grid(image, subs, Path(args.grid) / (key.replace("/", "_") + ".png"))
    OUT.write_text(json.dumps({"figures": figures}, indent=1, ensure_ascii=False) + "\n")
    n_c = sum(f["compound"] for f in figures)
    n_p = sum(len(f["subfigures"]) for f in figures)
    print(f"{n_c} compound figures ({n_p} panels) + {len(figures) - n_c} single-panel -> {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

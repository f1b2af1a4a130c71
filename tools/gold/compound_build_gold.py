"""How benchmarks/gold/subfigures/real_gold.json was made (re-runnable; see NOTES.md there).

    .venv/bin/python tools/gold/compound_build_gold.py

1. PDF figures (benchmarks/compound_real_figures.py): panel boxes are the figure's embedded
   image objects (exact, from the PDF), grouped under the "(a)" text label printed below
   them when one label covers several images; labels are those printed letters.
2. Each figure was then LOOKED AT with the boxes drawn over it (contact sheets); figures
   whose image objects are not the panels (vector charts whose axes are not in the image,
   panels pasted from several pieces, "a1/a2" labels) were excluded: EXCLUDED in
   benchmarks/compound_real_figures.py (compound_synthetic.py skips the same figures).
3. Subcaptions: drafted with medfig's parser, then every one read against the caption and
   corrected by hand where the draft was wrong: SUBCAPTION_FIXES below (MedICaT's rule: the
   words that describe this panel and not all panels; scale information left out).
4. MedICaT sample: the 5 compound PNGs: boxes proposed by medfig's panel splitter, then
   checked by eye on an overlay (all five splits are at the visible separator lines), labels
   read in the image, subcaptions written by hand from the caption;
   its 5 single-panel PNGs and 30 single-image Hindawi figures are single-panel negatives.
5. Split: figures sorted by key, alternating tune / test (articles can straddle the split).
6. EXSCLAIM (added last, alternating test/tune among themselves): boxes read by eye on a
   grid overlay, subcaptions written by hand (EXSCLAIM_PANELS).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import linear_sum_assignment

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))  # harness, compound_real_figures
from compound_real_figures import EXCLUDED, RENDER_SCALE, SINGLE_EXCLUDED, load_image, pdf_sources  # noqa: E402
from harness import DATA, GOLD  # noqa: E402

OUT = GOLD / "subfigures" / "real_gold.json"


# label -> list of caption fragments (verbatim). Replaces the draft for that figure.
SUBCAPTION_FIXES = {
    "PMC4691483/fig6": {
        "a": ["The retina in a normal SD rat (hematoxylin and eosin stain). A: optic nerve disc. B–D: the points 500, 1,000, and 1,500 μm from the optic nerve disc, respectively."],
        "b": ["The retina and choroid 400 to 600 μm from the optic nerve disc. A: ILM. B: INL. C: ONL. D: PL. E: RPE. F: choroid. G: sclera."],
    },
    "PMC4691483/fig7": {
        "a": ["The retina in a SDT rat (hematoxylin and eosin stain). A: optic nerve disc. B–D: the points 500, 1,000, and 1,500 μm from the optic nerve disc, respectively."],
        "b": ["The retina and choroid 400 to 600 μm from the optic nerve disc. A: ILM. B: INL. C: ONL. D: PL. E: RPE. F: choroid. G: sclera."],
    },
    "PMC4706923/fig4": {"a": ["VIBE sequences after the i.v. contrast medium administration"], "b": ["HASTE sequences"]},
    "PMC4736587/fig4": {
        "a": ["moderate to severe shortening of most villi"],
        "b": ["moderate to severe shortening of most villi", "few rather tall villi are seen in picture"],
    },
    "PMC4736807/fig2": {
        "a": ["Paraxial", "maximum intensity projection reconstruction from cardiac CT scan, demonstrating the anomalous site of the coronary ostia as well as the malposition of the great arteries"],
        "b": ["parasagittal", "maximum intensity projection reconstruction from cardiac CT scan, demonstrating the anomalous site of the coronary ostia as well as the malposition of the great arteries"],
        "c": ["3D volume-rendered reconstruction"],
        "d": ["3D volume-rendered reconstruction"],
    },
    "PMC4736807/fig3": {
        "a": ["Cardiac MRI long axis", "black blood fast spin echo images of LV"],
        "b": ["short axis", "black blood fast spin echo images of LV"],
        "c": ["end-diastolic long axis", "cine balanced steady-state free precession acquisition"],
        "d": ["end-diastolic long axis", "cine balanced steady-state free precession acquisition"],
    },
    "PMC4739453/fig3": {
        "a": ["Postfacetectomy", "The arrowheads in (a) demonstrate bilateral ossifications of the ligamentum flavum occupying the posterior aspect of the spinal canal."],
        "b": ["postlaminectomy", "The bracket in (b) indicates the area where decompression was achieved via laminectomy and resection of these lesions."],
    },
    "PMC4738949/fig1": {"a": ["axial"], "b": ["sagittal"]},
}

# EXSCLAIM's 5 CC BY Nature Communications figures (materials science: charts, schematics,
# electron microscopy). Boxes read by eye on a 25 px grid overlay (the EXSCLAIM pipeline
# boxes were not used: several cut panels short or miss them); a box covers the whole panel
# with its letter, axes and axis labels. Subcaptions written by hand; a fragment given as
# (text, after) is the first occurrence of text after the first occurrence of after.
EXSCLAIM = "subfigure_annotations/exsclaim_nature_expected/images/s41467-018-06211-3_fig{}.jpg"
EXSCLAIM_PANELS = {
    1: [
        ("a", [0, 0, 450, 275], ["Schematic of the synthesis process", "of the bulk manganese oxides (BM), polyhedron manganese oxide (PM), and silver manganate nanoplate (SMNp)"]),
        ("b", [455, 0, 685, 275], ["Schematic", "the summary of the catalytic effects", "of the SMNp."]),
        ("c", [0, 295, 220, 382], ["Scanning electronic microscopy (SEM) images of the BM"]),
        ("d", [0, 387, 220, 472], ["Scanning electronic microscopy (SEM) images", ("PM", "BM (c), ")]),
        ("e", [235, 293, 458, 470], ["Scanning electronic microscopy (SEM) images", ("SMNp", "PM (d), and "), "showing plate-like structures with silver nanoparticles."]),
        ("f", [475, 293, 685, 470], ["High-resolution transmission electron microscopy (HR-TEM) images of the SMNp"]),
        ("g", [0, 487, 222, 660], ["High-resolution transmission electron microscopy (HR-TEM) images", "high-magnified image", "of the box in f, which shows zigzag atomic arrangements with intragranular cracking. Fast Fourier transform (FFT) image of g presents the lattice planes of (–100) and (001) along the [010] zone, indicating the orthorhombic structure of Ag2MnO4."]),
        ("h", [235, 487, 455, 660], ["Inverse FFT images of applied masks at the blue circle", "in g, showing a wide range of dislocations with defects.", "The dislocations are shown by circles and edge dislocations are represented by a T-shaped symbol.", "The upper right insets in h and i indicate the applied masks and the lattice spacing of the (101) plane is denoted as the left inset in h."]),
        ("i", [475, 487, 685, 660], ["Inverse FFT images of applied masks", "red circle", "in g, showing a wide range of dislocations with defects.", "The dislocations are shown by circles and edge dislocations are represented by a T-shaped symbol.", "The upper right insets in h and i indicate the applied masks"]),
    ],
    2: [
        ("a", [0, 0, 390, 255], ["Filtered high-angle annular dark-field-scanning transmission electron microscopy (HAADF-STEM) and energy-dispersive X-ray spectroscopy (EDX) mapping image of the silver manganate nanoplate (SMNp) along the [010] zone axis with its fast Fourier transform (FFT) pattern, showing continuous arrangements of silver and manganese atoms."]),
        ("b", [0, 280, 390, 535], ["Line-scanning profile showing distinct distributions of silver and manganese elements."]),
        ("c", [405, 0, 685, 190], ["Simulated HAADF-STEM image", "indicating the highest electron density with red color and the lowest with black"]),
        ("d", [405, 205, 685, 410], ["annular bright-field (ABF)–STEM image", "showing the Ag2MnO4 orthorhombic structure with silver (blue), manganese (red), and oxygen (purple) elements."]),
        ("e", [405, 415, 685, 540], ["Corresponding ABF intensity profiles of the white box in d present the peaks of the silver and manganese atomic columns."]),
        ("f", [0, 550, 320, 745], ["A HAADF-STEM image", "at the marked sites, showing Ag M4,5-edge, O K-edge, and Mn L2,3-edge."]),
        ("g", [355, 550, 685, 745], ["the corresponding electron energy loss spectroscopy (EELS) profiles", "at the marked sites, showing Ag M4,5-edge, O K-edge, and Mn L2,3-edge."]),
    ],
    3: [
        ("a", [0, 0, 335, 245], ["Linear scan voltammogram (LSV) curves for the Ag nanoparticle, bulk manganese oxides (BM), polyhedron manganese oxide (PM), silver manganate nanoplate (SMNp), and a commercial Pt/C catalyst at a rotating ring–disk electrode (1600 r.p.m) in O2-saturated 0.1 M KOH solution with a scan rate of 5 mV s–1. All data have been calibrated by using Ar-saturated 0.1 M KOH solution."]),
        ("b", [340, 0, 685, 245], ["The corresponding number of transferred electrons", "of the Ag, BM, PM, SMNp, and Pt/C. Id represents the limiting current density obtained at a potential of 0.30 V in a."]),
        ("c", [0, 262, 350, 507], ["Tafel plots", "of the Ag, BM, PM, SMNp, and Pt/C. Id represents the limiting current density obtained at a potential of 0.30 V in a."]),
        ("d", [355, 262, 685, 507], ["Chronoamperometric response of the SMNp and 20 wt% Pt/C in O2-saturated 0.1 M KOH electrolytes at 0.85 V (vs. RHE) with 1600 r.p.m showing good stability of SMNp compared with Pt/C"]),
    ],
    4: [
        ("a", [45, 0, 685, 248], ["Schematic of the aluminum–air flow battery (AAFB) system, which includes a single stack cell, one electrolyte tank, and circulation pump. ORR indicates oxygen reduction reaction."]),
        ("b", [0, 255, 248, 458], ["Power density curves of flow cells using the pristine air electrode, silver manganate nanoplate (SMNp), and Pt/C with 6 M KOH electrolyte (scan rate of 0.1 mA s−1)."]),
        ("c", [268, 255, 485, 458], ["Discharge curves using the pristine air electrode, SMNp, and Pt/C at 100 mA cm−2."]),
        ("d", [497, 255, 685, 458], ["Mechanical charge and discharge tests using the SMNp and Pt/C at 25 mA cm−2, where the aluminum and electrolyte were replaced every cycle"]),
    ],
    5: [
        ("a", [0, 0, 425, 280], ["Electrical conductivity of the Ag nanoparticle, bulk manganese oxides (BM), polyhedron manganese oxide (PM), silver manganate nanoplate (SMNp), and Pt/C-loaded air electrodes."]),
        ("b", [445, 0, 685, 285], ["Precious metal dissolution tests in aluminum–air flow batteries (AAFBs) using the SMNp and Pt/C with 6 M KOH electrolyte after 6 h of discharging at 50 mA cm−2."]),
        ("c", [0, 300, 455, 609], ["Comparison of the gravimetric energy density", "among gasoline with theoretical and practical value, AAFBs with Pt/C and SMNp (at 50 mA cm−2)"]),
        ("d", [445, 300, 685, 609], ["comparison of the gravimetric energy density", "between zinc–air flow batteries (ZAFBs) and AAFBs with the SMNp at 100 mA cm−2"]),
    ],
}


def _spans(caption: str, fragments: list) -> list[list[int]]:
    out = []
    for frag in fragments:
        text, after = frag if isinstance(frag, tuple) else (frag, None)
        start = caption.index(after) + len(after) if after else 0
        # typed with plain spaces; the caption has thin spaces between numbers and units
        m = re.compile(r"\s+".join(re.escape(w) for w in text.split())).search(caption, start)
        if m is None:
            raise ValueError(f"subcaption fragment not in caption: {text!r}")
        out.append([m.start(), m.end()])
    return out


MEDICAT = "medicat_sample/figures/"
MEDICAT_COMPOUND = [
    ("57c9ad0f4aab133f96d40992c46926fabc901ffa_2-Figure1-1.png", [("a", [1, 0, 327, 339], ["Barium enema"]), ("b", [329, 0, 702, 339], ["endoscopic image of the high-grade distal colonic obstruction caused by a 5-cm anastomotic stricture."])]),
    ("57c9ad0f4aab133f96d40992c46926fabc901ffa_2-Figure2-1.png", [("a", [0, 34, 300, 359], ["colonoscopy"]), ("b", [304, 34, 700, 359], ["plain abdominal radiograph."])]),
    ("57c9ad0f4aab133f96d40992c46926fabc901ffa_2-Figure4-1.png", [("a", [34, 0, 309, 295], ["Stricture at the site of the previously placed stents in the rectum with tissue hypertrophy and a small ulcer."]), ("b", [312, 0, 734, 295], ["Although no visible stents were seen during the colonoscopy, a portion of the stents was visualized on abdominal radiograph."])]),
    ("5f2d2f2ffbd20c7ff3ac30d514da54ee5bd825b4_1-Figure1-1.png", [("a", [33, 0, 244, 229], ["Brain CT"]), ("b", [254, 0, 463, 229], ["MR diffusion images"]), ("c", [473, 0, 684, 229], ["MR diffusion images"])]),
    ("5f2d2f2ffbd20c7ff3ac30d514da54ee5bd825b4_2-Figure2-1.png", [("a", [0, 0, 253, 317], ["Mid sagittal"]), ("b", [261, 0, 650, 317], ["axial MRI"]), ("c", [0, 325, 253, 642], ["Mid sagittal"]), ("d", [261, 325, 650, 642], ["axial MRI"])]),
]
MEDICAT_SINGLE = [
    "26491ab76c6e8d6acc582e71bb6b3b5f5601ccc2_3-Figure4-1.png", "57c9ad0f4aab133f96d40992c46926fabc901ffa_2-Figure3-1.png",
    "b362a19e4c4b1854f7cbe246a19502a56f52c2b5_3-Figure2-1.png", "e19039cd42f72102389f811643cd3036f8db5182_2-Figure1-1.png",
    "e19039cd42f72102389f811643cd3036f8db5182_2-Figure3-1.png",
]


def _pdf_labels(src: dict) -> list[tuple[str, list[float]]]:
    import pdfplumber

    sc = src["scale"]
    cx0, cy0, cx1, cy1 = src["clip_pt"]
    with pdfplumber.open(DATA / src["path"]) as pdf:
        words = pdf.pages[src["page"]].extract_words()
    out = []
    for w in words:
        m = re.fullmatch(r"\(([a-zA-Z])\)", w["text"])
        if m and w["x0"] >= cx0 and w["x1"] <= cx1 and w["top"] >= cy0 and w["bottom"] <= cy1:
            out.append((m[1].lower(), [(w["x0"] - cx0) * sc, (w["top"] - cy0) * sc, (w["x1"] - cx0) * sc, (w["bottom"] - cy0) * sc]))
    return out


def _panels(boxes: list[list[int]], labels: list[tuple[str, list[float]]]) -> list[tuple[str | None, list[int]]]:
    if labels and len(labels) < len(boxes):
        # one printed label under a group of images: the panel is the group
        groups: dict[str, list[list[int]]] = {}
        for p in boxes:
            w = p[2] - p[0]
            best = None
            for t, b in labels:
                cx = (b[0] + b[2]) / 2
                if b[1] >= p[3] - 4 and p[0] - 0.6 * w <= cx <= p[2] + 0.6 * w:
                    if best is None or b[1] - p[3] < best[0]:
                        best = (b[1] - p[3], t)
            if best:
                groups.setdefault(best[1], []).append(p)
        return [(t, [min(p[0] for p in ps), min(p[1] for p in ps), max(p[2] for p in ps), max(p[3] for p in ps)]) for t, ps in sorted(groups.items())]
    if labels:
        cost = np.zeros((len(labels), len(boxes)))
        for i, (_, b) in enumerate(labels):
            for j, p in enumerate(boxes):
                dx = max(0, max(b[0], p[0]) - min(b[2], p[2]))
                dy = max(0, max(b[1], p[1]) - min(b[3], p[3]))
                cost[i, j] = np.hypot(dx, dy) + 0.01 * abs((b[0] + b[2]) / 2 - (p[0] + p[2]) / 2)
        rows, cols = linear_sum_assignment(cost)
        names: list[str | None] = [None] * len(boxes)
        for i, j in zip(rows, cols):
            names[j] = labels[i][0]
        return list(zip(names, boxes))
    return [(None, b) for b in boxes]


def main() -> int:
    from medfig.text.subcaptions import parse_subcaptions

    figures = []
    for s in pdf_sources():
        key, src, caption = s["figure_key"], s["source"], s["caption"]
        if len(s["image_boxes_px"]) == 1:
            if key in SINGLE_EXCLUDED:
                continue
            # negatives: crop exactly the one embedded image (no surrounding body text)
            b = s["image_boxes_px"][0]
            x0, y0 = src["clip_pt"][0] + b[0] / RENDER_SCALE, src["clip_pt"][1] + b[1] / RENDER_SCALE
            x1, y1 = src["clip_pt"][0] + b[2] / RENDER_SCALE, src["clip_pt"][1] + b[3] / RENDER_SCALE
            src = dict(src, clip_pt=[round(x0 - 2, 2), round(y0 - 2, 2), round(x1 + 2, 2), round(y1 + 2, 2)])
            im = load_image(src)
            figures.append({"figure_key": key, "source": src, "width": im.width, "height": im.height, "caption": caption, "compound": False, "subfigures": []})
            continue
        if key in EXCLUDED:
            continue
        im = load_image(src)
        parsed = parse_subcaptions(caption)
        fixes = SUBCAPTION_FIXES.get(key)
        subs = []
        for label, box in _panels(s["image_boxes_px"], _pdf_labels(src)):
            if fixes is not None:
                frags = fixes.get(label or "", [])
            else:
                sc = parsed.get(label) if label else None
                frags = [caption[a:b] for a, b in sc.spans] if sc else []
            for f in frags:
                assert f in caption, (key, f)
            subs.append({"label": label, "box": [int(v) for v in box], "subcaption": frags})
        figures.append({"figure_key": key, "source": src, "width": im.width, "height": im.height, "caption": caption, "compound": True, "subfigures": subs})
    captions = {json.loads(l)["pdf_hash"] + "_" + json.loads(l)["fig_uri"]: json.loads(l)["s2_caption"] for l in (DATA / "medicat_sample" / "sample.jsonl").read_text().splitlines() if l.strip()}
    for name, panels in MEDICAT_COMPOUND:
        im = load_image({"kind": "medicat", "path": MEDICAT + name})
        cap = captions[name]
        for _, _, frags in panels:
            for f in frags:
                assert f in cap, (name, f)
        figures.append({"figure_key": "medicat/" + name, "source": {"kind": "medicat", "path": MEDICAT + name}, "width": im.width, "height": im.height, "caption": cap, "compound": True,
                        "subfigures": [{"label": l, "box": b, "subcaption": f} for l, b, f in panels]})
    for name in MEDICAT_SINGLE:
        im = load_image({"kind": "medicat", "path": MEDICAT + name})
        figures.append({"figure_key": "medicat/" + name, "source": {"kind": "medicat", "path": MEDICAT + name}, "width": im.width, "height": im.height, "caption": captions[name], "compound": False, "subfigures": []})
    figures.sort(key=lambda f: f["figure_key"])
    for kind in (True, False):
        same = [f for f in figures if f["compound"] is kind]
        for i, f in enumerate(same):
            f["split"] = "tune" if i % 2 == 0 else "test"
    # EXSCLAIM figures were added last; they alternate among themselves so the earlier
    # figures keep their split
    exsclaim = json.loads((DATA / "subfigure_annotations" / "exsclaim_nature_expected" / "nature_closed_expected.json").read_text())
    captions_by_name = {v["figure_name"]: v["full_caption"] for v in exsclaim.values()}
    for n, panels in EXSCLAIM_PANELS.items():
        path = EXSCLAIM.format(n)
        im = load_image({"kind": "exsclaim", "path": path})
        cap = captions_by_name[Path(path).name]
        subs = [{"label": l, "box": b, "subcaption_spans": _spans(cap, frags),
                 "subcaption": [cap[a:e] for a, e in _spans(cap, frags)]} for l, b, frags in panels]
        figures.append({"figure_key": f"exsclaim/{Path(path).name}", "source": {"kind": "exsclaim", "path": path}, "width": im.width, "height": im.height,
                        "caption": cap, "compound": True, "subfigures": subs, "split": "test" if n % 2 else "tune"})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"figures": figures}, indent=1, ensure_ascii=False) + "\n")
    n_c = sum(f["compound"] for f in figures)
    print(f"{OUT}: {n_c} compound figures ({sum(len(f['subfigures']) for f in figures)} panels), {len(figures) - n_c} single-panel")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Compound figures: panels, panel letters, subcaptions and inline references, in one call.

::

    from medfig.compound import split_compound, analyze_compound
    subfigures = split_compound(image, caption, inline_refs)       # [] for a single-panel figure
    result = analyze_compound(image, caption)                       # + compound flag, labels read
    write_crops(image, subfigures, dataset_dir, "images/subfigures/PMC1_fig1")

All boxes are ``[x0, y0, x1, y1]`` in pixels of the given image, origin top-left. The OCR
model loads once per process (medfig.vision.panel_labels); nothing is downloaded.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from medfig.compound.align import heuristic_alignment, label_alignment, sub_panel_subcaptions
from medfig.compound.one_chart import plot_parts_of_one_chart
from medfig.compound.confidence import figure_features, panel_confidence, panel_features, single_confidence
from medfig.compound.partition import anchor_panels_on_letters
from medfig.compound.scaled import ANALYSIS_MIN_SIDE, analysis_factor_of, resized_for_analysis, scale_box
from medfig.compound.pieces import (figure_legend_beside, grow_charts_over_text, merge_unlettered_panels, one_drawing,
                                   unnamed_and_unlike)
from medfig.compound.subcaption_fill import subcaptions_for
from medfig.geometry import PixelBox, area
from medfig.images import check_pixels, flat_rgb, open_image
from medfig.records import InlineRef, Subfigure
from medfig.text.subcaptions import ParsedCaption, parse_subcaptions
from medfig.vision.panel_labels import PanelLabel, find_panel_labels
from medfig.vision.subfigures import PanelLayout, find_panels

ALIGNMENTS = ("label", "heuristic")


@dataclass(slots=True)
class CompoundResult:
    """Everything :func:`analyze_compound` found in one figure."""

    compound: bool
    subfigures: list[Subfigure] = field(default_factory=list)
    layout: PanelLayout | None = None
    ocr_labels: list[PanelLabel] = field(default_factory=list)
    parsed_caption: ParsedCaption | None = None
    # calibrated probabilities (medfig.compound.confidence): of the figure's split (for a
    # compound figure, the mean of its panels'), and of each panel being a true panel
    confidence: float | None = None
    panel_confidences: list[float | None] = field(default_factory=list)

    def to_json(self) -> dict:
        """The ``medfig compound --json`` contract (``score``: the splitter's score, MedICaT's
        > 0.7 cut; ``confidence``: calibrated probability that the panel / split is right)."""
        confidences = self.panel_confidences or [None] * len(self.subfigures)
        return {
            "compound": self.compound,
            "confidence": self.confidence,
            "subfigures": [
                {"label": s.label, "box": list(s.box_px), "score": round(s.score, 4), "confidence": c,
                 "subcaption": s.subcaption}
                for s, c in zip(self.subfigures, confidences)
            ],
        }


# the second reading of a shrunk figure: text at 10 px rather than 13 (pmc_dev_corpus crops at 144
# dpi measure 7-12 px, 10 at the median)
SECOND_READING_TEXT_SCALE = 10 / 13


def _as_image(image: Image.Image | str | Path | bytes) -> Image.Image:
    if isinstance(image, Image.Image):
        return flat_rgb(image)
    if isinstance(image, bytes):  # Pillow's limit is the budget's (set by medfig.images); checked again here
        with Image.open(io.BytesIO(image)) as opened:
            check_pixels("image", opened.width, opened.height)
            return flat_rgb(opened)
    with open_image(image) as opened:
        return flat_rgb(opened)


def _panel_score(box: PixelBox, layout: PanelLayout, labelled: bool) -> float:
    """Confidence of a panel box: big, label-confirmed panels score high."""
    share = area(box) / float(layout.width * layout.height or 1)
    base = 0.75 + 0.15 * min(1.0, share * len(layout.panels))
    return round(min(1.0, base + (0.1 if labelled else 0.0)), 4)


# shares of ink a gap may hold, tried in turn, when the caption names panels the strict XY-cut
# found no gap between (a line or two drawn across a gap: 1-5% of its length)
NAMED_PANELS_GAP_INK = (0.01, 0.02, 0.035, 0.05)


def _letters_in_separate_pieces(read: list[PanelLabel], letters: set[str], pieces: list[PixelBox]) -> int:
    """How many pieces hold a caption letter read in the image (near their top or bottom edge
    or inside them), a different letter in each?"""
    owners: dict[int, str] = {}
    for label in read:
        if label.text.lower() not in letters:
            continue
        cx, cy = (label.box[0] + label.box[2]) / 2, (label.box[1] + label.box[3]) / 2
        for i, p in enumerate(pieces):
            reach = 0.15 * max(p[2] - p[0], p[3] - p[1])
            if p[0] - reach <= cx <= p[2] + reach and p[1] - reach <= cy <= p[3] + reach and i not in owners:
                owners[i] = label.text.lower()
                break
    return len(set(owners.values()))


def _looser_split(img: Image.Image, layout: PanelLayout, letters: set[str], fewest: int,
                  lettered: int | None) -> tuple[PanelLayout, list[PanelLabel]] | None:
    """The figure cut again with looser gaps, and the letters read on it, where the caption names
    more panels than the cut found: the first split into ``fewest`` to as many pieces as the
    caption names whose pieces carry ``lettered`` of its letters one to a piece (None: every
    piece; letters a caption names for points of one drawing do not fall one to a piece), else
    None. Light figures: lines drawn across the gaps (an inset's zoom lines, connectors to charts)
    leave no empty row or column, so gaps may hold a little ink, the least first. Dark figures:
    every black gap, also between pictures with black margins of their own, which the dark cut's
    checks refuse."""
    named = len([l for l in letters if l.isalpha()])
    tries = ([{"gap_ink_fraction": g} for g in NAMED_PANELS_GAP_INK] if layout.background_light
             else [{"check_dark_cuts": False}])
    for loose in tries:
        relaxed = find_panels(img, **loose)
        if fewest <= len(relaxed.panels) <= named:
            read = find_panel_labels(img, relaxed, letters)
            needed = len(relaxed.panels) if lettered is None else lettered
            if _letters_in_separate_pieces(read, letters, relaxed.panels) >= needed:
                return relaxed, read
            return None
    return None


def analyze_compound(
    image: Image.Image | str | Path | bytes,
    caption: str = "",
    inline_refs: list[InlineRef] | None = None,
    *,
    figure_id: str = "",
    alignment: str = "label",
    boxes: list[list[int]] | None = None,
) -> CompoundResult:
    """Panels, labels, subcaptions and citing sentences of one figure.

    ``alignment``: ``"label"`` (OCR letters, reading-order fallback) or ``"heuristic"``
    (MedICaT's row heuristic). ``boxes``: use these panel boxes (e.g. gold ones) instead
    of detecting them.
    """
    if alignment not in ALIGNMENTS:
        raise ValueError(f"alignment must be one of {ALIGNMENTS}, not {alignment!r}")
    img = _as_image(image)
    factor = analysis_factor_of(img)
    # the splitter reads every figure at one size: gaps, letters and rules keep the proportions they
    # were measured at whether the image is a 150-dpi crop or a 3,000-pixel original file
    best, best_read = None, 0
    for f in _reading_factors(img, factor, boxes):
        small = img if f == 1.0 else resized_for_analysis(img, f)
        small_boxes = None if boxes is None else [scale_box(b, small.size, img.size) for b in boxes]
        result = _analyze(small, caption, inline_refs, figure_id=figure_id, alignment=alignment, boxes=small_boxes)
        read = _evidence(result)
        # another reading wins with more letters read, and at least two (one letter read is no
        # evidence of a split: a chemistry scheme's "a")
        if best is None or read > max(best_read, 1):
            best, best_read = result_on_image(result, small.size, img.size), read
        named = {l for l in (result.parsed_caption.labels if result.parsed_caption else []) if len(l) == 1}
        read_letters = {s.label for s in best.subfigures if s.label_source == "ocr"}
        if not named or named <= read_letters:
            # no letter to read (no reading can show more evidence), or every letter the caption
            # names was read on a panel: no reading can beat it (counted by letter: "Ai" and "Aii"
            # read, "B" not, is two panels read but one letter missing)
            break
    return best


def _reading_factors(img: Image.Image, factor: float, boxes) -> list[float]:
    """The scales a figure is read at: its text at ANALYSIS_TEXT_PX (or as it is, if already that
    size or smaller), also at the typical text size of the crops the splitter was built on
    (SECOND_READING_TEXT_SCALE of it) and as much larger (at most the file's own size): an original
    file's print size is a guess from its text, and a panel's thin white rules or small letters
    may show at one of the scales only. That holds for a figure already at its reading size too
    (a chart's "a" set against its plot frame at 144 dpi is read at 0.77x only), so it gets the
    second reading as well; later readings run only while caption letters are unread."""
    if boxes is not None:
        return [factor]
    second = factor * SECOND_READING_TEXT_SCALE
    if max(img.width, img.height) * second < ANALYSIS_MIN_SIDE:
        return [factor]
    larger = min(1.0, factor / SECOND_READING_TEXT_SCALE)
    return [factor, second] + ([larger] if larger > factor else [])


def _evidence(result: CompoundResult) -> int:
    """How well a reading is supported: panels whose letter was read in the image and named by
    the caption. Another reading replaces the first only with more of them (a split and a
    single figure have no confidence in common to compare)."""
    named = set(result.parsed_caption.labels) if result.parsed_caption else set()
    return sum(1 for s in result.subfigures if s.label_source == "ocr" and s.label in named)


def _analyze(img: Image.Image, caption: str, inline_refs: list[InlineRef] | None, *, figure_id: str,
             alignment: str, boxes: list[list[int]] | None) -> CompoundResult:
    layout = find_panels(img)
    if boxes is not None:
        layout.panels = [tuple(int(v) for v in b) for b in boxes]  # type: ignore[misc]
    parsed = parse_subcaptions(caption or "")
    compound = layout.compound
    panels = list(layout.panels)
    ocr: list[PanelLabel] = []
    letters = {l for l in parsed.labels if len(l) == 1}
    named = len([l for l in letters if l.isalpha()])
    if alignment == "label" and compound:
        ocr = find_panel_labels(img, layout, letters)
        if boxes is None and len(panels) < named:
            # fewer pieces than the caption names: looser gaps may part the rest, if each piece
            # they give carries a letter of its own
            looser = _looser_split(img, layout, letters, len(panels) + 1, lettered=None)
            if looser is not None:
                layout, ocr = looser
                panels = list(layout.panels)
    elif alignment == "label" and boxes is None and named >= 2:
        # One piece, but the caption names two or more panels: radiology on black with black
        # gaps the XY-cut may not cut. If the letters are read where panels start, cut there.
        ocr = find_panel_labels(img, layout, letters)
        anchored = anchor_panels_on_letters(panels, layout.text_blocks, ocr, parsed)
        if anchored is not None and len(anchored) >= 2:
            panels, compound = anchored, True
            layout.panels = list(anchored)
        else:
            looser = _looser_split(img, layout, letters, 2, lettered=2)
            if looser is not None:
                layout, ocr = looser
                panels, compound = list(layout.panels), True
    n_letters = len([l for l in parsed.labels if len(l) == 1])
    n_pieces = len(layout.panels)
    if compound and boxes is None and named < 2 and plot_parts_of_one_chart(img, panels, layout.text_blocks, ocr):
        compound = False  # the bars or facets of one chart (one axis's tick labels for all of them)
    legend = figure_legend_beside(panels, img) if compound and boxes is None else None
    if legend is not None:
        panels = [p for p in panels if p != legend]
        layout.panels = [p for p in layout.panels if p != legend]
    if compound and boxes is None and (unnamed_and_unlike(panels, sorted(letters), ocr, layout.text_blocks, max(layout.width, layout.height)) or one_drawing(img, panels, layout.text_blocks, sorted(letters), ocr)):
        compound = False  # no panel names, no image letters, unlike pieces or pieces joined by drawn lines: one panel
    if not compound:
        return _single(layout, ocr, parsed, n_letters, n_pieces)
    if alignment == "label":
        if boxes is None:
            # top-left letters (eLife / Nature charts): one panel per letter, taking in the
            # axes, legends and tick labels the XY-cut left as separate pieces
            anchored = anchor_panels_on_letters(panels, layout.text_blocks, ocr, parsed)
            # otherwise chart plot areas take in their tick labels, axis titles and title
            panels = anchored if anchored is not None else grow_charts_over_text(
                merge_unlettered_panels(panels, ocr, parsed), layout.text_blocks, max(layout.width, layout.height))
            # the shared legend again, now that the charts are whole (their tick labels had been
            # pieces of their own, too small to be alike)
            legend = figure_legend_beside(panels, img) if anchored is None else None
            panels = [p for p in panels if p != legend]
            compound = len(panels) >= 2
            if not compound:
                return _single(layout, ocr, parsed, n_letters, n_pieces)
        labels, read = label_alignment(panels, ocr, parsed)
        # no panel of a figure whose caption describes its panels stays without a subcaption
        labels, subs = subcaptions_for(panels, labels, parsed)
        subs = sub_panel_subcaptions(read, parsed, subs)  # "(Aii)" text to the "Aii" panel only
    else:
        labels, read = heuristic_alignment(panels, parsed), {}
        subs = [parsed.get(label) if label else None for label in labels]
    subfigures = []
    for i, box in enumerate(panels):
        label = labels[i]
        sub = subs[i]
        read_label = read.get(i)
        subfigures.append(
            Subfigure(
                figure_id=figure_id,
                box_px=[int(v) for v in box],
                score=_panel_score(box, layout, read_label is not None),
                label=label,
                label_source="ocr" if read_label is not None else ("order" if label else "none"),
                label_box_px=list(read_label.box) if read_label is not None else None,
                subcaption=sub.text if sub else "",
                subcaption_spans=list(sub.spans) if sub else [],
            )
        )
    link_inline_refs(subfigures, inline_refs or [])
    confidences = [
        panel_confidence(panel_features(s.box_px, s.score, s.label_source == "ocr", len(subfigures), n_letters,
                                        layout.width, layout.height))
        for s in subfigures
    ]
    for sub, confidence in zip(subfigures, confidences):
        sub.confidence = confidence
    known = [c for c in confidences if c is not None]
    figure = round(sum(known) / len(known), 4) if known else None
    return CompoundResult(True, subfigures, layout, ocr, parsed, figure, confidences)


def result_on_image(result: CompoundResult, small_size: tuple[int, int], size: tuple[int, int]) -> CompoundResult:
    """``result`` found on an image of ``small_size``, its boxes moved to the image of ``size``."""
    def back(box):
        return tuple(scale_box(box, size, small_size))

    for sub in result.subfigures:
        sub.box_px = list(back(sub.box_px))
        if sub.label_box_px:
            sub.label_box_px = list(back(sub.label_box_px))
    for label in result.ocr_labels:
        label.box = back(label.box)
    if result.layout is not None:
        result.layout.width, result.layout.height = size
        result.layout.panels = [back(b) for b in result.layout.panels]
        result.layout.text_blocks = [back(b) for b in result.layout.text_blocks]
        if result.layout.text_px is not None:
            result.layout.text_px *= size[1] / small_size[1]
    return result


def _single(layout: PanelLayout, ocr: list[PanelLabel], parsed: ParsedCaption, n_letters: int, n_pieces: int) -> CompoundResult:
    return CompoundResult(False, [], layout, ocr, parsed, single_confidence(figure_features(n_letters, n_pieces)))


def warm_up() -> None:
    """Pay the one-off costs of a process before timing or serving figures: the OCR model
    (~0.5 s) and scipy.optimize, which the label assignment imports on first use (~0.3-0.7 s;
    imported lazily so that ``medfig build --no-subfigures`` never loads it)."""
    import scipy.optimize  # noqa: F401

    from medfig.vision.letter_recogniser import ocr_engine

    ocr_engine()


def link_inline_refs(subfigures: list[Subfigure], inline_refs: list[InlineRef]) -> None:
    """Attach each sentence that names panels ("Figure 1d", "Fig. 2A–C") to those panels."""
    for ref in inline_refs:
        wanted = {p.lower() for p in ref.panels}
        for sub in subfigures:
            if sub.label and sub.label in wanted:
                sub.inline_refs.append(ref)


def split_compound(
    image: Image.Image | str | Path | bytes,
    caption: str = "",
    inline_refs: list[InlineRef] | None = None,
    *,
    figure_id: str = "",
) -> list[Subfigure]:
    """Subfigures of a compound figure, [] when the figure is a single panel."""
    return analyze_compound(image, caption, inline_refs, figure_id=figure_id).subfigures


def write_crops(
    image: Image.Image | str | Path | bytes, subfigures: list[Subfigure], dataset_dir: str | Path, stem: str
) -> None:
    """Write one PNG per subfigure (atomically) at ``<dataset_dir>/<stem>_<i>.png`` and set
    ``crop_file`` to that path relative to ``dataset_dir``."""
    from medfig.io import atomic_write_bytes

    img = _as_image(image)
    root = Path(dataset_dir)
    for i, sub in enumerate(subfigures):
        x0, y0, x1, y1 = sub.box_px
        buf = io.BytesIO()
        img.crop((x0, y0, x1, y1)).save(buf, format="PNG", compress_level=1)  # as the figure crops: a quarter of the CPU
        rel = f"{stem}_{i}{'_' + sub.label if sub.label and sub.label.isalnum() else ''}.png"
        atomic_write_bytes(root / rel, buf.getvalue(), only_if_changed=True)
        sub.crop_file = rel

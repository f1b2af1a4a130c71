"""Caption text on every figure and table of every development article with JATS XML + PDF (issue 15).

The figure benchmark grades caption text only on figures of its gold pages. This one grades every
figure and table the article's XML lists: ``medfig.pdf.extract_pdf`` reads the PDF (the XML is not
given to it), each extracted caption (paired with a region or not) is matched to the XML caption of
the same type and number, and its text is scored with the figure benchmark's word overlap (Dice
overlap of the word multisets, label included; ``figure_extraction.word_overlap``) against
"label caption" of the XML. A caption is right at overlap >= 0.8, the issue's bar.

Articles: ``pmc_dev_corpus`` (development publishers only: ``heldout_publishers.json`` sets the
others aside and they are never read here), ``pmc_hindawi_xml_pdf``, ``elife_xml_pdf_pairs``,
``jats_pdf_figure_packages`` (those with a PDF).

Each wrong caption gets one failure class, from the words of the two texts:

- missing     no caption with that label was extracted
- wrong       under half of either text's words are in the other (another caption or body text)
- ligature    adjacent extracted words join into an XML word, no hyphen between them ("con fi rmed")
- hyphen      a line-end hyphen kept ("intra- thoracic") or dropped from a hyphenated XML word
- cut short   the extracted words are (nearly) all the XML's, but too few of the XML's are there
- ran on      the XML's words are (nearly) all there, with extra text (DOI line, body text, next caption)
- other       anything else (e.g. both cut and ran on, symbols the XML writes differently)

"split word" and "hyphen kept" count the captions found (right or wrong) with at least one word broken
at a ligature or at a kept line-end hyphen, so those classes show even where the caption passes the bar.

    python benchmarks/caption_text.py              # the per-publisher table and the failure classes
    python benchmarks/caption_text.py --failures   # also each failure: label, class, overlap, word diff
    python benchmarks/caption_text.py --cheap      # extract_pdf(use_layout=False): same captions, no detector

Extractions are kept under ``--cache`` (default ``$TMPDIR/medfig-caption-text``), keyed by a hash of
``src/medfig/pdf/*.py`` and the mode, so a code change re-extracts and an unchanged re-run is instant.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import re
import sys
import tempfile
import time
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from figure_extraction import CAPTION_WORD_OVERLAP, word_overlap
from harness import HERE, REPO, add_data_argument, articles, format_table

from medfig.evaluate.figure_files import figure_number
from medfig.io import atomic_write_bytes
from medfig.pdf.labels import parse_label

CORPORA = ("pmc_dev_corpus", "pmc_hindawi_xml_pdf", "elife_xml_pdf_pairs", "jats_pdf_figure_packages")
HELDOUT = json.loads((HERE / "heldout_publishers.json").read_text())
# articles whose XML is not the PDF's text: graded captions there measure the data, not medfig
XML_NOT_THE_PDF = {"elife-00777-vor-r1": "elife-spectrum's test fixture: its XML captions are placeholders "
                                         "(\"This figure should be typeset at the width of one text column\")"}
CLASSES = ("missing", "wrong", "ligature", "hyphen", "cut short", "ran on", "other")
_WORD = re.compile(r"\w+")


@dataclass
class Graded:
    article: str
    publisher: str
    name: str  # "Figure 3", "Table 1"
    xml: str
    pred: str | None
    overlap: float
    failure: str | None  # one of CLASSES, None when right


def _words(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text or "").casefold())


def _split_words(pred: str, xml_words: set[str], pred_words: set[str]) -> tuple[bool, bool]:
    """(split without a hyphen, split at a kept hyphen): adjacent extracted tokens that join into an XML
    word the extraction lacks. The hyphen case is the printed "intra- thoracic"."""
    tokens = [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(unicodedata.normalize("NFKC", pred).casefold())]
    plain = hyphen = False
    text = unicodedata.normalize("NFKC", pred).casefold()
    for n in (2, 3):
        for i in range(len(tokens) - n + 1):
            joined = "".join(t[0] for t in tokens[i:i + n])
            if joined in xml_words and joined not in pred_words:
                between = text[tokens[i][2]:tokens[i + n - 1][1]]
                if "-" in between or "‐" in between:
                    hyphen = True
                else:
                    plain = True
    return plain, hyphen


def _joined_words(pred_words: set[str], xml: str) -> bool:
    """An extracted word that is two XML words joined across a hyphen ("dose-response" printed over a line end
    and read as "doseresponse")."""
    text = unicodedata.normalize("NFKC", xml).casefold()
    return any(f"{a}{b}" in pred_words for a, b in re.findall(r"(\w+)[-‐](\w+)", text))


def classify(pred: str | None, xml: str) -> str:
    """The failure class of a caption whose overlap is under the bar (see the module docstring)."""
    if pred is None:
        return "missing"
    p, x = Counter(_words(pred)), Counter(_words(xml))
    common = sum((p & x).values())
    precision = common / max(1, sum(p.values()))  # share of the extracted words that are the XML's
    recall = common / max(1, sum(x.values()))  # share of the XML's words that were extracted
    if precision < 0.5 and recall < 0.5:
        return "wrong"
    plain, hyphen = _split_words(pred, set(x), set(p))
    if plain:
        return "ligature"
    if hyphen or _joined_words(set(p), xml):
        return "hyphen"
    if precision >= 0.9 and recall < 0.9:
        return "cut short"
    if recall >= 0.9 and precision < 0.9:
        return "ran on"
    return "other"


def diff(pred: str | None, xml: str) -> str:
    """The words only one side has: -xml +extracted."""
    p, x = Counter(_words(pred)), Counter(_words(xml))
    lost, extra = x - p, p - x
    return f"-[{' '.join(sorted(lost.elements()))[:400]}] +[{' '.join(sorted(extra.elements()))[:400]}]"


def xml_captions(package) -> dict[str, tuple[str, str]]:
    """Canonical name ("Figure 3", "Table 1") -> (label, "label caption") of every labelled figure and table
    of the XML."""
    from medfig.jats.parse import parse_jats

    art = parse_jats(package.read_bytes(package.xml_name), key=package.source.key, xml_file=package.xml_name)
    out = {}
    for fig_type, items in (("Figure", art.figures), ("Table", art.tables)):
        for f in items:
            if not f.label:
                continue
            out.setdefault(xml_name(f.label, fig_type), (f.label, f"{f.label} {f.caption}"))
    return out


def xml_name(label: str, fig_type: str) -> str:
    """The name medfig gives the printed label: "Figura 2" -> "Figure 2", "Figure 2—figure supplement 1" as is,
    a label with no number ("Figura", "FIGURE.") -> "Figure"."""
    parsed = parse_label(label) or parse_label(label.rstrip(".:") + ".")
    if parsed is not None:
        return parsed.name
    number = figure_number(label)
    return f"{fig_type} {number}" if number and any(c.isdigit() for c in number) else fig_type


def printed_labels(pdf: bytes) -> list[str]:
    """Every text line of the PDF with its white space removed, casefolded (PDFium's text, not medfig's
    reading), to tell which XML labels the PDF prints at a line start."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        lines = []
        for page in doc:
            text = page.get_textpage().get_text_range()
            lines += ["".join(ln.split()).casefold() for ln in text.splitlines()]
        return lines
    finally:
        doc.close()


def is_printed(label: str, lines: list[str]) -> bool:
    """True when a line of the PDF starts with the XML label, not followed by another digit ("Figure 12" does not
    print "Figure 1") nor by what only follows a mention ("Figure 3), ...", "Figure 3–5"). eLife's PDFs list figure supplements by title only ("Figure supplement 1.")
    and print no legend for them: those XML captions are not the PDF's to find."""
    key = "".join(label.split()).casefold().rstrip(".:")
    return any(ln.startswith(key) and not ln[len(key):len(key) + 1].isdigit() and ln[len(key):len(key) + 1] not in set("),;]–-")
               for ln in lines)


def code_key(cheap: bool) -> str:
    h = hashlib.sha256(b"cheap" if cheap else b"layout")
    for path in sorted((REPO / "src" / "medfig" / "pdf").glob("*.py")):
        h.update(path.name.encode() + path.read_bytes())
    return h.hexdigest()[:16]


def extracted_captions(pdf: bytes, name: str, cheap: bool) -> dict[str, str]:
    """Name -> caption text of every figure and table ``extract_pdf`` reports (with a region or without)."""
    from medfig.pdf.extract import extract_pdf

    result = extract_pdf(pdf, name=name, use_layout=not cheap)
    out: dict[str, str] = {}
    for f in [*result.figures, *result.regionless]:
        out.setdefault(f.name, f.caption or "")
    return out


def grade_article(article, cheap: bool, cache: Path) -> tuple[list[Graded], int, float]:
    """Every printed XML figure/table of one article graded; the XML captions the PDF does not print; seconds
    spent extracting (0 when cached)."""
    path = cache / (re.sub(r"[^\w.-]", "_", article.key) + ".pickle")
    with article.source.open() as package:
        if not package.xml_name or not package.pdf_name:
            return [], 0, 0.0
        xml = xml_captions(package)
        pdf = package.read_bytes(package.pdf_name)
        seconds = 0.0
        if path.exists():
            pred = pickle.loads(path.read_bytes())
        else:
            t = time.process_time()
            pred = extracted_captions(pdf, package.pdf_name, cheap)
            seconds = time.process_time() - t
            atomic_write_bytes(path, pickle.dumps(pred))
    lines = printed_labels(pdf)
    graded, not_printed = [], 0
    for name, (label, text) in xml.items():
        got = pred.get(name)
        if got is None and not is_printed(label, lines):
            not_printed += 1
            continue
        overlap = word_overlap(got or "", text)
        failure = None if overlap >= CAPTION_WORD_OVERLAP else classify(got, text)
        graded.append(Graded(article.key, article.publisher, name, text, got, overlap, failure))
    return graded, not_printed, seconds


def publisher_name(article) -> str:
    if article.corpus == "pmc_dev_corpus":  # folders are named <publisher>_<id>
        parts = Path(article.source.container).parts
        return parts[parts.index(article.corpus) + 1].split("_")[0]
    return {"pmc_hindawi_xml_pdf": "hindawi-old", "elife_xml_pdf_pairs": "elife",
            "jats_pdf_figure_packages": "packages"}[article.corpus]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_data_argument(ap)
    ap.add_argument("--cheap", action="store_true", help="extract_pdf(use_layout=False): no page renders, no detector")
    ap.add_argument("--failures", action="store_true", help="print every failure with its word diff")
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "medfig-caption-text")
    ap.add_argument("--only", default="", help="comma-separated publisher names (as in the table) to run")
    a = ap.parse_args()
    cache = a.cache / code_key(a.cheap)
    cache.mkdir(parents=True, exist_ok=True)
    chosen = []
    for art in articles(CORPORA, a.data):
        publisher = publisher_name(art)
        if publisher in HELDOUT["heldout"]:
            continue  # set aside for the lead's one final score: never read here
        if Path(art.source.container).name in XML_NOT_THE_PDF:
            continue
        if a.only and publisher not in a.only.split(","):
            continue
        chosen.append((publisher, art))
    graded: list[Graded] = []
    errors: list[str] = []
    cpu, not_printed = 0.0, 0
    t0 = time.perf_counter()
    for publisher, art in tqdm(chosen, desc="articles", file=sys.stderr):
        try:
            rows, skipped, seconds = grade_article(art, a.cheap, cache)
        except Exception as e:  # one unreadable article is counted, the run goes on
            errors.append(f"{art.key}: {type(e).__name__}: {e}")
            continue
        cpu += seconds
        not_printed += skipped
        for r in rows:
            r.publisher = publisher
        graded.extend(rows)
    by_pub: dict[str, list[Graded]] = defaultdict(list)
    for g in graded:
        by_pub[g.publisher].append(g)
    header = ["publisher", "articles", "XML captions", "found", f"overlap>={CAPTION_WORD_OVERLAP}", "share", *CLASSES,
              "split word", "hyphen kept"]
    rows = []
    for pub, items in [*sorted(by_pub.items()), ("ALL", graded)]:
        failures = Counter(g.failure for g in items if g.failure)
        ok = sum(g.failure is None for g in items)
        # words broken in any caption found, also in those over the bar: "signifi cant", "intra- thoracic"
        splits = [_split_words(g.pred, set(_words(g.xml)), set(_words(g.pred))) for g in items if g.pred]
        rows.append([pub, len({g.article for g in items}), len(items), sum(g.pred is not None for g in items), ok,
                     f"{ok / len(items):.3f}" if items else "-", *(failures.get(c, 0) for c in CLASSES),
                     sum(plain for plain, _ in splits), sum(hyphen for _, hyphen in splits)])
    figs = [g for g in graded if g.name.startswith("Figure")]
    fig_ok = sum(g.failure is None for g in figs)
    print(f"\nCaption text vs the XML caption, {'cheap mode (no detector)' if a.cheap else 'extract_pdf defaults'}; "
          f"every XML figure and table of {len({g.article for g in graded})} articles (held-out publishers left out)")
    print(format_table(header, rows))
    print(f"\nfigures only: {fig_ok}/{len(figs)} = {fig_ok / max(1, len(figs)):.3f}; "
          f"extraction CPU {cpu:.1f} s ({'cached' if cpu == 0 else 'fresh'}), wall {time.perf_counter() - t0:.1f} s; "
          f"errors: {len(errors)}; XML captions the PDF does not print (left out): {not_printed}; "
          f"articles left out as their XML is not the PDF's: {', '.join(XML_NOT_THE_PDF)}")
    for e in errors:
        print("  error:", e)
    if a.failures:
        print("\nFailures (class, overlap, -words only in the XML  +words only extracted):")
        for g in graded:
            if g.failure:
                print(f"{g.article} {g.name} [{g.failure}] {g.overlap:.2f} {diff(g.pred, g.xml)}")


if __name__ == "__main__":
    main()

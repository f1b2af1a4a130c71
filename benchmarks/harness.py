"""What every benchmark shares: where the data is, which articles (and publishers) it holds,
tables (per publisher, with an ALL row), and peer methods run over the same items.

    from harness import DATA, GOLD, add_data_argument, articles, publisher_table, run_peers

Data: ``--data DIR`` (``add_data_argument``), else ``$MEDFIG_DATA``, else ``../shared/data``
beside the repository. Publishers: a corpus folder's ``SOURCES.md`` table when it has a
``publisher`` column (``pmc_dev_corpus``), else the JATS ``<journal-meta>`` ``<publisher-name>``.
Benchmarks import this module by name: ``python benchmarks/x.py`` puts benchmarks/ on the path.
"""

from __future__ import annotations

import io
import os
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Sequence

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
GOLD = HERE / "gold"  # pdf_figures/ and subfigures/: the hand-checked gold sets
PDF_GOLD = GOLD / "pdf_figures" / "gold.json"  # figure/table boxes on 93 eye-checked PDF pages
SUBFIGURE_GOLD = GOLD / "subfigures"  # real_gold.json, fresh_gold.json, heldout2_gold.json
HAND_LABELS = HERE / "data"  # small hand-labelled samples (TSV)
DATA_ENV = "MEDFIG_DATA"
# the shared corpus of the build benchmarks (xml_fidelity, throughput, search): every JATS article
# folder of ../shared/data except the development corpus
SHARED_CORPUS = ("pmc_hindawi_xml_pdf", "elife_xml_pdf_pairs", "jats_pdf_figure_packages", "jats_xml_only")
DEV_CORPUS = "pmc_dev_corpus"
# JATS publisher names -> the short names the dev corpus table uses
PUBLISHER_ALIASES = {"Hindawi Publishing Corporation": "Hindawi", "eLife Sciences Publications, Ltd": "eLife",
                     "Public Library of Science": "PLOS", "BioMed Central": "BioMed Central / SpringerOpen (Springer Nature)"}


def data_dir(given: str | os.PathLike | None = None) -> Path:
    """The shared data folder: ``given`` (a --data option), else $MEDFIG_DATA, else ../shared/data."""
    if given:
        return Path(given)
    if os.environ.get(DATA_ENV):
        return Path(os.environ[DATA_ENV])
    return REPO.parent / "shared" / "data"


DATA = data_dir()


def add_data_argument(parser) -> None:
    """``--data DIR`` on an argparse parser, defaulting to ``DATA``."""
    parser.add_argument("--data", type=Path, default=DATA,
                        help=f"the shared data folder (default: ${DATA_ENV} or ../shared/data; now {DATA})")


# ---------------------------------------------------------------- articles and publishers

@dataclass(frozen=True)
class Article:
    key: str  # the source key medfig uses (article_key in a built dataset)
    corpus: str  # the data folder it sits in, e.g. pmc_hindawi_xml_pdf
    publisher: str
    source: object  # medfig.sources.ArticleSource


def articles(corpora: Iterable[str] = SHARED_CORPUS, data: Path | None = None) -> list[Article]:
    """Every article of the given corpus folders, in medfig's source order, with its publisher."""
    from medfig.sources import iter_sources

    data = data or DATA
    out = []
    for corpus in corpora:
        table = _publisher_column(data / corpus)
        for source in iter_sources(data / corpus):
            folder = Path(source.container).relative_to(data / corpus).parts[0]
            publisher = table.get(folder) or _publisher_of_source(source)
            out.append(Article(source.key, corpus, publisher, source))
    return out


def publisher_from_xml(xml: bytes) -> str:
    """``<journal-meta><publisher><publisher-name>`` (references also name publishers: not those)."""
    from lxml import etree

    root = etree.fromstring(xml, etree.XMLParser(resolve_entities=False, no_network=True, recover=True))
    local = "*[local-name()='{}']"  # efetch/OAI-PMH XML carries JATS in a namespace
    path = "//" + "/".join(local.format(t) for t in ("journal-meta", "publisher", "publisher-name"))
    found = root.xpath(path) if root is not None else []
    name = " ".join("".join(found[0].itertext()).split()) if found else ""
    return PUBLISHER_ALIASES.get(name, name) or "unknown"


@lru_cache(maxsize=None)
def publisher_of_folder(folder: Path) -> str:
    """Publisher of the article whose files sit in ``folder`` (e.g. the folder of a gold PDF)."""
    folder = Path(folder)
    for corpus in folder.parents:
        if (table := _publisher_column(corpus)) and folder.relative_to(corpus).parts[0] in table:
            return table[folder.relative_to(corpus).parts[0]]
    for xml in sorted(folder.glob("*.xml")) + sorted(folder.glob("*.nxml")):
        if (name := publisher_from_xml(xml.read_bytes())) != "unknown":
            return name
    return "unknown"


def _publisher_of_source(source) -> str:
    try:
        with source.open() as package:
            return publisher_from_xml(package.read_bytes(package.xml_name)) if package.xml_name else "unknown"
    except Exception:  # an article that cannot be read is counted by the benchmark, not here
        return "unknown"


@lru_cache(maxsize=None)
def _publisher_column(corpus: Path) -> dict[str, str]:
    """folder -> publisher from a ``| folder | publisher | ...`` table in the corpus's SOURCES.md."""
    sources = Path(corpus) / "SOURCES.md"
    if not sources.is_file():
        return {}
    out, columns = {}, None
    for line in sources.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else None
        if not cells or set("".join(cells)) <= set("-: "):
            continue
        if columns is None:
            columns = cells
        elif "folder" in columns and "publisher" in columns and len(cells) == len(columns):
            out[cells[columns.index("folder")]] = cells[columns.index("publisher")]
    return out


# ---------------------------------------------------------------- tables

def format_table(header: Sequence[str], rows: Iterable[Sequence], markdown: bool = False, align: str = "") -> str:
    """Rows of cells (formatted by the caller) as plain aligned text, or as a Markdown table.
    ``align``: one of l/r per column (default: first column left, the others right in plain text;
    Markdown's separator row shows ``---:`` only where ``align`` says r)."""
    rows = [[str(c) for c in r] for r in rows]
    if markdown:
        marks = [("---:" if a == "r" else "---") for a in align.ljust(len(header), "l")]
        lines = [f"| {' | '.join(header)} |", f"|{'|'.join(marks)}|"]
        return "\n".join(lines + [f"| {' | '.join(r)} |" for r in rows])
    align = align or "l" + "r" * (len(header) - 1)
    widths = [max([len(str(h))] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]
    fit = lambda cells: "  ".join(c.ljust(w) if a == "l" else c.rjust(w)  # noqa: E731
                                  for c, w, a in zip(cells, widths, align)).rstrip()
    return "\n".join([fit(header), "  ".join("-" * w for w in widths)] + [fit(r) for r in rows])


def publisher_table(items: Sequence, publisher_of: Callable[[object], str],
                    scorers: dict[str, Callable[[list], dict[str, str]]], first: str = "publisher",
                    total: str = "ALL") -> str:
    """One row per publisher (and ``total`` over all items), one column group per scorer.

    ``scorers``: name -> function(items of one row) -> {metric: formatted cell}. A scorer is a
    peer method or one metric set; its name heads its columns ("" for none)."""
    groups: dict[str, list] = defaultdict(list)
    for item in items:
        groups[publisher_of(item)].append(item)
    ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])) + [(total, list(items))]
    header, rows = [first, "n"], []
    for label, group in ordered:
        cells = {name: scorer(group) for name, scorer in scorers.items()}
        rows.append([label, str(len(group))] + [c for metrics in cells.values() for c in metrics.values()])
    header += [f"{name} {m}".strip() for name, metrics in cells.items() for m in metrics]
    return format_table(header, rows)


# ---------------------------------------------------------------- peers

@dataclass
class PeerRun:
    outputs: dict  # item -> what the method returned
    seconds: dict  # item -> wall seconds of that call


def run_peers(peers: dict[str, Callable], items: Sequence, progress: bool = True) -> dict[str, PeerRun]:
    """Each named method over the same (hashable) items, one method after another, each call timed."""
    from tqdm import tqdm

    runs = {}
    for name, method in peers.items():
        run = runs[name] = PeerRun({}, {})
        for item in tqdm(items, desc=name, leave=False, disable=not progress):
            t = time.perf_counter()
            run.outputs[item] = method(item)
            run.seconds[item] = time.perf_counter() - t
    return runs


def ms_summary(seconds: Iterable[float]) -> dict[str, float]:
    """mean / median / p95 / max of per-item times, in ms (p95: the sorted value at int(0.95 (n - 1)))."""
    ms = sorted(1000 * s for s in seconds)
    return {"mean": statistics.mean(ms), "median": statistics.median(ms), "p95": ms[int(0.95 * (len(ms) - 1))],
            "max": ms[-1]}


def as_jpeg(image, quality: int):
    """``image`` as it reads back from a JPEG file of this quality (PMC ships most figures as
    JPEG), in RGB."""
    from PIL import Image

    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "JPEG", quality=quality)
    return Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")

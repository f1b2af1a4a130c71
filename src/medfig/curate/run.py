"""``curate(dataset, release)``: a built dataset folder in, a release folder out.

Release folder::

    figures.parquet   kept figures: every build column + caption_clean, licence_effective,
                      attribution, medical_keywords, dup_cluster, modality, concepts, split ...
    articles.parquet  the articles that still have a figure
    exclusions.parquet the ledger: the build's exclusions plus one row per figure a curate step
                      dropped (phase curate, step, reason, detail) and one per panel
                      --min-panel-confidence dropped (step panel_confidence); see medfig.ledger
    subfigures.parquet the kept figures' kept panels, confidence filled (what the exports read);
                      written when the dataset has a subfigures table
    images/           the kept figures' images (hard links when possible, else copies)
    summary.json      counts per step: seen, dropped by reason, skipped by reason
"""

from __future__ import annotations

import os
import shutil
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa

from medfig.pipeline.steps import Record, Step, StepStats, run_steps
from medfig import schema
from medfig.dataset import DatasetFolder
from medfig.ledger import curate_exclusions
from medfig.records import MedfigError

ARTICLE_FIELDS = ("title", "journal", "year", "authors", "article_type")


@dataclass
class CurateOptions:
    licence: str = "rocov2"
    min_words: int = 3
    language_threshold: float = 0.45
    language: bool = True
    language_english_guard: int = 0
    medical_filter: bool = True
    keywords_file: str | None = None
    medical_second_chance: bool = True  # keyword misses with an image: the shipped medical-image classifier
    require_images: bool = True
    duplicates: bool = True
    image_filter: str | None = None  # trained head from `medfig train image-filter`
    phash_threshold: int = 6
    dhash_threshold: int = 12
    vocabulary: str | None = None
    lexicon: str | None = None  # None: medfig's default lexicon (concepts/data), unless default_lexicon=False
    default_lexicon: bool = True
    min_concept_frequency: int = 10
    splits: tuple[float, float, float] = (0.8, 0.1, 0.1)
    seed: int = 0
    min_split_figures: int = 10  # a valid/test split smaller than this is a warning (0: only empty ones)
    workers: int = 1  # processes (local) or tasks in flight (ray) for the record steps and image hashing
    executor: str = "local"  # local | ray: where record steps run (per shard) and images are hashed
    ray_address: str | None = None
    min_panel_confidence: float | None = None  # medfig.curate.panel_confidence: drop panels below it (figures stay)
    keep_confident_panels: bool = False  # with min_panel_confidence: keep a partial split's confident panels
    min_figure_split_confidence: float | None = None  # drop whole figures whose split confidence is below it


@dataclass
class CurateReport:
    release: Path
    n_in: int
    n_kept: int
    stats: list[StepStats]
    seconds: float
    extra: dict = field(default_factory=dict)
    warnings: list[dict] = field(default_factory=list)  # medfig.curate.warnings: also in summary.json

    def summary(self) -> str:
        lines = [f"release            : {self.release}",
                 f"figures            : {self.n_in} in, {self.n_kept} kept, {self.n_in - self.n_kept} dropped"]
        for st in self.stats:
            d = st.as_dict()
            reasons = ", ".join(f"{k} {v}" for k, v in d["dropped_by_reason"].items()) or "-"
            skips = ", ".join(f"{k} {v}" for k, v in d["skipped_by_reason"].items())
            lines.append(f"  {st.name:<17}: {d['seen']} seen, {d['dropped']} dropped ({reasons})"
                         + (f"; skipped {skips}" if skips else ""))
        for k, v in self.extra.items():
            lines.append(f"{k:<19}: {v}")
        for w in self.warnings:
            lines.append(f"WARNING            : {w['message']}")
        lines.append(f"time               : {self.seconds:.1f} s")
        return "\n".join(lines)


def load_records(dataset: str | Path) -> tuple[list[Record], pa.Table]:
    """Figure rows of a built dataset, each joined with its article's metadata."""
    folder = DatasetFolder(dataset)
    articles = folder.read_table("articles")
    by_key = {a["article_key"]: a for a in articles.to_pylist()}
    records = []
    for row in folder.read_rows("figures"):
        art = by_key.get(row["article_key"], {})
        for f in ARTICLE_FIELDS:
            row.setdefault(f, art.get(f))
        row["article_licence_spdx"] = art.get("licence_spdx")
        row["article_licence_url"] = art.get("licence_url")
        records.append(row)
    return records, articles


def default_steps(dataset: str | Path, opts: CurateOptions, progress: bool = False) -> list[Step]:
    from medfig.curate.captions import CaptionCleaner, CaptionFilter, LanguageFilter
    from medfig.curate.images import RequireImageFilter
    from medfig.curate.keywords import ListKeywordMatcher, load_keywords, medicat_matcher
    from medfig.curate.medical_filter import MedicalFilter
    from medfig.curate.licence import AttributionEnricher, LicenceFilter

    steps: list[Step] = [LicenceFilter(opts.licence), AttributionEnricher(), CaptionCleaner(),
                         CaptionFilter(opts.min_words)]
    if opts.language:
        steps.append(LanguageFilter(opts.language_threshold, english_guard=opts.language_english_guard))
    if opts.medical_filter:
        # MedICaT's list (appendix B) unless the user gives one; both matched by the same rules
        matcher = ListKeywordMatcher(load_keywords(opts.keywords_file)) if opts.keywords_file else medicat_matcher()
        steps.append(MedicalFilter(matcher, dataset, second_chance=opts.medical_second_chance))
    if opts.require_images:
        steps.append(RequireImageFilter())
    if opts.min_figure_split_confidence is not None:
        from medfig.curate.panel_confidence import SplitConfidenceFilter

        steps.append(SplitConfidenceFilter(dataset, opts.min_figure_split_confidence))
    if opts.duplicates:
        from medfig.curate.duplicates import DuplicateFilter

        steps.append(DuplicateFilter(dataset, opts.phash_threshold, opts.dhash_threshold, progress=progress,
                                     workers=opts.workers, executor=opts.executor, ray_address=opts.ray_address))
    if opts.image_filter:
        from medfig.curate.image_classifier import ImageClassifierFilter

        steps.append(ImageClassifierFilter(opts.image_filter, dataset))
    steps += concept_steps(opts)
    from medfig.curate.splits import SplitAssigner

    steps.append(SplitAssigner(opts.splits, seed=opts.seed))
    return steps


def concept_steps(opts: CurateOptions) -> list[Step]:
    from medfig.curate.concepts import ManualConceptEnricher

    steps: list[Step] = [ManualConceptEnricher()]
    if opts.vocabulary:
        from medfig.curate.concepts import ConceptEnricher

        from medfig.concepts.default_lexicon import default_lexicon

        lexicon = opts.lexicon or (default_lexicon() if opts.default_lexicon else None)
        steps.append(ConceptEnricher(opts.vocabulary, lexicon=lexicon, min_frequency=opts.min_concept_frequency))
    return steps


def _link_or_copy(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    if dst.exists():
        return
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _clean_for_parquet(rec: Record) -> Record:
    return {k: v for k, v in rec.items() if not k.startswith("_")}


def _executor(opts: CurateOptions):
    """Workers for the record-by-record steps (map per shard); None runs them in this process."""
    from contextlib import nullcontext

    from medfig.pipeline.executors import make_executor

    if opts.executor == "local" and opts.workers <= 1:
        return nullcontext(None)
    return make_executor(opts.executor, workers=opts.workers, ray_address=opts.ray_address,
                         on_failure=lambda _shard, failure: failure)


def curate(dataset: str | Path, release: str | Path, options: CurateOptions | None = None,
           steps: list[Step] | None = None, progress: bool = False) -> CurateReport:
    """Run the curation steps over a built dataset and write a release folder."""
    t0 = time.perf_counter()
    opts = options or CurateOptions()
    root, out = Path(dataset), Path(release)
    if root.resolve() == out.resolve():
        raise MedfigError(f"{out}: the release folder must differ from the dataset folder")
    with DatasetFolder(out).lock("medfig curate"):  # one writer per release folder
        return _curate_locked(root, out, opts, steps, progress, t0)


def _curate_locked(root: Path, out: Path, opts: CurateOptions, steps: list[Step] | None, progress: bool,
                   t0: float) -> CurateReport:
    from medfig.curate.panel_confidence import check_threshold, curate_panels, panels_by_figure

    if opts.min_panel_confidence is not None:  # said before the steps run, not after
        check_threshold(opts.min_panel_confidence, "--min-panel-confidence")
    records, articles = load_records(root)
    n_in = len(records)
    steps = steps if steps is not None else default_steps(root, opts, progress)
    with _executor(opts) as executor:
        kept, drops, stats = run_steps(records, steps, progress=progress, executor=executor,
                                       shards=max(1, 2 * opts.workers) if executor is not None else 1)
    # panels are judged on the figures every figure step kept: a dropped figure's panels go with it
    has_panels = DatasetFolder(root).has_table("subfigures")
    panels = curate_panels(kept, panels_by_figure(root) if has_panels else {}, opts.min_panel_confidence,
                           keep_confident=opts.keep_confident_panels)
    drops = drops + panels.drops
    out.mkdir(parents=True, exist_ok=True)
    for rec in kept:
        if rec.get("image_path") and rec.get("image_status") in (None, "ok"):
            src = root / rec["image_path"]
            if src.is_file():
                _link_or_copy(src, out / rec["image_path"])
    rows = [_clean_for_parquet(r) for r in kept]
    table = pa.Table.from_pylist(rows) if rows else pa.table({"article_key": pa.array([], pa.string()),
                                                                 "figure_id": pa.array([], pa.string())})
    release_folder = DatasetFolder(out)
    release_folder.write_table("figures", table)
    if has_panels:  # the release carries its own panels, so exports follow the panel verdicts
        # crops stay in the dataset (a path here would point nowhere): exports cut panels from the figure
        rows = [{**panel, "crop_path": None} for panel in panels.kept]
        release_folder.write_table("subfigures", schema.to_table(rows, schema.SUBFIGURES))
    elif release_folder.has_table("subfigures"):  # an earlier release's panels would outlive their dataset's
        stale = release_folder.table_location("subfigures")
        shutil.rmtree(stale) if stale.is_dir() else stale.unlink(missing_ok=True)
    keys = {r["article_key"] for r in kept}
    release_folder.write_table("articles", articles.filter(pa.array([k in keys for k in articles["article_key"].to_pylist()], pa.bool_())))
    by_key = {(r["article_key"], r["figure_id"]): r for r in records}
    ledger = DatasetFolder(root).read_rows("exclusions", required=False) + curate_exclusions(drops, by_key)
    release_folder.write_table("exclusions", schema.to_table(ledger, schema.EXCLUSIONS))
    report = CurateReport(out, n_in, len(kept), stats, time.perf_counter() - t0)
    summary = {
        "dataset": str(root.resolve()),
        "options": {k: (list(v) if isinstance(v, tuple) else v) for k, v in vars(opts).items()},
        "figures_in": n_in,
        "figures_kept": len(kept),
        "steps": {st.name: st.as_dict() for st in stats},
    }
    if has_panels:
        report.extra["panels"] = panels.summary_line()
        summary["panels"] = panels.as_dict()
    elif opts.min_panel_confidence is not None:
        report.extra["panels"] = f"none judged: {root} has no subfigures table (built with --no-subfigures?)"
    if kept and "split" in kept[0]:
        report.extra["splits"] = dict(Counter(r.get("split") for r in kept))
        summary["splits"] = report.extra["splits"]
    by_medical = Counter(r.get("medical_by") for r in kept if r.get("medical_by"))
    if by_medical:
        report.extra["medical kept by"] = ", ".join(f"{k} {v}" for k, v in sorted(by_medical.items()))
        summary["medical_kept_by"] = dict(sorted(by_medical.items()))
    from medfig.curate.warnings import release_warnings

    report.warnings = release_warnings(kept, vocabulary=opts.vocabulary, splits=tuple(opts.splits),
                                       min_split_figures=opts.min_split_figures,
                                       split_assigned=any("split" in r for r in kept))
    summary["warnings"] = report.warnings
    release_folder.write_json("summary.json", summary)
    return report

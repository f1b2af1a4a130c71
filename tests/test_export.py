"""Every export of a real curated release reads back: ROCOv2 files, MedICaT JSONL, HF parquet, WebDataset, card."""

from __future__ import annotations

import csv
import json
import shutil
import tarfile
from pathlib import Path

import pytest

from medfig.curate.run import CurateOptions, curate
from medfig.export.release import load_release


# The three input articles hold 3 (PMC4735894), 5 (PMC4736802) and 1 (elife-19405) <fig> elements,
# all CC BY with an image (the Hindawi ones cropped from the PDF): the open policy keeps all nine.
N_PAPERS, N_FIGURES = 3, 9


@pytest.fixture(scope="module")
def release(data_dir, tmp_path_factory) -> Path:
    from medfig.pipeline.build import build

    inputs = tmp_path_factory.mktemp("inputs")
    for pkg in (data_dir / "pmc_hindawi_xml_pdf" / "PMC4735894", data_dir / "pmc_hindawi_xml_pdf" / "PMC4736802",
                data_dir / "jats_pdf_figure_packages" / "elife-19405_pmc_deposit"):
        shutil.copytree(pkg, inputs / pkg.name, ignore=shutil.ignore_patterns("*.zip"))
    built = tmp_path_factory.mktemp("built")
    build(inputs, built, workers=0, progress=False)  # Hindawi figures are cropped from the PDFs
    rel = tmp_path_factory.mktemp("release")
    opts = CurateOptions(licence="open", medical_filter=False, min_concept_frequency=1, splits=(0.34, 0.33, 0.33),
                         vocabulary=str(data_dir / "rocov2_concepts" / "cui_mapping.csv"))
    curate(built, rel, opts)
    return rel


def _read_csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_rocov2_files_round_trip(release, tmp_path):
    from medfig.export.rocov2 import export_rocov2

    rel = load_release(release)
    counts = export_rocov2(rel, tmp_path)
    assert sum(counts.values()) == sum(1 for r in rel.figures if rel.image_file(r)) == N_FIGURES
    captions_by_text = {r.get("caption_clean") for r in rel.figures}
    used, all_ids, sizes = set(), set(), []
    for split in ("train", "valid", "test"):
        caps = _read_csv(tmp_path / f"{split}_captions.csv")
        concepts = _read_csv(tmp_path / f"{split}_concepts.csv")
        manual = _read_csv(tmp_path / f"{split}_concepts_manual.csv")
        assert caps, f"{split}: three articles over three equal-ish splits leave no split empty"
        assert list(caps[0].keys()) == ["ID", "Caption"]
        sizes.append(len(caps))
        ids = [c["ID"] for c in caps]
        assert ids == [c["ID"] for c in concepts] == [m["ID"] for m in manual]
        assert all(i.startswith(f"medfig_{split}_") for i in ids)
        assert sorted(p.stem for p in (tmp_path / split).glob("*.jpg")) == sorted(ids)
        assert all(c["Caption"] in captions_by_text for c in caps)
        for row in concepts + manual:
            used.update(c for c in row["CUIs"].split(";") if c)
        all_ids.update(ids)
    assert sorted(sizes) == [1, 3, 5]  # splits are grouped by article: one article per split
    assert len(all_ids) == N_FIGURES
    mapping = {r["CUI"]: r["Canonical name"] for r in _read_csv(tmp_path / "cui_mapping.csv")}
    assert used and used <= set(mapping) and all(mapping[c] for c in used)
    lic = _read_csv(tmp_path / "license_information.csv")
    assert {r["ID"] for r in lic} == all_ids
    assert all(r["License"].startswith("CC") and "creativecommons.org/" in r["License URL"]
               and "doi.org" in r["Attribution"] for r in lic)


def test_medicat_jsonl_has_medicats_fields_and_images(release, tmp_path, data_dir):
    from medfig.export.medicat import export_medicat

    n = export_medicat(load_release(release), tmp_path)["lines"]
    rows = [json.loads(line) for line in (tmp_path / "medicat.jsonl").read_text().splitlines()]
    sample = json.loads((data_dir / "medicat_sample" / "sample.jsonl").read_text().splitlines()[0])
    assert n == len(rows) == N_FIGURES
    for row in rows:
        assert set(row) == set(sample)
        assert set(row["oa_info"]) == set(sample["oa_info"]) and set(row["oa_info"]["oa"]) == set(sample["oa_info"]["oa"])
        assert (tmp_path / "figures" / f"{row['pdf_hash']}_{row['fig_uri']}").is_file()
        assert row["s2orc_references"] is None or all(isinstance(s, str) for s in row["s2orc_references"])
    assert any(r["radiology"] for r in rows)  # the Hindawi case reports have CT/MR/angiography figures


def test_hf_parquet_loads_with_datasets_and_decodes_images(release, tmp_path):
    import datasets

    from medfig.export.hf import export_hf

    counts = export_hf(load_release(release), tmp_path)
    counts.pop("panels")
    ds = datasets.load_dataset(str(tmp_path), cache_dir=str(tmp_path / ".hf-cache"))  # the folder's README.md names the configs and files
    assert {k: ds[k].num_rows for k in ds} == counts and sum(counts.values()) == N_FIGURES
    first = ds[next(iter(ds))][0]
    assert first["image"].size[0] > 0 and first["caption"] and first["license"].startswith("CC")


def test_webdataset_shards_hold_image_caption_and_metadata_per_key(release, tmp_path):
    from medfig.export.webdataset import export_webdataset

    counts = export_webdataset(load_release(release), tmp_path, shard_size=3)
    counts.pop("panels")
    seen = 0
    for shard in sorted(tmp_path.glob("*.tar")):
        with tarfile.open(shard) as tar:
            names = tar.getnames()
            keys = {n.split(".", 1)[0] for n in names}
            assert len(names) == 3 * len(keys) <= 9
            for key in keys:
                meta = json.loads(tar.extractfile(f"{key}.json").read())
                assert meta["article_key"] and tar.extractfile(f"{key}.txt").read()
            seen += len(keys)
    assert seen == sum(counts.values()) == N_FIGURES
    assert len(list(tmp_path.glob("*.tar"))) == 4  # shards per split of 1, 3 and 5 samples, three per shard


def test_card_reports_statistics_drops_and_histograms(release, tmp_path):
    from medfig.export.card import release_stats, write_card

    rel = load_release(release)
    path = write_card(rel, tmp_path)
    text = path.read_text()
    assert release_stats(rel)["papers"] == N_PAPERS
    assert f"| figures | {N_FIGURES} |" in text and f"| papers | {N_PAPERS} |" in text
    assert "## Drops by step and reason" in text and "## Curation warnings" in text
    assert (tmp_path / "caption_length.png").read_bytes()[:4] == b"\x89PNG"


def test_export_refuses_an_uncurated_dataset(tmp_path, data_dir):
    from medfig.records import MedfigError

    import pyarrow as pa
    import pyarrow.parquet as pq

    from medfig.schema import FIGURES

    # a built (not curated) figures table: every build column, no split
    row = {name: None for name in FIGURES.names} | {"article_key": "a", "figure_id": "f"}
    pq.write_table(pa.Table.from_pylist([row], schema=FIGURES), tmp_path / "figures.parquet")
    with pytest.raises(MedfigError, match="run `medfig curate`"):
        load_release(tmp_path)
    (tmp_path / "figures.parquet").write_bytes(b"")
    with pytest.raises(MedfigError, match=r"figures\.parquet: cannot read parquet"):
        load_release(tmp_path)

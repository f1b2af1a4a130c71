"""``medfig export hf`` writes a Hugging Face dataset card as the folder's README.md.

The card's YAML loads with ``huggingface_hub`` (``DatasetCard`` / ``DatasetCardData``), names both
configurations so ``datasets.load_dataset`` reads them, maps figure licences to Hub licence ids
(``other`` plus a licence table when they differ), renders the release's curation warnings and
lists known limitations with the benchmark command of each. Before, the export wrote no card.
"""

from __future__ import annotations

import copy
import glob
import json
import shutil
from pathlib import Path

import pytest

from medfig.curate.run import CurateOptions, curate
from medfig.export.release import load_release

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def release(data_dir, tmp_path_factory) -> Path:
    from medfig.pipeline.build import build

    inputs = tmp_path_factory.mktemp("inputs")
    shutil.copytree(data_dir / "pmc_hindawi_xml_pdf" / "PMC4736802", inputs / "PMC4736802")
    built = tmp_path_factory.mktemp("built")
    build(inputs, built, workers=0, progress=False)  # 5 figures cropped from the PDF, two split into panels
    rel = tmp_path_factory.mktemp("release")
    curate(built, rel, CurateOptions(licence="open", medical_filter=False, min_concept_frequency=1, splits=(1, 0, 0)))
    return rel


@pytest.fixture(scope="module")
def exported(release, tmp_path_factory) -> tuple[Path, dict]:
    from medfig.export.hf import export_hf

    out = tmp_path_factory.mktemp("hf")
    counts = export_hf(load_release(release), out, pretty_name="Hindawi case report figures")
    return out, counts


def test_card_loads_with_huggingface_hub_and_has_the_hub_keys(exported):
    from huggingface_hub import DatasetCard, DatasetCardData

    out, counts = exported
    card = DatasetCard.load(out / "README.md")
    meta = card.data.to_dict()
    DatasetCardData(**meta)  # the metadata round-trips through the Hub's dataclass
    for key in ("license", "task_categories", "size_categories", "configs", "pretty_name", "tags", "language"):
        assert meta.get(key), key
    assert meta["pretty_name"] == "Hindawi case report figures"
    assert meta["size_categories"] == ["n<1K"] and "image-to-text" in meta["task_categories"]
    # the values the datasets library validates cards against, from its own resources
    import datasets

    resources = Path(datasets.__file__).parent / "utils" / "resources"
    assert set(meta["size_categories"]) <= set(json.loads((resources / "size_categories.json").read_text()))
    assert set(meta["annotations_creators"]) <= set(json.loads((resources / "creators.json").read_text())["annotations"])
    assert set(meta["language"]) <= set(json.loads((resources / "languages.json").read_text()))
    from datasets.utils.metadata import MetadataConfigs

    assert set(MetadataConfigs.from_dataset_card_data(card.data)) == {"figures", "panels"}  # data_files valid
    configs = {c["config_name"]: c for c in meta["configs"]}
    assert set(configs) == {"figures", "panels"} and configs["figures"].get("default") is True
    for name, folder in (("figures", "data"), ("panels", "panels")):
        for entry in configs[name]["data_files"]:
            files = glob.glob(str(out / entry["path"]))
            assert files and all(Path(f).parent.name == folder for f in files), entry
    assert '; build settings: `{"crop_dpi": ' in card.text and '"medfig": "' in card.text  # from the build's runs/
    assert "## Licences" in card.text and "## How it was built" in card.text and "@inproceedings{subramanian-2020-medicat" in card.text


def test_load_dataset_reads_both_configurations_named_by_the_card(exported, tmp_path):
    import datasets

    out, counts = exported
    # a private cache: datasets keys its cache on the folder name and file patterns, so a shared
    # cache can hand back an earlier run's rows for a folder of the same name
    cache = str(tmp_path / "hf-cache")
    figures = datasets.load_dataset(str(out), cache_dir=cache)
    panels = datasets.load_dataset(str(out), "panels", cache_dir=cache)
    assert figures["train"].num_rows == counts["train"] == 5
    assert panels["train"].num_rows == counts["panels"] == 5  # fig1: 2 radiographs, fig2: 3 CT panels
    assert {row["parent_id"] for row in panels["train"]} <= set(figures["train"]["id"])
    assert sum(figures["train"]["n_panels"]) == counts["panels"]


def test_licences_map_to_hub_ids_and_a_mix_is_other_with_a_table(release):
    from medfig.export.hub_card import card_metadata, card_text, hub_licence

    assert hub_licence("CC-BY-4.0", None) == "cc-by-4.0"
    assert hub_licence("CC-BY-NC-ND-4.0", None) == "cc-by-nc-nd-4.0"
    assert hub_licence("CC-BY", "http://creativecommons.org/licenses/by/3.0/") == "cc-by-3.0"
    assert hub_licence("CC-BY", None) is None  # no version stated anywhere: never guessed
    assert hub_licence("CC0-1.0", None) == "cc0-1.0"

    rel = load_release(release)
    assert {r["licence_effective"] for r in rel.figures} == {"CC-BY"}  # Hindawi states no version
    assert card_metadata(rel, {"train": 5}, {}, "x")["license"] == "other"

    one = copy.deepcopy(rel)
    for rec in one.figures:
        rec["licence_effective"] = "CC-BY-4.0"
    assert card_metadata(one, {"train": 5}, {}, "x")["license"] == "cc-by-4.0"

    mixed = copy.deepcopy(one)
    mixed.figures[0]["licence_effective"] = "CC-BY-NC-4.0"
    meta = card_metadata(mixed, {"train": 5}, {}, "x")
    assert meta["license"] == "other" and meta["license_name"] == "per-figure-licences"
    text = card_text(mixed, {"train": 5}, {})
    assert "| CC-BY-4.0 | cc-by-4.0 | 4 | https://creativecommons.org/licenses/by/4.0/ |" in text
    assert "| CC-BY-NC-4.0 | cc-by-nc-4.0 | 1 | https://creativecommons.org/licenses/by-nc/4.0/ |" in text


def test_a_release_of_mixed_or_unversioned_licences_links_its_licence_table(exported):
    from huggingface_hub import DatasetCard

    out, _ = exported
    meta = DatasetCard.load(out / "README.md").data.to_dict()
    assert meta["license"] == "other" and meta["license_link"] == "LICENSE.md"
    from medfig.export.hub_card import size_category

    assert [size_category(n) for n in (999, 1000, 28_000_000, 10**12)] == ["n<1K", "1K<n<10K", "10M<n<100M", "n>1T"]
    table = (out / "LICENSE.md").read_text()
    assert "| CC-BY | - (other: version or family not on the Hub) | 5 | https://creativecommons.org/licenses/by/ |" in table


def test_card_renders_the_release_warnings(release, tmp_path):
    from medfig.export.hf import export_hf

    copy_ = tmp_path / "release"
    shutil.copytree(release, copy_)
    summary = json.loads((copy_ / "summary.json").read_text())
    summary["warnings"] = [{"code": "split_empty", "split": "test", "figures": 0,
                            "message": "split 'test' is empty (0 of 5 figures; 33% asked): too few articles (1) to split"}]
    (copy_ / "summary.json").write_text(json.dumps(summary))
    export_hf(load_release(copy_), tmp_path / "hf")
    text = (tmp_path / "hf" / "README.md").read_text()
    section = text.split("## Curation warnings", 1)[1].split("\n## ", 1)[0]
    assert "- `split_empty`: split 'test' is empty (0 of 5 figures; 33% asked): too few articles (1) to split" in section

    summary["warnings"] = []
    (copy_ / "summary.json").write_text(json.dumps(summary))
    export_hf(load_release(copy_), tmp_path / "hf2")
    assert "None: `medfig curate` reported no degradation" in (tmp_path / "hf2" / "README.md").read_text()


def test_known_limits_name_a_benchmark_that_exists_and_reach_the_card(exported):
    from medfig.export.hub_card import known_limits

    text = (exported[0] / "README.md").read_text()
    limits = known_limits()
    assert len(limits) >= 5
    for limit in limits:
        assert limit["area"] in text and limit["measured_on"] in text
        if limit["command"]:
            script = limit["command"].split()[1]
            assert (REPO / script).is_file(), limit["command"]
            assert f"`{limit['command']}`" in text
        else:
            assert "issue" in limit["measured_on"], "an external measurement names where it comes from"

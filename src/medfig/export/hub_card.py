"""The Hugging Face dataset card (``README.md`` of ``medfig export hf``).

A YAML metadata header the Hub reads (``huggingface_hub.DatasetCardData`` fields):

- ``license``: the Hub licence id when every figure has the same licence and it maps to one
  (``CC-BY-4.0`` -> ``cc-by-4.0``; the version comes from the SPDX id or the licence URL, never
  guessed); else ``other`` with ``license_name: per-figure-licences`` and ``license_link:
  LICENSE.md``, a file written beside the card with the licence table (every licence, its Hub
  id, figure count and URL), which the card's Licences section repeats;
- ``task_categories`` ``image-to-text``, ``text-to-image``, ``zero-shot-image-classification``
  (caption generation, text-to-image retrieval, CLIP-style training); ``task_ids``
  ``image-captioning``; ``size_categories`` from the number of figures;
- ``configs``: ``figures`` (default, ``data/``) and ``panels`` (``panels/``) with one
  ``data_files`` entry per split written, so ``datasets.load_dataset(folder, "panels")`` works;
- ``pretty_name``, ``tags``, ``language``, ``annotations_creators`` (machine-generated).

The body: configurations, licences, how it was built (medfig version, release fingerprint,
the curate options and the export command), the curation warnings of ``summary.json``,
known limitations with measured rates (``data/known_limits.json``, each with the benchmark
command that measures it), the statistics of ``card.md``, and citations.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from importlib import resources
from pathlib import Path

import yaml

from medfig.curate.licence import licence_family, licence_url_for
from medfig.dataset import DatasetFolder
from medfig.export.card import release_stats, statistics_lines, warning_lines
from medfig.export.release import Release
from medfig.export.rocov2 import _concept_names
from medfig.io import atomic_write_bytes

# Licence ids the Hub accepts (huggingface.co/docs/hub/repositories-licenses) for the families
# medfig's licence step keeps; anything else becomes ``other``.
HUB_LICENCES = frozenset({
    "cc0-1.0", "cc-by-2.0", "cc-by-2.5", "cc-by-3.0", "cc-by-4.0", "cc-by-sa-3.0", "cc-by-sa-4.0",
    "cc-by-nc-2.0", "cc-by-nc-3.0", "cc-by-nc-4.0", "cc-by-nd-4.0", "cc-by-nc-nd-3.0", "cc-by-nc-nd-4.0",
    "cc-by-nc-sa-2.0", "cc-by-nc-sa-3.0", "cc-by-nc-sa-4.0",
})
TASK_CATEGORIES = ["image-to-text", "text-to-image", "zero-shot-image-classification"]
# The Hub's size categories (datasets/utils/resources/size_categories.json), by upper bound.
SIZE_CATEGORIES = [(10**3, "n<1K"), (10**4, "1K<n<10K"), (10**5, "10K<n<100K"), (10**6, "100K<n<1M"),
                   (10**7, "1M<n<10M"), (10**8, "10M<n<100M"), (10**9, "100M<n<1B"), (10**10, "1B<n<10B"),
                   (10**11, "10B<n<100B"), (10**12, "100B<n<1T")]
LICENCE_FILE = "LICENSE.md"
_URL_VERSION = re.compile(r"creativecommons\.org/(?:licenses/[a-z-]+|publicdomain/zero)/(\d\.\d)")

CITATIONS = """@inproceedings{subramanian-2020-medicat,
  title = {{MedICaT}: A Dataset of Medical Images, Captions, and Textual References},
  author = {Subramanian, Sanjay and Wang, Lucy Lu and Mehta, Sachin and Bogin, Ben and van Zuylen, Madeleine and
            Parasa, Sravanthi and Singh, Sameer and Gardner, Matt and Hajishirzi, Hannaneh},
  booktitle = {Findings of EMNLP},
  year = {2020}
}

@article{ruckert-2024-rocov2,
  title = {{ROCOv2}: Radiology Objects in COntext Version 2, an Updated Multimodal Image Dataset},
  author = {R{\\"u}ckert, Johannes and others},
  journal = {Scientific Data},
  volume = {11},
  pages = {688},
  year = {2024},
  doi = {10.1038/s41597-024-03496-6}
}

@software{medfig,
  title = {medfig: medical image-text datasets from open-access articles},
  version = {%s}
}"""


def hub_licence(spdx: str | None, url: str | None) -> str | None:
    """The Hub licence id of one figure licence, or None when it has none (unknown family or version)."""
    family = licence_family(spdx)
    if family is None or family == "PDM":
        return None
    version = re.search(r"(\d\.\d)$", spdx or "")
    version = version.group(1) if version else None
    if version is None and url:
        m = _URL_VERSION.search(url)
        version = m.group(1) if m else None
    if family == "CC0":
        return "cc0-1.0"
    hub_id = f"{family.lower()}-{version}" if version else None
    return hub_id if hub_id in HUB_LICENCES else None


def licence_table(release: Release) -> list[dict]:
    """One row per distinct figure licence: spdx, url, hub id, figures; most figures first."""
    counts: Counter = Counter()
    for rec in release.figures:
        spdx = rec.get("licence_effective") or rec.get("licence_spdx")
        url = rec.get("licence_effective_url") or rec.get("licence_url")
        counts[(spdx, licence_url_for(spdx, url) or None)] += 1
    return [{"licence": spdx or "unknown", "url": url, "hub": hub_licence(spdx, url), "figures": n}
            for (spdx, url), n in sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0])))]


def size_category(n: int) -> str:
    for limit, name in SIZE_CATEGORIES:
        if n < limit:
            return name
    return "n>1T"


def release_fingerprint(release: Release) -> str:
    """SHA-256 over the released figures' keys, image hashes and captions: two releases with the
    same fingerprint hold the same figures and text."""
    digest = hashlib.sha256()
    for rec in sorted(release.figures, key=lambda r: (r["article_key"], r["figure_id"])):
        digest.update(json.dumps([rec["article_key"], rec["figure_id"], rec.get("sha256"),
                                  rec.get("caption_clean") or rec.get("caption")]).encode())
    return digest.hexdigest()


def build_config(release: Release) -> dict | None:
    """The build settings (medfig, schema and model-package versions, crop dpi ...) of the dataset's
    latest run, from its ``runs/*.json``; None when the dataset folder or its runs are gone."""
    dataset = release.summary.get("dataset")
    runs = sorted(DatasetFolder(dataset).runs_dir.glob("*.json")) if dataset else []
    for run in reversed(runs):
        try:
            config = json.loads(run.read_text()).get("config")
        except (OSError, ValueError):
            continue
        if config:
            return config
    return None


def known_limits() -> list[dict]:
    text = resources.files("medfig.export").joinpath("data/known_limits.json").read_text(encoding="utf-8")
    return json.loads(text)["limits"]


def card_metadata(release: Release, counts: dict[str, int], panel_counts: dict[str, int],
                  pretty_name: str) -> dict:
    licences = licence_table(release)
    hub_ids = {row["hub"] for row in licences}
    meta: dict = {"pretty_name": pretty_name, "language": ["en"]}
    if len(hub_ids) == 1 and None not in hub_ids:
        meta["license"] = hub_ids.pop()
    else:
        meta.update({"license": "other", "license_name": "per-figure-licences", "license_link": LICENCE_FILE})
    n = sum(counts.values())
    meta.update({
        "task_categories": list(TASK_CATEGORIES), "task_ids": ["image-captioning"],
        "size_categories": [size_category(n)], "annotations_creators": ["machine-generated"],
        "source_datasets": ["original"],
        "tags": ["medical", "biomedical", "radiology", "scientific-figures", "compound-figures", "medfig"],
    })
    configs = [{"config_name": "figures", "default": True,
                "data_files": [{"split": s, "path": f"data/{s}-*.parquet"} for s in counts]}]
    if panel_counts:
        configs.append({"config_name": "panels",
                        "data_files": [{"split": s, "path": f"panels/{s}-*.parquet"} for s in panel_counts]})
    meta["configs"] = configs
    return meta


def licence_lines(licences: list[dict]) -> list[str]:
    return [
        "## Licences", "",
        "Each figure keeps the licence of its article (or its own); the `license` and `attribution` "
        "columns travel with every row: reuse a figure under its own licence and credit its source.", "",
        "| licence | Hub id | figures | URL |", "|---|---|---:|---|",
        *[f"| {r['licence']} | {r['hub'] or '- (other: version or family not on the Hub)'} | {r['figures']} "
          f"| {r['url'] or '-'} |" for r in licences],
    ]


def _limit_value(limit: dict) -> str:
    if limit.get("value_detail"):
        return limit["value_detail"]
    value = limit["value"]
    return f"{value:.2%}" if value < 0.01 else f"{value:.3f}".rstrip("0").rstrip(".")


def card_text(release: Release, counts: dict[str, int], panel_counts: dict[str, int], *,
              pretty_name: str | None = None, command: str | None = None) -> str:
    import medfig

    version = getattr(medfig, "__version__", "unknown")
    name = pretty_name or f"medfig release of {Path(str(release.summary.get('dataset') or release.root)).name}"
    meta = card_metadata(release, counts, panel_counts, name)
    s = release_stats(release)
    licences = licence_table(release)
    options = release.summary.get("options") or {}
    lines = [
        "---", yaml.safe_dump(meta, sort_keys=False, allow_unicode=True).rstrip(), "---", "",
        f"# {name}", "",
        f"Medical image-text pairs from open-access articles, made with medfig {version}: "
        f"{sum(counts.values())} figures from {s['papers']} papers and {sum(panel_counts.values())} panels "
        "of compound figures, each with its caption, the sentences citing it and its own licence and "
        "attribution (cite the source articles).", "",
        "## Configurations", "",
        "| config | rows | per split | load with |", "|---|---:|---|---|",
        f"| figures (default) | {sum(counts.values())} | {', '.join(f'{k} {v}' for k, v in counts.items())} "
        "| `load_dataset(PATH)` |",
        f"| panels | {sum(panel_counts.values())} | {', '.join(f'{k} {v}' for k, v in panel_counts.items()) or '-'} "
        "| `load_dataset(PATH, \"panels\")` |", "",
        "A panel row is one panel of a compound figure: `image` (the panel cut from the figure), `box_px` "
        "(`[x0, y0, x1, y1]` in pixels of the figure image), `label`, `subcaption`, `inline_refs` "
        "(sentences citing the panel), `parent_id` (the figure's `id`), `score` (the splitter's) and "
        "`confidence` (calibrated probability that the panel is a true panel).", "",
        *licence_lines(licences), "",
        "## How it was built", "",
        f"- medfig {version}; release fingerprint `{release_fingerprint(release)}` (SHA-256 of figure keys, "
        "image hashes and captions)",
        f"- built dataset: `{release.summary.get('dataset', '?')}`; "
        f"build settings: `{json.dumps(build_config(release), sort_keys=True)}`",
        f"- `medfig curate` options: `{json.dumps(options, sort_keys=True)}`",
        f"- exported with `{command or 'medfig export hf RELEASE OUT'}`", "",
        *warning_lines(release.summary), "",
        "## Known limitations", "",
        "What medfig is known to get wrong, as measured (re-run the command to check a number):", "",
        "| area | measure | value | measured on | command |", "|---|---|---:|---|---|",
        *[f"| {lim['area']} | {lim['metric']} | {_limit_value(lim)} | {lim['measured_on']} "
          f"| {'`' + lim['command'] + '`' if lim.get('command') else 'external measurement'} |"
          for lim in known_limits()], "",
        *statistics_lines(s, _concept_names(release, None)), "",
        "## Citation", "", "```bibtex", CITATIONS % version, "```", "",
    ]
    return "\n".join(lines)


def write_hub_card(release: Release, out: str | Path, counts: dict[str, int], panel_counts: dict[str, int], *,
                   pretty_name: str | None = None, command: str | None = None) -> Path:
    """``README.md`` (the card) and ``LICENSE.md`` (the licence table the card's ``license_link`` names)."""
    out = Path(out)
    text = card_text(release, counts, panel_counts, pretty_name=pretty_name, command=command)
    atomic_write_bytes(out / LICENCE_FILE, ("\n".join(licence_lines(licence_table(release))) + "\n").encode("utf-8"))
    atomic_write_bytes(out / "README.md", text.encode("utf-8"))
    return out / "README.md"

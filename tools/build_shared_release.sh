#!/usr/bin/env bash
# Build and curate every real article folder of the shared data into one release, for the
# `medfig train` baselines (benchmarks/baselines.py, docs/baselines.md).
#
#   tools/build_shared_release.sh [DATA_DIR] [OUT_DIR]
#
# DATA_DIR defaults to $MEDFIG_DATA or ../shared/data, OUT_DIR to /tmp/shared_release.
# The corpora are built one after the other into one dataset (`--incremental` adds a corpus and keeps
# the articles already built), then curated once, split by article, with ROCOv2's concept vocabulary
# so figures carry CUIs. jats_xml_only is left out: XML without PDFs or figure files gives no images.
# Re-running resumes: `medfig build` skips articles already in the dataset.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="${1:-${MEDFIG_DATA:-$HERE/../shared/data}}"
OUT="${2:-/tmp/shared_release}"
MEDFIG="${MEDFIG:-$HERE/.venv/bin/medfig}"
WORKERS="${WORKERS:-2}"
CORPORA=(pmc_hindawi_xml_pdf elife_xml_pdf_pairs jats_pdf_figure_packages pmc_dev_corpus)
VOCABULARY="$DATA/rocov2_concepts/cui_mapping.csv"

mkdir -p "$OUT"
start=$(date +%s)
first=1
for corpus in "${CORPORA[@]}"; do
    if [[ ! -d "$DATA/$corpus" ]]; then
        echo "build_shared_release: $DATA/$corpus: no such corpus folder" >&2
        exit 2
    fi
    echo "== medfig build $corpus ($(date -u +%H:%M:%S))"
    if [[ $first == 1 ]]; then
        "$MEDFIG" build "$DATA/$corpus" -o "$OUT/build" --workers "$WORKERS" -q
        first=0
    else
        "$MEDFIG" build "$DATA/$corpus" -o "$OUT/build" --workers "$WORKERS" --incremental -q
    fi
done
echo "== medfig curate ($(date -u +%H:%M:%S))"
# The defaults are the papers' except where a few hundred figures cannot carry them:
# --min-concept-frequency 2: ROCOv2 keeps concepts seen in >= 10 of 80k figures; a few hundred figures
#   would keep almost none at 10, and a concept seen once cannot be both trained on and tested.
# --splits 0.6,0.2,0.2: at 0.8,0.1,0.1 (split by article) the valid split held 3 figures.
# --no-medical-filter: the keyword filter kept 126 of 339 figures; the baselines need every image
#   (set MEDICAL_FILTER=1 to keep the papers' filter).
rm -rf "$OUT/release"
extra=()
[[ "${MEDICAL_FILTER:-0}" == 1 ]] || extra+=(--no-medical-filter)
"$MEDFIG" curate "$OUT/build" -o "$OUT/release" --vocabulary "$VOCABULARY" \
    --min-concept-frequency "${MIN_CONCEPT_FREQUENCY:-2}" --splits "${SPLITS:-0.6,0.2,0.2}" "${extra[@]}" -q
echo "== done in $(( $(date +%s) - start )) s"
cat "$OUT/release/summary.json" 2>/dev/null | head -c 4000 || true

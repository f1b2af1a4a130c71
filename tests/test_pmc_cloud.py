"""The PMC cloud source against a local S3 server (moto) holding real articles laid out like the bucket."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import boto3
import pyarrow.parquet as pq
import pytest
from moto.server import ThreadedMotoServer

from medfig.cli import main
from medfig.pipeline.build import build
from medfig.sources.pmc_cloud import PmcCloudQuery, iter_pmc_cloud, licence_group

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
HINDAWI = DATA / "pmc_hindawi_xml_pdf"
NIH = DATA / "jats_pdf_figure_packages" / "PMC10802347_partial_oa_package"
BUCKET = "pmc-oa-opendata"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _put_article(s3, pmcid: str, version: int, files: dict[str, bytes], meta: dict) -> None:
    article = f"{pmcid}.{version}"
    for name, body in files.items():
        s3.put_object(Bucket=BUCKET, Key=f"{article}/{name}", Body=body, ACL="public-read")
    meta = {"pmcid": pmcid, "version": version, "xml_url": f"s3://{BUCKET}/{article}/{article}.xml?md5=v{version}",
            **meta}
    blob = json.dumps(meta).encode()
    s3.put_object(Bucket=BUCKET, Key=f"{article}/{article}.json", Body=blob, ACL="public-read")
    s3.put_object(Bucket=BUCKET, Key=f"metadata/{article}.json", Body=blob, ACL="public-read")


def _hindawi(pmcid: str, version: int) -> dict[str, bytes]:
    folder = HINDAWI / pmcid
    return {f"{pmcid}.{version}.xml": (folder / "fulltext.xml").read_bytes(),
            f"{pmcid}.{version}.pdf": next(folder.glob("*.pdf")).read_bytes()}


@pytest.fixture(scope="module")
def bucket():
    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    s3 = boto3.client("s3", endpoint_url=endpoint, aws_access_key_id="test", aws_secret_access_key="test",
                      region_name="us-east-1")
    s3.create_bucket(Bucket=BUCKET)
    _put_article(s3, "PMC4736806", 1, _hindawi("PMC4736806", 1),
                 {"license_code": "CC BY", "last_updated": "2024-03-01"})
    _put_article(s3, "PMC4745290", 1, _hindawi("PMC4745290", 1),
                 {"license_code": "CC BY", "last_updated": "2016-02-01"})
    _put_article(s3, "PMC4745290", 2, _hindawi("PMC4745290", 2),  # a corrected version replaces v1
                 {"license_code": "CC BY", "last_updated": "2025-06-30"})
    _put_article(s3, "PMC4706941", 1, _hindawi("PMC4706941", 1),
                 {"license_code": "CC BY", "is_retracted": True, "last_updated": "2025-01-10"})
    nih = {f"PMC10802347.1.xml": (NIH / "nihpp-2023.12.31.573776v1.nxml").read_bytes()}
    nih |= {p.name: p.read_bytes() for p in NIH.iterdir() if p.suffix in (".jpg", ".gif")}
    _put_article(s3, "PMC10802347", 1, nih, {"license_code": "CC BY-NC-ND", "last_updated": "2024-01-25"})
    yield endpoint
    server.stop()


def test_licence_groups_follow_pmc():
    assert [licence_group(c) for c in ("CC BY", "CC0", "CC BY-NC-ND", "CC BY-SA", "NO-CC CODE", None)] == [
        "oa_comm", "oa_comm", "oa_noncomm", "oa_noncomm", "oa_other", "oa_other"]


def test_listing_keeps_newest_version_filters_licence_and_marks_retracted(bucket):
    query = PmcCloudQuery(root=f"s3://{BUCKET}", licence_groups=("oa_comm",), endpoint_url=bucket)
    sources = {s.key: s for s in iter_pmc_cloud(query)}
    assert set(sources) == {"PMC4706941", "PMC4736806", "PMC4745290"}
    assert sources["PMC4745290"].container.endswith("PMC4745290.2")
    assert sources["PMC4706941"].status == "retracted"
    assert query.skipped == {"licence group oa_noncomm": 1}

    since = PmcCloudQuery(root=f"s3://{BUCKET}", updated_since="2025-01-01", endpoint_url=bucket)
    assert sorted(s.key for s in iter_pmc_cloud(since)) == ["PMC4706941", "PMC4745290"]
    chosen = PmcCloudQuery(root=f"s3://{BUCKET}", pmcids=["PMC10802347", "PMC9999999"], endpoint_url=bucket)
    assert [s.key for s in iter_pmc_cloud(chosen)] == ["PMC10802347"]
    assert chosen.skipped == {"PMCID not in the bucket": 1}


def test_build_from_the_bucket_reads_xml_pdf_and_media(bucket, tmp_path):
    out = tmp_path / "ds"
    query = PmcCloudQuery(root=f"s3://{BUCKET}", endpoint_url=bucket)
    report = build(None, out, sources=iter_pmc_cloud(query), workers=2, progress=False, pdf_figures=False, subfigures=False)
    assert report.articles_processed == 3 and report.removed_by_reason == {"retracted": 1}
    figures = pq.read_table(out / "figures.parquet").to_pylist()
    nih = [f for f in figures if f["article_key"] == "PMC10802347"]
    assert len(nih) == 4 and sum(f["image_format"] == "JPEG" for f in nih) == 3
    # three full-size JPEGs and F1's GIF thumbnail (its JPEG is missing from the package): four images
    assert all(f["image_status"] == "ok" and (out / f["image_path"]).is_file() for f in nih)
    assert {f["article_key"] for f in figures} == {"PMC10802347", "PMC4736806", "PMC4745290"}
    articles = {a["article_key"]: a for a in pq.read_table(out / "articles.parquet").to_pylist()}
    assert articles["PMC4745290"]["pdf_file"] == "PMC4745290.2.pdf"
    assert pq.read_table(out / "removed.parquet").to_pylist()[0]["article_key"] == "PMC4706941"

    again = build(None, out, sources=iter_pmc_cloud(PmcCloudQuery(root=f"s3://{BUCKET}", endpoint_url=bucket)),
                  workers=2, progress=False, pdf_figures=False, subfigures=False)
    assert (again.articles_processed, again.articles_skipped, again.files_written) == (0, 3, [])


def test_cli_reads_the_bucket(bucket, tmp_path, capsys):
    code = main(["build", f"s3://{BUCKET}", "-o", str(tmp_path / "ds"), "--endpoint-url", bucket,
                 "--licence-group", "oa_noncomm", "--workers", "1", "-q"])
    assert code == 0
    out = capsys.readouterr().out
    assert "1 processed" in out and "4 figures" in out


def test_a_local_folder_laid_out_like_the_bucket(tmp_path):
    root = tmp_path / "mirror"
    article = root / "PMC4736806.1"
    article.mkdir(parents=True)
    files = _hindawi("PMC4736806", 1)
    for name, body in files.items():
        (article / name).write_bytes(body)
    meta = json.dumps({"pmcid": "PMC4736806", "version": 1, "license_code": "CC BY"})
    (article / "PMC4736806.1.json").write_text(meta)
    (root / "metadata").mkdir()
    (root / "metadata" / "PMC4736806.1.json").write_text(meta)
    code = main(["build", str(root), "--source", "pmc-cloud", "-o", str(tmp_path / "ds"), "--no-pdf-figures",
                 "--workers", "1", "-q"])
    assert code == 0
    figures = pq.read_table(tmp_path / "ds" / "figures.parquet").to_pylist()
    assert len(figures) == 9 and {f["article_key"] for f in figures} == {"PMC4736806"}

"""medfig.sources on the real packages in ../shared/data, and on hostile archives built here."""

from __future__ import annotations

import io
import os
import pickle
import shutil
import tarfile
import zipfile
from pathlib import Path

import pytest

from medfig.records import SourceError
from medfig.sources import ArticleSource, iter_sources, safety

PMC_PARTIAL = "PMC10802347_partial_oa_package"
JPG = "nihpp-2023.12.31.573776v1-f0002.jpg"


@pytest.fixture
def packages(data_dir: Path) -> Path:
    return data_dir / "jats_pdf_figure_packages"


def _pmc_tar_gz(packages: Path, dest: Path) -> Path:
    with tarfile.open(dest, "w:gz") as tar:
        for path in sorted((packages / PMC_PARTIAL).iterdir()):
            tar.add(path, arcname=f"PMC10802347/{path.name}")
    return dest


def test_hindawi_folders_are_one_source_each_with_xml_and_pdf(data_dir):
    sources = list(iter_sources(data_dir / "pmc_hindawi_xml_pdf"))
    assert len(sources) == 30
    assert [s.key for s in sources] == sorted(s.key for s in sources)
    for source in sources:
        assert source.key.startswith("PMC") and source.kind == "folder"
        with source.open() as package:
            assert package.xml_name == "fulltext.xml"
            assert package.pdf_name == "fulltext.pdf"
            assert package.read_bytes("fulltext.pdf")[:5] == b"%PDF-"


def test_packed_and_unpacked_copies_of_a_package_are_one_article(packages):
    sources = {s.key: s for s in iter_sources(packages)}
    assert len(sources) == 4, sorted(sources)
    expected_xml = {
        "elife-19405": "elife-19405.xml",
        "elife-00353": "elife-00353-v1.xml",
        "medrxiv-24301711": "content/24301711.xml",  # chosen by content, not manifest.xml
        "PMC10802347": "nihpp-2023.12.31.573776v1.nxml",
    }
    expected_figure = {
        "elife-19405": "elife-19405-fig1.tif",
        "elife-00353": "elife-00353-fig1-v1.tif",
        "medrxiv-24301711": "content/24301711v1_fig1.tif",
        "PMC10802347": JPG,
    }
    for prefix, xml_name in expected_xml.items():
        (key,) = [k for k in sources if k.startswith(prefix)]
        with sources[key].open() as package:
            assert package.xml_name == xml_name, key
            assert expected_figure[prefix] in package.names()
            assert b"<article" in package.read_bytes(xml_name)
    with sources[next(k for k in sources if k.startswith("medrxiv"))].open() as meca:
        assert meca.pdf_name == "content/24301711.pdf"


@pytest.mark.parametrize(
    ("folder", "zip_name", "xml_name"),
    [
        ("elife-19405_pmc_deposit", "elife-05-19405.zip", "elife-19405.xml"),
        ("medrxiv-24301711_meca", "95901-v1-meca.zip", "content/24301711.xml"),
    ],
)
def test_publisher_zips_alone(packages, tmp_path, folder, zip_name, xml_name):
    shutil.copy(packages / folder / zip_name, tmp_path / zip_name)
    (source,) = iter_sources(tmp_path)
    assert source.kind == "zip" and source.key == zip_name[:-4]
    with source.open() as package:
        assert package.xml_name == xml_name
        tifs = [n for n in package.names() if n.endswith(".tif")]
        assert tifs
        assert package.read_bytes(tifs[0])[:2] in (b"II", b"MM")
        assert package.size(tifs[0]) == len(package.read_bytes(tifs[0]))


def test_pmc_tar_gz_package(packages, tmp_path):
    archive = _pmc_tar_gz(packages, tmp_path / "PMC10802347.tar.gz")
    (source,) = iter_sources(tmp_path)
    assert (source.key, source.kind, source.container) == ("PMC10802347", "tar", str(archive))
    with source.open() as package:
        assert package.xml_name == "PMC10802347/nihpp-2023.12.31.573776v1.nxml"
        assert package.read_bytes(f"PMC10802347/{JPG}") == (packages / PMC_PARTIAL / JPG).read_bytes()
    assert list(iter_sources(archive)) == [source]  # the archive itself as the input


def test_tar_holding_several_articles_gives_one_source_each(data_dir, tmp_path):
    hindawi = data_dir / "pmc_hindawi_xml_pdf"
    with tarfile.open(tmp_path / "bundle.tar.gz", "w:gz") as tar:
        for key in ("PMC4657150", "PMC4691483"):
            tar.add(hindawi / key / "fulltext.xml", arcname=f"{key}/fulltext.xml")
    sources = list(iter_sources(tmp_path))
    assert [(s.key, s.prefix) for s in sources] == [("PMC4657150", "PMC4657150/"), ("PMC4691483", "PMC4691483/")]
    with sources[1].open() as package:
        assert package.names() == ["fulltext.xml"]
        assert package.read_bytes("fulltext.xml") == (hindawi / "PMC4691483" / "fulltext.xml").read_bytes()


def test_truncated_tar_gz_is_found_and_fails_on_open_naming_the_file(packages, tmp_path):
    whole = _pmc_tar_gz(packages, tmp_path / "whole.tar.gz").read_bytes()
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "PMC10802347.tar.gz").write_bytes(whole[: len(whole) // 2])
    (corpus / "other.tgz").write_bytes(whole[: len(whole) // 3])  # not a PMC name: listed, and fails
    sources = list(iter_sources(corpus))
    assert [s.key for s in sources] == ["PMC10802347", "other"]
    for source, name in zip(sources, ("PMC10802347.tar.gz", "other.tgz")):
        with pytest.raises(SourceError, match=name.replace(".", r"\.")):
            source.open()


def test_bad_zip_fails_on_open_naming_the_file(tmp_path):
    (tmp_path / "broken.zip").write_bytes(b"PK\x03\x04 definitely not a zip")
    (source,) = iter_sources(tmp_path)
    with pytest.raises(SourceError, match=r"broken\.zip"):
        source.open()


def test_unsafe_zip_members_are_skipped_with_warnings(tmp_path):
    with zipfile.ZipFile(tmp_path / "evil.zip", "w") as zf:
        zf.writestr("../evil.txt", "owned")
        zf.writestr("/abs.txt", "owned")
        zf.writestr("a/../../up.txt", "owned")
        zf.writestr("C:/drive.txt", "owned")
        zf.writestr("a\\..\\..\\back.txt", "owned")
        zf.writestr("article.xml", "<article><front/></article>")
        zf.writestr("fig1.jpg", b"\xff\xd8jpeg")
    (source,) = iter_sources(tmp_path)
    with source.open() as package:
        assert package.names() == ["article.xml", "fig1.jpg"]
        assert package.xml_name == "article.xml"
        assert package.read_bytes("fig1.jpg") == b"\xff\xd8jpeg"
        assert len(package.warnings) == 5
        assert "evil.zip: skipped unsafe member '../evil.txt'" in package.warnings
        assert any("'/abs.txt'" in w for w in package.warnings)
        with pytest.raises(SourceError, match="evil.txt"):
            package.read_bytes("../evil.txt")
    assert not (tmp_path.parent / "evil.txt").exists()


def test_tar_links_and_unsafe_names_are_skipped(tmp_path):
    archive = tmp_path / "links.tar"
    with tarfile.open(archive, "w") as tar:
        link = tarfile.TarInfo("PMC1/passwd.jpg")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tar.addfile(link)
        hard = tarfile.TarInfo("PMC1/hard.jpg")
        hard.type, hard.linkname = tarfile.LNKTYPE, "/etc/shadow"
        tar.addfile(hard)
        for name, data in (("PMC1/../../escape.txt", b"x"), ("PMC1/a.nxml", b"<article/>")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    (source,) = iter_sources(archive)
    with source.open() as package:
        assert package.names() == ["PMC1/a.nxml"]
        assert package.xml_name == "PMC1/a.nxml"
        assert len(package.warnings) == 3
        assert any("passwd.jpg" in w and "link" in w for w in package.warnings)


def test_folder_symlink_outside_is_skipped(data_dir, tmp_path):
    folder = tmp_path / "PMC4657150"
    shutil.copytree(data_dir / "pmc_hindawi_xml_pdf" / "PMC4657150", folder)
    outside = tmp_path / "secret.txt"
    outside.write_text("secret")
    os.symlink(outside, folder / "leak.jpg")
    os.symlink(folder / "fulltext.pdf", folder / "inside.pdf")
    (source,) = iter_sources(folder)
    with source.open() as package:
        assert "leak.jpg" not in package.names() and "inside.pdf" in package.names()
        assert any("leak.jpg" in w for w in package.warnings)


def _zeros_zip(path: Path, size: int) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("article.xml", "<article/>")
        zf.writestr("fig1.tif", b"\0" * size)
    return path


def test_zip_bomb_is_refused_by_ratio(tmp_path):
    _zeros_zip(tmp_path / "bomb.zip", 20 * safety.MiB)
    (source,) = iter_sources(tmp_path)
    with source.open() as package:
        assert package.size("fig1.tif") == 20 * safety.MiB
        with pytest.raises(SourceError, match=r"bomb\.zip:fig1\.tif: compression ratio"):
            package.read_bytes("fig1.tif")
        assert package.read_bytes("article.xml") == b"<article/>"


def test_member_size_limits_are_enforced_on_read(tmp_path, monkeypatch):
    monkeypatch.setattr(safety, "MAX_ZIP_RATIO", 10**9)  # isolate the size limit from the ratio check
    _zeros_zip(tmp_path / "big.zip", 20 * safety.MiB)
    monkeypatch.setattr(safety, "MAX_MEMBER_BYTES", 1 * safety.MiB)
    (source,) = iter_sources(tmp_path)
    with source.open() as package, pytest.raises(SourceError, match=r"big\.zip:fig1\.tif.*limit"):
        package.read_bytes("fig1.tif")
    # read_capped does not trust the declared size: the stream itself is cut off.
    with pytest.raises(SourceError, match="limit"):
        safety.read_capped(io.BytesIO(b"x" * 100), 10, "x.zip:y")


def test_tar_package_limit(packages, tmp_path, monkeypatch):
    _pmc_tar_gz(packages, tmp_path / "PMC10802347.tar.gz")
    monkeypatch.setattr(safety, "MAX_PACKAGE_BYTES", 1000)
    (source,) = iter_sources(tmp_path)
    with pytest.raises(SourceError, match=r"PMC10802347\.tar\.gz.*package limit"):
        source.open()


def test_single_file_inputs(data_dir, packages):
    xml = data_dir / "pmc_hindawi_xml_pdf" / "PMC4657150" / "fulltext.xml"
    (source,) = iter_sources(xml)
    assert (source.key, source.kind) == ("fulltext", "file")
    with source.open() as package:
        assert (package.xml_name, package.pdf_name) == ("fulltext.xml", "fulltext.pdf")
        assert set(package.names()) == {"fulltext.xml", "fulltext.pdf", "eupmc_result.json"}
    nxml = packages / PMC_PARTIAL / "nihpp-2023.12.31.573776v1.nxml"
    (source,) = iter_sources(nxml)
    with source.open() as package:
        assert JPG in package.names() and package.pdf_name is None
    (source,) = iter_sources(xml.with_name("fulltext.pdf"))
    with source.open() as package:
        assert (package.pdf_name, package.xml_name) == ("fulltext.pdf", "fulltext.xml")
    with pytest.raises(SourceError, match="eupmc_result.json"):
        list(iter_sources(xml.with_name("eupmc_result.json")))
    with pytest.raises(SourceError, match="nope"):
        list(iter_sources(data_dir / "nope"))


def test_flat_folder_of_xml_files_gives_one_source_per_file(data_dir):
    sources = list(iter_sources(data_dir / "jats_xml_only"))
    assert len(sources) == 27 and all(s.kind == "file" for s in sources)
    assert len({s.key for s in sources}) == 27


def test_fingerprint_changes_only_when_a_file_changes(data_dir, tmp_path):
    folder = tmp_path / "corpus" / "PMC4657150"
    shutil.copytree(data_dir / "pmc_hindawi_xml_pdf" / "PMC4657150", folder)

    def fingerprint() -> str:
        (source,) = iter_sources(tmp_path / "corpus")
        return source.fingerprint

    first = fingerprint()
    assert fingerprint() == first
    pdf = folder / "fulltext.pdf"
    stat = pdf.stat()
    os.utime(pdf, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    touched = fingerprint()
    assert touched != first
    assert fingerprint() == touched
    (folder / "fig1.jpg").write_bytes(b"\xff\xd8")
    assert fingerprint() not in (first, touched)


def test_archive_fingerprint_changes_with_the_archive(packages, tmp_path):
    archive = _pmc_tar_gz(packages, tmp_path / "PMC10802347.tar.gz")
    (before,) = iter_sources(tmp_path)
    (again,) = iter_sources(tmp_path)
    assert before.fingerprint == again.fingerprint
    archive.write_bytes(archive.read_bytes() + b"\0" * 512)
    (after,) = iter_sources(tmp_path)
    assert after.fingerprint != before.fingerprint


def test_build_output_and_hidden_entries_are_ignored(data_dir, tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(data_dir / "pmc_hindawi_xml_pdf" / "PMC4657150", corpus / "PMC4657150")
    dataset = corpus / "dataset"
    shutil.copytree(data_dir / "pmc_hindawi_xml_pdf" / "PMC4691483", dataset / "PMC4691483")
    (dataset / "manifest.sqlite").write_bytes(b"")
    shutil.copytree(data_dir / "pmc_hindawi_xml_pdf" / "PMC4706923", corpus / ".hidden" / "PMC4706923")
    assert [s.key for s in iter_sources(corpus)] == ["PMC4657150"]
    with pytest.raises(SourceError, match="manifest.sqlite"):
        list(iter_sources(dataset))


def test_colliding_keys_are_made_unique(data_dir, tmp_path):
    for group in ("a", "b"):
        shutil.copytree(data_dir / "pmc_hindawi_xml_pdf" / "PMC4657150", tmp_path / group / "PMC4657150")
    assert [s.key for s in iter_sources(tmp_path)] == ["a/PMC4657150", "b/PMC4657150"]


def test_sources_pickle_and_compare(packages, tmp_path):
    _pmc_tar_gz(packages, tmp_path / "PMC10802347.tar.gz")
    sources = list(iter_sources(packages)) + list(iter_sources(tmp_path))
    restored = pickle.loads(pickle.dumps(sources))
    assert restored == sources and all(isinstance(s, ArticleSource) for s in restored)
    assert [s.key for s in restored][-1] == "PMC10802347" and restored[-1].kind == "tar"
    with restored[-1].open() as package:
        assert package.xml_name == "PMC10802347/nihpp-2023.12.31.573776v1.nxml"
        assert package.read_bytes(f"PMC10802347/{JPG}") == (packages / PMC_PARTIAL / JPG).read_bytes()


def test_closed_package_refuses_reads(data_dir):
    (source,) = iter_sources(data_dir / "pmc_hindawi_xml_pdf" / "PMC4657150")
    package = source.open()
    package.close()
    with pytest.raises(SourceError, match="closed"):
        package.read_bytes("fulltext.xml")

"""PMC's cloud service (AWS bucket ``pmc-oa-opendata``) as an article source.

Layout assumed (PMC Cloud Service after the 2026 restructuring; PMC's notice
of 2026-04-13 moved the legacy ``oa_comm/``, ``oa_noncomm/`` prefixes under
``deprecated/`` and they were removed in August 2026). Articles are flat
prefixes named by PMCID and version, each holding the article's own files::

    s3://pmc-oa-opendata/
        PMC7178664.1/PMC7178664.1.xml       JATS XML
        PMC7178664.1/PMC7178664.1.pdf       PDF, when there is one
        PMC7178664.1/PMC7178664.1.json      the article's metadata
        PMC7178664.1/materials-13-01719-g001.jpg ...   media: figures, supplements
        metadata/PMC7178664.1.json          the same metadata, listable in one prefix

The metadata JSON fields medfig reads: ``pmcid``, ``version``, ``license_code``
("CC BY", "CC BY-NC-ND", "CC0", ...), ``is_retracted``, ``xml_url`` (which
carries the XML's MD5 as ``?md5=``), and a last-updated date when present
(``last_updated``, ``updated``, ``mtime`` or ``date``; otherwise the metadata
object's LastModified). This is the shape public clients of the bucket read
(for example ``s3://pmc-oa-opendata/PMC9277667.1/PMC9277667.1.xml?md5=...`` in
xml_url); it is documented in docs/scale_out.md with where it came from.

Licence groups follow PMC's definition of its former directories:
``oa_comm`` = CC BY and CC0; ``oa_noncomm`` = every other Creative Commons
licence; ``oa_other`` = the rest. The listing keeps the newest version of each
PMCID; the article key is the PMCID, so a new version replaces the old one.

A local folder laid out the same way works too (``--source pmc-cloud DIR``).
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import parse_qs, urlparse

from medfig.records import SourceError
import medfig.sources.safety as safety
from medfig.sources.package import ArticlePackage, describe
from medfig.sources.registry import register_opener
from medfig.sources.source import ArticleSource

BUCKET = "s3://pmc-oa-opendata"
LICENCE_GROUPS = ("oa_comm", "oa_noncomm", "oa_other")
_ARTICLE = re.compile(r"^(PMC\d+)\.(\d+)$")
_METADATA_NAME = re.compile(r"^(PMC\d+)\.(\d+)\.json$")
_DATE_FIELDS = ("last_updated", "updated", "mtime", "date")
LIST_BATCH = 500  # metadata objects fetched concurrently per request batch


def licence_group(licence_code: str | None) -> str:
    code = (licence_code or "").strip().upper().replace("-", " ")
    if code in ("CC BY", "CC0", "CC 0") or re.fullmatch(r"CC BY \d\.\d", code):
        return "oa_comm"
    if code.startswith("CC"):
        return "oa_noncomm"
    return "oa_other"


@dataclass
class PmcCloudQuery:
    root: str = BUCKET  # s3://bucket[/prefix] or a local folder with the same layout
    licence_groups: tuple[str, ...] = LICENCE_GROUPS
    updated_since: str | None = None  # ISO date; articles updated before it are left out
    pmcids: list[str] | None = None
    endpoint_url: str | None = None  # an S3-compatible server instead of AWS
    skipped: dict = field(default_factory=dict)  # reason -> count, filled while listing

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> "PmcCloudQuery":
        pmcids = None
        if args.pmcids:
            with open(args.pmcids, encoding="utf-8") as handle:
                pmcids = [line.strip() for line in handle if line.strip() and not line.startswith("#")]
        return cls(root=args.input.rstrip("/"), licence_groups=tuple(args.licence_group or LICENCE_GROUPS),
                   updated_since=args.updated_since, pmcids=pmcids, endpoint_url=args.endpoint_url)


def filesystem(root: str, endpoint_url: str | None):
    """An fsspec filesystem for ``root``: anonymous S3 (the bucket is world-readable) or local."""
    import fsspec

    if root.startswith("s3://"):
        kwargs = {"anon": True}
        if endpoint_url:
            kwargs["client_kwargs"] = {"endpoint_url": endpoint_url}
        return fsspec.filesystem("s3", **kwargs), root[len("s3://"):]
    return fsspec.filesystem("file"), root


def _date(meta: dict, fallback) -> str | None:
    for name in _DATE_FIELDS:
        if meta.get(name):
            return str(meta[name])
    if isinstance(fallback, datetime):
        return fallback.isoformat()
    return str(fallback) if fallback else None


def _xml_md5(meta: dict) -> str | None:
    url = meta.get("xml_url")
    if not url:
        return None
    return (parse_qs(urlparse(url).query).get("md5") or [None])[0]


def _latest_versions(names: list[str], pattern: re.Pattern) -> dict[str, tuple[int, str]]:
    latest: dict[str, tuple[int, str]] = {}
    for name in names:
        m = pattern.match(name.rstrip("/").rsplit("/", 1)[-1])
        if m and int(m.group(2)) > latest.get(m.group(1), (-1, ""))[0]:
            latest[m.group(1)] = (int(m.group(2)), name)
    return latest


def _list_metadata(fs, base: str, query: PmcCloudQuery) -> dict[str, tuple[int, str, object]]:
    """pmcid -> (version, metadata path, last modified) for the newest version of each article."""
    if query.pmcids is not None:
        found = {}
        for pmcid in query.pmcids:
            prefixes = [p for p in fs.glob(f"{base}/{pmcid}.*") if _ARTICLE.match(p.rsplit("/", 1)[-1])]
            latest = _latest_versions(prefixes, _ARTICLE).get(pmcid)
            if latest is None:
                query.skipped["PMCID not in the bucket"] = query.skipped.get("PMCID not in the bucket", 0) + 1
                continue
            version, prefix = latest
            found[pmcid] = (version, f"{prefix}/{pmcid}.{version}.json", None)
        return found
    try:
        entries = fs.ls(f"{base}/metadata", detail=True)
    except FileNotFoundError as exc:
        raise SourceError(f"{query.root}: no metadata/ listing (is this a PMC cloud bucket?)") from exc
    by_name = {e["name"]: e for e in entries}
    latest = _latest_versions(list(by_name), _METADATA_NAME)
    return {pmcid: (version, path, by_name[path].get("LastModified") or by_name[path].get("mtime"))
            for pmcid, (version, path) in latest.items()}


def iter_pmc_cloud(query: PmcCloudQuery) -> Iterator[ArticleSource]:
    """Sources for the articles the query selects, in PMCID order; retracted ones are marked, not hidden."""
    fs, base = filesystem(query.root, query.endpoint_url)
    listing = _list_metadata(fs, base, query)
    items = sorted(listing.items())
    for start in range(0, len(items), LIST_BATCH):
        batch = items[start:start + LIST_BATCH]
        blobs = fs.cat([path for _, (_, path, _) in batch], on_error="return")
        for pmcid, (version, path, modified) in batch:
            blob = blobs.get(path)
            if isinstance(blob, Exception) or blob is None:
                query.skipped["metadata unreadable"] = query.skipped.get("metadata unreadable", 0) + 1
                continue
            try:
                meta = json.loads(blob)
            except ValueError:
                query.skipped["metadata not JSON"] = query.skipped.get("metadata not JSON", 0) + 1
                continue
            group = licence_group(meta.get("license_code"))
            if group not in query.licence_groups:
                query.skipped[f"licence group {group}"] = query.skipped.get(f"licence group {group}", 0) + 1
                continue
            updated = _date(meta, modified)
            if query.updated_since and updated and updated[:10] < query.updated_since[:10]:
                query.skipped["not updated since"] = query.skipped.get("not updated since", 0) + 1
                continue
            article = f"{pmcid}.{version}"
            scheme = "s3://" if query.root.startswith("s3://") else ""
            fingerprint = f"{article}:{_xml_md5(meta) or updated or ''}"
            yield ArticleSource(
                key=pmcid, container=f"{scheme}{base}/{article}", kind="pmc-cloud", fingerprint=fingerprint,
                pmcid=pmcid, status="retracted" if meta.get("is_retracted") else "", updated=updated,
                endpoint=query.endpoint_url,
            )


class RemotePackage(ArticlePackage):
    """One article prefix of the bucket, read member by member through fsspec."""

    def __init__(self, source: ArticleSource, fs, base: str, sizes: dict[str, int], warnings: list[str]) -> None:
        super().__init__(source, sizes, warnings)
        self._fs = fs
        self._base = base

    def _read(self, name: str, limit: int, where: str) -> bytes:
        with self._fs.open(f"{self._base}/{name}", "rb") as handle:
            return safety.read_capped(handle, limit, where)

    def _read_head(self, name: str, n: int) -> bytes:
        with self._fs.open(f"{self._base}/{name}", "rb") as handle:
            return handle.read(n)


def open_pmc_cloud(source: ArticleSource) -> RemotePackage:
    fs, base = filesystem(source.container, source.endpoint)
    try:
        entries = fs.ls(base, detail=True)
    except (OSError, ValueError) as exc:
        raise SourceError(f"{source.container}: cannot list the article ({describe(exc)})") from exc
    sizes, warnings = {}, []
    for entry in entries:
        if entry.get("type") != "file":
            continue
        name = entry["name"].rsplit("/", 1)[-1]
        if name.endswith(".json") or safety.safe_member_name(name) is None:
            continue  # the metadata file is not article content
        sizes[name] = int(entry.get("size") or 0)
    if len(sizes) > safety.MAX_MEMBERS:
        raise SourceError(f"{source.container}: more than {safety.MAX_MEMBERS} files; refused")
    package = RemotePackage(source, fs, base, sizes, warnings)
    package._choose_main_files()
    return package


register_opener("pmc-cloud", open_pmc_cloud)

"""``medfig serve``: a small server-rendered web app over a dataset's search index.

Pages: ``/`` (search box, filters, a grid of panel crops), ``/figure/{doc_id}`` (the
whole figure with coloured panel boxes, subcaptions in the same colours, citing
sentences with the cited panel highlighted, licence and attribution). JSON:
``/api/search``. Images: ``/img/figure/{doc_id}``, ``/img/panel/{doc_id}``, looked up
by id in the index, so a URL can never name a file. Every response carries a
Content-Security-Policy that lets the page load nothing from another origin.

The search state lives in the URL, as in the Hugging Face dataset viewer: ``q``, the filters
(``modality``, ``licence``, ``year_from``, ``year_to``, ``kind``, ``mode``), ``page``, ``per_page``
and ``one`` (one result per figure). Result links carry it to the figure page, which links back to
the results and to the previous and next result; a new query typed anywhere keeps the filters.

Numbers from the URL are checked before they reach the index: a document id past
SQLite's 64-bit range is a 404 like any unknown id, and a year outside 1..9999 or a
year or ``k`` that is not a number is a 400, never a 500.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from medfig.records import MedfigError
from medfig.search.licences import licence_name
from medfig.search.modality import canonical_modality
from medfig.search.query import Filters, SearchIndex, attribution_for
from medfig.search.results import PageRequest
from medfig.search.querytext import MAX_QUERY_CHARS
from medfig.web.images import MEDIA_TYPES, crop_png, safe_dataset_file, thumbnail_jpeg

HERE = Path(__file__).resolve().parent
MAX_K = 100
PER_PAGE = 24
FILTER_KEYS = ("modality", "licence", "year_from", "year_to", "kind", "mode", "one", "all")
STATE_KEYS = ("q", *FILTER_KEYS, "page", "per_page")
MAX_DOC_ID = 2**63 - 1  # SQLite's INTEGER; a larger id names no document
MAX_YEAR = 9999
PANEL_COLOURS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#0aa5a5", "#d4a017", "#f032e6"]
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


class SecurityHeaders(BaseHTTPMiddleware):
    async def dispatch(self, request, call_next):
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response


def _int_param(params, name: str, low: int, high: int | None = None) -> int | None:
    """An integer query parameter (None when absent or empty); MedfigError (a 400) when not a number in range."""
    value = (params.get(name) or "").strip()
    if not value:
        return None
    try:
        number = int(value)
    except ValueError:
        raise MedfigError(f"{name}: expected a whole number, got {value[:40]!r}") from None
    if number < low or (high is not None and number > high):
        raise MedfigError(f"{name}: expected a number from {low} to {high}, got {value[:40]!r}"
                          if high is not None else f"{name}: expected a number >= {low}, got {value[:40]!r}")
    return number


def search_state(params) -> dict[str, str]:
    """The search state of a URL (query, filters, page), non-empty values only, in a fixed order."""
    return {key: params.get(key) for key in STATE_KEYS if params.get(key)}


def state_url(path: str, state: dict[str, str], **changes) -> str:
    merged = {**state, **{k: str(v) for k, v in changes.items() if v not in (None, "")}}
    for key, value in changes.items():
        if value in (None, ""):
            merged.pop(key, None)
    query = urlencode({k: merged[k] for k in STATE_KEYS + ("panel",) if merged.get(k)})
    return path + ("?" + query if query else "")


def _filters_from(params) -> Filters:
    return Filters(modality=params.get("modality") or None, concept=params.get("concept") or None,
                   licence=params.get("licence") or None, year_from=_int_param(params, "year_from", 1, MAX_YEAR),
                   year_to=_int_param(params, "year_to", 1, MAX_YEAR), kind=params.get("kind") or None)


def figure_url(hit, state: dict[str, str]) -> str:
    """A result's figure page, with its panel selected and the search state kept."""
    panel = hit.doc.doc_key.split("#", 1)[1].lower() if hit.doc.kind == "panel" else None
    return state_url(f"/figure/{hit.doc_id}", state, panel=panel)


def article_links(doc) -> list[tuple[str, str]]:
    links = []
    if doc.doi:
        links.append(("DOI " + doc.doi, f"https://doi.org/{doc.doi}"))
    if doc.pmcid:
        links.append((doc.pmcid, f"https://pmc.ncbi.nlm.nih.gov/articles/{doc.pmcid}/"))
    return links


def create_app(dataset: str | Path, index_dir: str | Path | None = None, *, warm: bool = True) -> Starlette:
    """The ASGI app for one indexed dataset. ``warm`` loads the sentence model before the first query."""
    root = Path(dataset).resolve()
    index = SearchIndex.open(root, index_dir=index_dir)
    if warm and index.has_dense:
        index.dense("warm up", n=1)
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.globals.update(licence_name=licence_name, colours=PANEL_COLOURS, max_query=MAX_QUERY_CHARS)
    facets = {"modality": [v for v, _ in index.facet_values("modality")],
              "licence": [v for v, _ in index.facet_values("licence")]}

    def error_page(request: Request, status: int, message: str) -> Response:
        return templates.TemplateResponse(request, "error.html", {"message": message}, status_code=status)

    def _query(params) -> tuple[str, PageRequest, str, Filters]:
        q = (params.get("q") or "").strip()
        if len(q) > MAX_QUERY_CHARS:
            raise MedfigError(f"query too long ({len(q)} characters; at most {MAX_QUERY_CHARS})")
        per_page = min(_int_param(params, "per_page", 1) or _int_param(params, "k", 1) or PER_PAGE, MAX_K)
        request = PageRequest(page=_int_param(params, "page", 1, 10_000) or 1, per_page=per_page,
                              one_per_figure=params.get("one") == "1", diversify=params.get("all") != "1")
        mode = params.get("mode") or "fused"
        if mode == "dense" and not index.has_dense:
            mode = "bm25"
        return q, request, mode, _filters_from(params)

    def home(request: Request) -> Response:
        params = request.query_params
        try:
            q, page_request, mode, filters = _query(params)
            result = index.search_page(q, page_request, filters=filters, mode=mode) if q else None
        except MedfigError as exc:
            return error_page(request, 400, str(exc))
        state = search_state(params)
        return templates.TemplateResponse(request, "search.html", {
            "q": q, "result": result, "hits": result.hits if result else [], "params": params, "facets": facets,
            "mode": mode, "has_dense": index.has_dense, "n_docs": index.count(), "state": state,
            "selected_modality": canonical_modality(params.get("modality")) or "",
            "page_url": lambda number: state_url("/", state, page=number),
            "figure_url": lambda hit: figure_url(hit, state),
        })

    def api_search(request: Request) -> Response:
        try:
            q, page_request, mode, filters = _query(request.query_params)
            result = index.search_page(q, page_request, filters=filters, mode=mode)
        except MedfigError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse({"query": q, "mode": mode, "total": result.total, "figures": result.figures,
                             "articles": result.articles, "page": result.page, "per_page": result.per_page,
                             "pages": result.pages, "results": [h.to_dict() for h in result.hits]})

    def doc_of(request: Request):
        """The document the URL's id names, or None (also for an id no document can have)."""
        doc_id = request.path_params["doc_id"]
        return index.doc(doc_id) if 0 <= doc_id <= MAX_DOC_ID else None

    def figure_page(request: Request) -> Response:
        doc_id = request.path_params["doc_id"]
        doc = doc_of(request)
        if doc is None:
            return error_page(request, 404, f"no figure or panel with id {doc_id}")
        members = index.figure_docs(doc.article_key, doc.figure_id)
        # A panel is identified by its key (the doc_key part after "#": "b", "c.2" or "panel4"), so an
        # unlabelled panel, or a letter the splitter read twice, can still be selected and coloured.
        panels = [(pid, p, p.doc_key.split("#", 1)[1].lower()) for pid, p in members if p.kind == "panel"]
        wanted = (request.query_params.get("panel") or "")[:16].lower()
        chosen = next((t for t in panels if t[2] == wanted), None) or \
            next((t for t in panels if wanted and (t[1].panel_label or "").lower() == wanted), None) or \
            next((t for t in panels if t[0] == doc_id), None)
        selected = chosen[2] if chosen else ""
        selected_label = (chosen[1].panel_label or "").lower() if chosen else ""
        shown_label = (chosen[1].panel_label or f"panel {panels.index(chosen) + 1}") if chosen else ""
        # All citing sentences of the figure, once each, with the panels each names.
        refs, seen = [], set()
        for _, member in members:
            for ref in member.refs:
                key = (ref["sentence"], ref["mention"])
                if key not in seen:
                    seen.add(key)
                    refs.append(ref)
        colour_of = {key: i % len(PANEL_COLOURS) for i, (_, _, key) in enumerate(panels)}
        colour_of_label: dict[str, int] = {}
        for _, p, key in panels:
            if p.panel_label:
                colour_of_label.setdefault(p.panel_label.lower(), colour_of[key])
        shown_refs = []
        for ref in refs:
            sentence, mention = ref["sentence"], ref["mention"]
            at = sentence.find(mention) if mention else -1
            named = [p.lower() for p in ref["panels"]]
            shown_refs.append({
                "before": sentence[:at] if at >= 0 else sentence, "mention": mention if at >= 0 else "",
                "after": sentence[at + len(mention):] if at >= 0 else "", "section": ref.get("section"),
                "panels": named, "cites_selected": bool(selected_label) and selected_label in named,
            })
        state = search_state(request.query_params)
        shown = chosen[1] if chosen else doc  # the selected panel names the heading and the attribution
        return templates.TemplateResponse(request, "figure.html", {
            "doc": doc, "doc_id": doc_id, "panels": panels, "selected": selected, "shown_label": shown_label,
            "refs": shown_refs, "colour_of": colour_of, "colour_of_label": colour_of_label,
            "attribution": attribution_for(shown), "attributions": {key: attribution_for(p) for _, p, key in panels},
            "links": article_links(doc), "nav": result_neighbours(doc_id, state), "state": state,
            "panel_url": lambda key: state_url(f"/figure/{doc_id}", state, panel=key),
            "download_id": chosen[0] if chosen else doc_id,
            "pdf_url": f"/pdf/{doc_id}#page={doc.pdf_page + 1}" if doc.pdf_page is not None and pdf_of(doc) else None,
            "has_image": safe_dataset_file(root, doc.image_path) is not None,
            "concepts": sorted({c for _, m in members for c in m.concepts}),
            "modalities": sorted({c for _, m in members for c in m.modalities}),
        })

    def result_neighbours(doc_id: int, state: dict[str, str]) -> dict:
        """Back-to-results, previous and next result of the search the user came from (URL state)."""
        nav = {"back": state_url("/", state) if state.get("q") else None, "prev": None, "next": None, "position": ""}
        if not state.get("q"):
            return nav
        try:
            q, page_request, mode, filters = _query(state)
            result = index.search_page(q, page_request, filters=filters, mode=mode)
        except MedfigError:
            return nav
        ids = [h.doc_id for h in result.hits]
        if doc_id not in ids:
            return nav
        at = ids.index(doc_id)
        nav["position"] = f"result {result.hits[at].rank} of {result.total}"

        def neighbour(page: int, pick: int):
            if page < 1 or page > result.pages:
                return None
            hits = result.hits if page == result.page else index.search_page(
                q, PageRequest(page=page, per_page=page_request.per_page, one_per_figure=page_request.one_per_figure,
                               diversify=page_request.diversify), filters=filters, mode=mode).hits
            if not hits:
                return None
            hit = hits[pick]
            return figure_url(hit, {**state, "page": str(page)} if page != 1 else
                              {k: v for k, v in state.items() if k != "page"})

        nav["prev"] = figure_url(result.hits[at - 1], state) if at > 0 else neighbour(result.page - 1, -1)
        nav["next"] = figure_url(result.hits[at + 1], state) if at + 1 < len(ids) else neighbour(result.page + 1, 0)
        return nav

    def pdf_of(doc) -> Path | None:
        """The article's PDF as the dataset was built from it (articles table), when it is still there."""
        if not doc.pdf_source or not doc.pdf_source.lower().endswith(".pdf"):
            return None
        path = Path(doc.pdf_source)
        candidates = [path] if path.is_absolute() else [root / path, Path.cwd() / path]
        return next((c for c in candidates if c.is_file()), None)

    def attachment(doc, suffix: str) -> dict[str, str]:
        name = f"{doc.article_key}_{doc.doc_key.split('/', 1)[1].replace('#', '_')}{suffix}"
        safe = "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in name)
        return {"Content-Disposition": f'attachment; filename="{safe}"'}

    def figure_image(request: Request) -> Response:
        doc = doc_of(request)
        path = safe_dataset_file(root, doc.image_path) if doc else None
        if path is None:
            return Response("no image", status_code=404, media_type="text/plain")
        headers = attachment(doc, path.suffix.lower()) if request.query_params.get("download") else None
        return FileResponse(path, media_type=MEDIA_TYPES[path.suffix.lower()], headers=headers)

    def article_pdf(request: Request) -> Response:
        doc = doc_of(request)
        path = pdf_of(doc) if doc else None
        if path is None:
            return Response("no PDF for this article", status_code=404, media_type="text/plain")
        return FileResponse(path, media_type="application/pdf")

    def panel_image(request: Request) -> Response:
        doc = doc_of(request)
        if doc is None:
            return Response("no such panel", status_code=404, media_type="text/plain")
        download = bool(request.query_params.get("download"))
        crop = safe_dataset_file(root, doc.crop_path)
        if crop is not None:
            return FileResponse(crop, media_type=MEDIA_TYPES[crop.suffix.lower()],
                                headers=attachment(doc, crop.suffix.lower()) if download else None)
        image = safe_dataset_file(root, doc.image_path)
        if image is None:
            return Response("no image", status_code=404, media_type="text/plain")
        if not doc.box_px:
            return FileResponse(image, media_type=MEDIA_TYPES[image.suffix.lower()],
                                headers=attachment(doc, image.suffix.lower()) if download else None)
        try:
            return Response(crop_png(image, tuple(doc.box_px), full_size=download), media_type="image/png",
                            headers=attachment(doc, ".png") if download else None)
        except (ValueError, OSError) as exc:
            return Response(f"cannot crop: {exc}", status_code=404, media_type="text/plain")

    def thumb_image(request: Request) -> Response:
        """Grid thumbnail: the panel crop file, else the panel box cut from the figure, else the figure."""
        doc = doc_of(request)
        if doc is None:
            return Response("no such document", status_code=404, media_type="text/plain")
        crop = safe_dataset_file(root, doc.crop_path)
        source, box = (crop, None) if crop is not None else (safe_dataset_file(root, doc.image_path), doc.box_px)
        if source is None:
            return Response("no image", status_code=404, media_type="text/plain")
        try:
            data = thumbnail_jpeg(source, tuple(box) if box else None, source.stat().st_mtime_ns)
        except (ValueError, OSError) as exc:
            return Response(f"cannot make a thumbnail: {exc}", status_code=404, media_type="text/plain")
        return Response(data, media_type="image/jpeg", headers={"Cache-Control": "private, max-age=3600"})

    def health(request: Request) -> Response:
        return JSONResponse({"documents": index.count(), "dense": index.has_dense})

    routes = [
        Route("/", home),
        Route("/api/search", api_search),
        Route("/figure/{doc_id:int}", figure_page),
        Route("/img/figure/{doc_id:int}", figure_image),
        Route("/img/panel/{doc_id:int}", panel_image),
        Route("/img/thumb/{doc_id:int}", thumb_image),
        Route("/pdf/{doc_id:int}", article_pdf),
        Route("/healthz", health),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(SecurityHeaders)])
    app.state.index = index
    app.state.dataset = root
    return app

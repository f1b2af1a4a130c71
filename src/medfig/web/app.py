"""``medfig serve``: a small server-rendered web app over a dataset's search index.

Pages: ``/`` (search box, filters, a grid of panel crops), ``/figure/{doc_id}`` (the
whole figure with coloured panel boxes, subcaptions in the same colours, citing
sentences with the cited panel highlighted, licence and attribution). JSON:
``/api/search``. Images: ``/img/figure/{doc_id}``, ``/img/panel/{doc_id}``, looked up
by id in the index, so a URL can never name a file. Every response carries a
Content-Security-Policy that lets the page load nothing from another origin.

Numbers from the URL are checked before they reach the index: a document id past
SQLite's 64-bit range is a 404 like any unknown id, and a year outside 1..9999 or a
year or ``k`` that is not a number is a 400, never a 500.
"""

from __future__ import annotations

from pathlib import Path

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
from medfig.search.query import Filters, SearchIndex
from medfig.search.querytext import MAX_QUERY_CHARS
from medfig.web.images import MEDIA_TYPES, crop_png, safe_dataset_file, thumbnail_jpeg

HERE = Path(__file__).resolve().parent
MAX_K = 100
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


def _filters_from(params) -> Filters:
    return Filters(modality=params.get("modality") or None, concept=params.get("concept") or None,
                   licence=params.get("licence") or None, year_from=_int_param(params, "year_from", 1, MAX_YEAR),
                   year_to=_int_param(params, "year_to", 1, MAX_YEAR), kind=params.get("kind") or None)


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

    def _query(params) -> tuple[str, int, str, Filters]:
        q = (params.get("q") or "").strip()
        if len(q) > MAX_QUERY_CHARS:
            raise MedfigError(f"query too long ({len(q)} characters; at most {MAX_QUERY_CHARS})")
        k = min(_int_param(params, "k", 1) or 24, MAX_K)
        mode = params.get("mode") or "fused"
        if mode == "dense" and not index.has_dense:
            mode = "bm25"
        return q, k, mode, _filters_from(params)

    def home(request: Request) -> Response:
        params = request.query_params
        try:
            q, k, mode, filters = _query(params)
            hits = index.search(q, k=k, filters=filters, mode=mode) if q else []
        except MedfigError as exc:
            return error_page(request, 400, str(exc))
        return templates.TemplateResponse(request, "search.html", {
            "q": q, "hits": hits, "params": params, "facets": facets, "mode": mode, "k": k,
            "has_dense": index.has_dense, "n_docs": index.count(),
        })

    def api_search(request: Request) -> Response:
        try:
            q, k, mode, filters = _query(request.query_params)
            hits = index.search(q, k=k, filters=filters, mode=mode)
        except MedfigError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse({"query": q, "mode": mode, "results": [h.to_dict() for h in hits]})

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
        from medfig.search.query import attribution_for

        return templates.TemplateResponse(request, "figure.html", {
            "doc": doc, "doc_id": doc_id, "panels": panels, "selected": selected, "shown_label": shown_label,
            "refs": shown_refs, "colour_of": colour_of, "colour_of_label": colour_of_label, "attribution": attribution_for(doc), "links": article_links(doc),
            "has_image": safe_dataset_file(root, doc.image_path) is not None,
            "concepts": sorted({c for _, m in members for c in m.concepts}),
            "modalities": sorted({c for _, m in members for c in m.modalities}),
        })

    def figure_image(request: Request) -> Response:
        doc = doc_of(request)
        path = safe_dataset_file(root, doc.image_path) if doc else None
        if path is None:
            return Response("no image", status_code=404, media_type="text/plain")
        return FileResponse(path, media_type=MEDIA_TYPES[path.suffix.lower()])

    def panel_image(request: Request) -> Response:
        doc = doc_of(request)
        if doc is None:
            return Response("no such panel", status_code=404, media_type="text/plain")
        crop = safe_dataset_file(root, doc.crop_path)
        if crop is not None:
            return FileResponse(crop, media_type=MEDIA_TYPES[crop.suffix.lower()])
        image = safe_dataset_file(root, doc.image_path)
        if image is None:
            return Response("no image", status_code=404, media_type="text/plain")
        if not doc.box_px:
            return FileResponse(image, media_type=MEDIA_TYPES[image.suffix.lower()])
        try:
            return Response(crop_png(image, tuple(doc.box_px)), media_type="image/png")
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
        Route("/healthz", health),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(SecurityHeaders)])
    app.state.index = index
    app.state.dataset = root
    return app

"""``medfig serve DATASET``: the search web app, on 127.0.0.1 unless told otherwise."""

from __future__ import annotations

import argparse
import sys


def run(args: argparse.Namespace) -> int:
    from medfig.records import MedfigError

    try:
        import uvicorn

        from medfig.web.app import create_app
    except ImportError as exc:
        print(f"medfig serve: the web app needs its extra ({exc.name} missing): pip install 'medfig[web]'",
              file=sys.stderr)
        return 2
    try:
        app = create_app(args.dataset)
    except MedfigError as exc:
        print(f"medfig serve: {exc}", file=sys.stderr)
        return 2
    index = app.state.index
    print(f"medfig serve: {index.count()} panels/figures from {args.dataset} "
          f"({'BM25 + dense' if index.has_dense else 'BM25 only'}) on http://{args.host}:{args.port}/", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning" if args.quiet else "info")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from medfig.commands import _args

    p = sub.add_parser("serve", help="browse and search an indexed dataset in a web browser")
    p.add_argument("dataset", help="a dataset folder with a search index (`medfig index DATASET`)")
    p.add_argument("--port", type=_args.port, default=8000, help="port (default 8000)")
    p.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1: this machine only)")
    p.add_argument("-q", "--quiet", action="store_true", help="log warnings only")
    p.set_defaults(func=run)

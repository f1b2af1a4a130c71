"""``medfig serve DATASET``: the search web app, on 127.0.0.1 unless told otherwise."""

from __future__ import annotations

import argparse
import errno
import socket
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
    # Take the port before loading anything: a busy port is a one-line error at once, not after the index
    # and the sentence model have loaded (17 s). The bound socket is handed to uvicorn, so no other
    # process can take the port in between.
    try:
        listener = _bind(args.host, args.port)
    except OSError as exc:
        reason = "already in use" if exc.errno == errno.EADDRINUSE else (exc.strerror or str(exc))
        print(f"medfig serve: cannot listen on {args.host}:{args.port}: {reason} (choose another with --port)",
              file=sys.stderr)
        return 2
    try:
        app = create_app(args.dataset)
    except MedfigError as exc:
        listener.close()
        print(f"medfig serve: {exc}", file=sys.stderr)
        return 2
    index = app.state.index
    print(f"medfig serve: {index.count()} panels/figures from {args.dataset} "
          f"({'BM25 + dense' if index.has_dense else 'BM25 only'}) on http://{args.host}:{args.port}/", flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning" if args.quiet else "info"))
    server.run(sockets=[listener])
    return 0


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn: TIME_WAIT is not "in use"
        listener.bind((host, port))
        listener.listen(2048)
    except OSError:
        listener.close()
        raise
    listener.set_inheritable(True)
    return listener


def register(sub: argparse._SubParsersAction) -> None:
    from medfig.commands import _args

    p = sub.add_parser("serve", help="browse and search an indexed dataset in a web browser")
    p.add_argument("dataset", help="a dataset folder with a search index (`medfig index DATASET`)")
    p.add_argument("--port", type=_args.port, default=8000, help="port (default 8000)")
    p.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1: this machine only)")
    p.add_argument("-q", "--quiet", action="store_true", help="log warnings only")
    p.set_defaults(func=run)

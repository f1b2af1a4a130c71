"""``medfig compound IMAGE --caption TEXT [--json] [--preview OUT.png]``: split one figure."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def run(args: argparse.Namespace) -> int:
    from medfig.compound import analyze_compound
    from medfig.images import ImageError, decode_image, flat_rgb

    path = Path(args.image)
    caption = args.caption
    if args.caption_file:
        try:
            caption = Path(args.caption_file).read_text(encoding="utf-8")
        except OSError as exc:
            print(f"medfig compound: {args.caption_file}: cannot read caption ({exc.strerror})", file=sys.stderr)
            return 2
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        print(f"medfig compound: {path}: no such file", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"medfig compound: {path}: cannot read ({exc.strerror})", file=sys.stderr)
        return 2
    try:
        # the build's decoder: size limits, and TIFFs Pillow cannot open (eLife LZW/16-bit)
        image, _ = decode_image(data, path.name)
        image = flat_rgb(image)
    except (ImageError, OSError, ValueError) as exc:
        print(f"medfig compound: {path}: not a readable image ({exc})", file=sys.stderr)
        return 2
    result = analyze_compound(image, caption or "", alignment=args.alignment)
    if args.preview:
        from medfig.compound.preview import draw_preview

        draw_preview(image, result).save(args.preview)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(f"{path}: {'compound, ' + str(len(result.subfigures)) + ' panels' if result.compound else 'single panel'}")
        for s in result.subfigures:
            print(f"  {s.label or '?':>6}  {s.box_px}  score {s.score:.2f}  [{s.label_source}]  {s.subcaption[:90]}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("compound", help="split a compound figure into panels with labels and subcaptions")
    p.add_argument("image", help="figure image (PNG, JPEG, TIFF, GIF, ...)")
    p.add_argument("--caption", default="", help="the figure caption (for subcaptions)")
    p.add_argument("--caption-file", help="read the caption from this UTF-8 file instead")
    p.add_argument("--json", action="store_true", help='print {"compound": ..., "subfigures": [...]} as JSON')
    p.add_argument("--preview", metavar="OUT.png", help="draw coloured boxes with their subcaptions into OUT.png")
    p.add_argument(
        "--alignment", choices=("label", "heuristic"), default="label",
        help="label: OCR panel letters (default); heuristic: MedICaT's row heuristic",
    )
    p.set_defaults(func=run)

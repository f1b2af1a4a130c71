"""Cluster drawn objects (raster placements and vector paths) into graphic blocks.

Objects closer than a few points belong together: the panels of a multi-panel figure
placed as separate images, the hundreds of paths of a chart. Clustering is done on a
1 px/pt occupancy mask with OpenCV's connected components, which is linear in the page
area instead of quadratic in the number of paths.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from medfig.geometry import PointBox, union
from medfig.pdf.types import Graphic, PageData

JOIN_GAP_PT = 10.0  # panels of one figure sit closer than this; separate figures are farther apart


@dataclass(slots=True)
class GraphicCluster:
    box: PointBox  # union of the member objects, PDF points, origin top-left
    members: list[Graphic]

    @property
    def n_images(self) -> int:
        return sum(1 for g in self.members if g.kind == "image")

    @property
    def only_rules(self) -> bool:
        """Only thin paths: table rules, separators, underlines — not a figure on its own."""
        return all(g.kind == "path" and g.thin for g in self.members)


def _components(page: PageData, graphics: list[Graphic], gap: float) -> list[list[Graphic]]:
    w, h = int(np.ceil(page.width)) + 1, int(np.ceil(page.height)) + 1
    mask = np.zeros((h, w), dtype=np.uint8)
    half = gap / 2.0
    for g in graphics:
        x0, y0, x1, y1 = g.box
        cv2.rectangle(mask, (int(max(0, x0 - half)), int(max(0, y0 - half))),
                      (int(min(w - 1, x1 + half)), int(min(h - 1, y1 + half))), 255, thickness=-1)
    _, labels = cv2.connectedComponents(mask, connectivity=8)
    groups: dict[int, list[Graphic]] = {}
    for g in graphics:
        cx = int(min(w - 1, max(0, (g.box[0] + g.box[2]) / 2)))
        cy = int(min(h - 1, max(0, (g.box[1] + g.box[3]) / 2)))
        groups.setdefault(int(labels[cy, cx]), []).append(g)
    return list(groups.values())


def cluster_graphics(page: PageData, graphics: list[Graphic] | None = None, gap: float = JOIN_GAP_PT) -> list[GraphicCluster]:
    """Art (images, filled or sizeable paths) is clustered with a ``gap`` tolerance; thin
    paths (rules, axes, ticks) join an art cluster only when they touch it, so a separator
    rule a few points above a figure does not become part of it. Thin paths touching no
    art form clusters of their own (``only_rules``: table rules, page separators)."""
    graphics = page.graphics if graphics is None else graphics
    if not graphics:
        return []
    art = [g for g in graphics if not g.thin]
    thin = [g for g in graphics if g.thin]
    clusters = [GraphicCluster(union(m.box for m in members), members) for members in _components(page, art, gap)] if art else []
    loose: list[Graphic] = []
    for g in thin:
        host = next((c for c in clusters if _touches(g.box, c.box, 1.0)), None)
        if host is None:
            loose.append(g)
        else:
            host.members.append(g)
            host.box = union([host.box, g.box])
    if loose:
        clusters += [GraphicCluster(union(m.box for m in members), members) for members in _components(page, loose, gap)]
    return clusters


def _touches(a: PointBox, b: PointBox, tol: float) -> bool:
    return a[0] <= b[2] + tol and b[0] <= a[2] + tol and a[1] <= b[3] + tol and b[1] <= a[3] + tol

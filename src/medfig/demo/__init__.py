"""Synthetic PMC-like articles (JATS XML, PDF, figure files) with exact ground truth.

See :mod:`medfig.demo.corpus` and ``docs/demo_ground_truth.md``.
"""

from medfig.demo.corpus import GROUND_TRUTH, write_article, write_demo_corpus

__all__ = ["GROUND_TRUTH", "write_article", "write_demo_corpus"]

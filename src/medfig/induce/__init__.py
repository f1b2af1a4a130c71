"""Label induction: ground-truth figure/table boxes from JATS + PDF (+ figure files).

``medfig induce ARTICLE_DIR`` locates every JATS caption in the PDF text (Wagner–Fischer
alignment with free ends, :mod:`.align`), every figure file on its rendered page
(multi-scale template matching, :mod:`.templates`), every XML table by DeepFigures'
bag-of-words interval search (:mod:`.tables`), and falls back to a whitespace band next
to the caption (:mod:`.bands`). Independent of medfig's extractor: no layout detector,
nothing from ``medfig.pdf``. Output: the JSON schema ``medfig extract`` writes
(:mod:`.writer`), readable as gold by ``medfig evaluate figures``.

Boxes: PDF points, origin top-left of the page, [x0, y0, x1, y1]; pages 0-based.
"""

from medfig.induce.run import InducedFigure, InducedPaper, induce_package, induce_path

__all__ = ["InducedFigure", "InducedPaper", "induce_package", "induce_path"]

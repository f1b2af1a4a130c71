"""Old name of the PDF figure-extraction benchmark: now ``benchmarks/figure_extraction.py``.

    python benchmarks/pdf_extraction.py [--skip-pymupdf] [...]   # = figure_extraction.py

Kept so that commands quoted in older docs still run; ``--skip-pymupdf`` maps to
``--skip-pymupdf4llm``. Every other option is passed through.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from figure_extraction import main  # noqa: E402

if __name__ == "__main__":
    sys.argv = [a if a != "--skip-pymupdf" else "--skip-pymupdf4llm" for a in sys.argv]
    main()

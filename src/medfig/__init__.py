"""medfig: open-access biomedical articles to medical image-text datasets.

The notebook API mirrors the CLI::

    import medfig
    medfig.write_demo_corpus("demo-articles", n=5)
    report = medfig.build("demo-articles", "demo-dataset")
    ds = medfig.load_dataset("demo-dataset")          # single-file or sharded, same tables
    medfig.why("demo-dataset", "PMC9000001", "F2").text()  # the exclusion ledger's answer
    article = medfig.parse_jats(open("PMC123.xml", "rb").read(), key="PMC123")
    medfig.find_mentions("as shown in Fig. 2A-C and Figure 3")
"""

from __future__ import annotations

from importlib import import_module

__version__ = "0.1.0"

# Imported on first use so that `import medfig` stays cheap and `medfig --help` is fast.
_EXPORTS = {
    "build": "medfig.pipeline.build",
    "parse_jats": "medfig.jats.parse",
    "iter_sources": "medfig.sources",
    "find_mentions": "medfig.text.mentions",
    "write_demo_corpus": "medfig.demo",
    "load_dataset": "medfig.dataset",
    "DatasetFolder": "medfig.dataset",
    "BuildConfig": "medfig.pipeline.config",
    "why": "medfig.ledger",
    "curate": "medfig.curate.run",
    "load_release": "medfig.export.release",
    "split_compound": "medfig.compound",
    "analyze_compound": "medfig.compound",
    "parse_subcaptions": "medfig.text.subcaptions",
    "evaluate_subfigures": "medfig.evaluate.subfigures",
    "extract_figures": "medfig.pdf.extract",
    "extract_pdf": "medfig.pdf.extract",
    "induce_path": "medfig.induce",
    "evaluate_figures": "medfig.evaluate.figures",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'medfig' has no attribute {name!r}")
    return getattr(import_module(module), name)

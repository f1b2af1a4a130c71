"""medfig: open-access biomedical articles to medical image-text datasets."""

__version__ = "0.1.0"

"""tda-auditor: audit poker hand histories against the Poker TDA rules."""

__version__ = "0.1.0"


def ingest(paths, db=None, **kw):
    """Ingest files, folders or globs into the store; see :func:`auditor.ingest.ingest`."""
    from auditor.ingest import ingest as _ingest

    return _ingest(paths, db=db, **kw)

"""tda-auditor: audit poker hand histories against the Poker TDA rules.

This module imports nothing: every module of the project may read ``__version__``
(docs/architecture.md, "Layers").  From Python: ``auditor.ingest.ingest`` and
``auditor.pipeline.audit``."""

__version__ = "0.1.0"

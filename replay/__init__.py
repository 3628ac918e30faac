"""The replay engine and what runs it.  ``import parsers`` first: it decides which
copy of the compiled ``replay.engine`` runs (``parsers/_native.py``)."""

import parsers  # noqa: F401

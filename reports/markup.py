"""Text from the histories made safe for a page: every player, table and file name and
every source line reaches HTML through :func:`esc`, or JSON inside a ``<script>``
element through :func:`json_for_script` (the report's and the dossier's).

>>> esc('<img src=x onerror=alert(1)>')
'&lt;img src=x onerror=alert(1)&gt;'
>>> '<' in json_for_script({"p": "</script><b>"})
False
"""

from __future__ import annotations

import html
import json


def esc(v) -> str:
    """HTML-escape any value ('' for None)."""
    return "" if v is None else html.escape(str(v), quote=True)


def json_for_script(obj) -> str:
    """JSON safe to place inside a <script> element: no '<', '>' or '&' appear raw."""
    s = json.dumps(obj, ensure_ascii=False, default=str, separators=(",", ":"))
    return (s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))

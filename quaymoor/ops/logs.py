"""Structured logs: one JSON object per line on standard error.

Every record carries ``ts`` (ISO 8601, UTC), ``level``, ``logger`` and ``message``; fields
passed with ``extra={"event": ..., "table": ...}`` are added as they are, and a traceback
as ``error``; in a cluster every line also names its ``process`` (the instance id of its
row in ``processes``) and ``slot`` (``w01``), or ``process: "cluster"`` for the runner.
Log lines are for operators: they never carry a seed before a game's end,
a seat token or another seat's seals.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, Final

_STANDARD: Final = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message", "asctime", "taskName",
}


#: Fields on every line of this process (``set_log_fields``: a cluster's process and slot).
_FIELDS: dict[str, Any] = {}


def set_log_fields(**fields: Any) -> None:
    """Put ``fields`` on every later line (after the standard ones; a record's own
    ``extra`` of the same name wins)."""
    _FIELDS.update(fields)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            **_FIELDS,
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                out[key] = value
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


def configure_json_logs(level: int = logging.INFO) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)

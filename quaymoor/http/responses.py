"""JSON answers of the HTTP side, and its one shape of refusal:
``{"error": {"code": ..., "message": ...}}`` with the code's HTTP status
(``protocol.codes.HTTP_STATUS``). Every 405 is ``method_not_allowed`` here, with ``Allow``
naming exactly the methods the path takes."""

from __future__ import annotations

import json
from typing import Any

from quaymoor.http.frontdoor import HttpResponse
from quaymoor.protocol.codes import Code, http_status


def json_response(
    data: Any, status: int = 200, headers: tuple[tuple[str, str], ...] = ()
) -> HttpResponse:
    return HttpResponse(status, json.dumps(data).encode(), "application/json", headers)


def error_response(code: Code, message: str, status: int | None = None) -> HttpResponse:
    """A refusal with ``code``'s HTTP status, or ``status`` where one code has two."""
    return json_response({"error": {"code": code, "message": message}},
                         status if status is not None else http_status(code))


#: The methods every path that only reads takes.
READ_METHODS: tuple[str, ...] = ("GET", "HEAD")


def method_not_allowed(method: str, path: str, allowed: tuple[str, ...]) -> HttpResponse:
    """405 ``method_not_allowed`` with ``Allow``: the methods ``path`` takes."""
    listed = ", ".join(allowed)
    shown = method if len(method) <= 20 else method[:20] + "..."
    response = error_response(Code.METHOD_NOT_ALLOWED,
                              f"{shown} is not allowed on {path[:200]}: {listed}")
    return HttpResponse(response.status, response.body, response.content_type,
                        (("Allow", listed),))

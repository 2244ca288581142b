"""The benchmark's plain HTTP calls to the server under test: the lobby API, and the
operator's ``/status.json`` and ``/metrics`` (blocking; run them in a thread from trio)."""

from __future__ import annotations

import json
import os
import urllib.request
from typing import Any

from quaymoor.tools.server_bench.settings import HOST


def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        f"http://{HOST}:{port}{path}", data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        data: dict[str, Any] = json.loads(resp.read())
    return data


def inherited_token() -> str | None:
    """The operator token a server we start inherits (QUAYMOOR_OPERATOR_TOKEN): its
    /status.json and /metrics then want it."""
    return os.environ.get("QUAYMOOR_OPERATOR_TOKEN") or None


def get_bytes(port: int, path: str, timeout: float = 30.0, *,
              token: str | None = None) -> bytes:
    """``GET path``, with ``token`` as the operator's bearer when given."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    req = urllib.request.Request(f"http://{HOST}:{port}{path}", headers=headers)
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        data: bytes = resp.read()
    return data


def get_json(port: int, path: str, timeout: float = 30.0, *,
             token: str | None = None) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(get_bytes(port, path, timeout, token=token))
    return data


def read_metrics(port: int, token: str | None) -> str | None:
    try:
        return get_bytes(port, "/metrics", timeout=10.0, token=token).decode()
    except Exception as exc:
        print(f"  /metrics not read: {type(exc).__name__}: {exc}", flush=True)
        return None


def status_sample(port: int, token: str | None) -> dict[str, Any]:
    """The server's connection count and event-loop lag now (``lag``: None when the
    server does not report it), or the error that kept us from reading them."""
    try:
        status = get_json(port, "/status.json", timeout=5.0, token=token)
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    live = status.get("live")
    lag = live.get("event_loop_lag_ms") if isinstance(live, dict) else None
    if isinstance(lag, int | float):
        lag = {"last": lag}
    return {"connections": status.get("connections"),
            "lag": lag if isinstance(lag, dict) else None}

"""The cap on open tables per address (``ClientLimits.open_tables``, 20) is exact under
parallel requests, against a real ``quaymoor serve``: 40 creations at once from one
address (``POST /api/tables`` and play-now mixed) open exactly 20 tables, the other 20 get
429 ``too_many_open_tables`` with ``Retry-After``, and single creations afterwards are
refused while the 20 are open. A refused play-now leaves no table behind."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from quaymoor.config import ClientLimits
from tests.server_process import serving

CAP = ClientLimits().open_tables
Answer = tuple[int, dict[str, Any], dict[str, str]]


def post(url: str, path: str, body: dict[str, Any]) -> Answer:
    request = urllib.request.Request(url + path, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response), dict(response.headers)
    except urllib.error.HTTPError as refused:
        return refused.code, json.load(refused), dict(refused.headers)


def open_tables(url: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(url + "/api/tables", timeout=30) as response:
        tables: list[dict[str, Any]] = json.load(response)["tables"]
    return [t for t in tables if t["state"] in ("waiting", "playing")]


def code(answer: Answer) -> tuple[int, str | None]:
    return answer[0], answer[1].get("error", {}).get("code")


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("cap") / "archive.sqlite3") as served:
        yield served


def test_forty_parallel_creations_open_exactly_the_cap(url: str) -> None:
    def create(i: int) -> Answer:
        if i % 2:
            return post(url, "/api/play-now", {"name": f"P{i}", "players": 2})
        return post(url, "/api/tables", {"players": 2})

    with ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(create, range(2 * CAP)))
    counts = Counter(code(a) for a in answers)
    assert counts == {(201, None): CAP, (429, "too_many_open_tables"): CAP}, counts
    for answer in answers:
        if answer[0] == 429:
            assert int(answer[2]["Retry-After"]) > 0
    assert len(open_tables(url)) == CAP

    # Singles afterwards, of both kinds, are refused while the cap's tables are open.
    for _ in range(3):
        assert code(post(url, "/api/tables", {"players": 3})) == (429, "too_many_open_tables")
        assert code(post(url, "/api/play-now", {"name": "Late"})) == (
            429, "too_many_open_tables")
    assert len(open_tables(url)) == CAP


def test_a_refused_play_now_leaves_no_table(tmp_path: Path) -> None:
    with serving(tmp_path / "archive.sqlite3") as served:
        for name in ("\u200b", "   ", "\u202e\u2066"):
            assert code(post(served, "/api/play-now", {"name": name})) == (400, "bad_name")
        assert open_tables(served) == []
        # ...and so holds no place under the cap: the cap's worth can still be made.
        made = [post(served, "/api/tables", {"players": 2}) for _ in range(CAP)]
        assert [a[0] for a in made] == [201] * CAP

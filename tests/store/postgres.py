"""A PostgreSQL of its own (a temporary folder) for the modules that test the store and
what reads it without a whole cluster; its schema migrated. The ``database`` fixture of
tests/store and tests/cluster (each conftest takes it from here)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from quaymoor.cluster.local_pg import LocalPostgres
from quaymoor.store.pg_db import check_database
from tests.cluster.running import needs_cluster_tools


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    needs_cluster_tools()
    folder = Path(tempfile.mkdtemp(prefix="quaymoor-pg-"))
    folder.chmod(0o755)
    pg = LocalPostgres(folder / "pg")
    try:
        url = pg.start()
        check_database(url)
        yield url
    finally:
        pg.stop()
        shutil.rmtree(folder, ignore_errors=True)

"""The modules that test what reads the store without a whole cluster get a PostgreSQL of
their own (``tests.store.postgres``); those of a failover a primary and its streaming
standby (``pair``)."""

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from quaymoor.cluster.pg_standby import StandbyPair
from tests.cluster.running import needs_cluster_tools
from tests.store.postgres import database

__all__ = ["database", "pair"]


@pytest.fixture
def pair() -> Iterator[StandbyPair]:
    """A primary and its synchronous streaming standby in a temporary folder, stopped and
    removed after the test."""
    needs_cluster_tools()
    folder = Path(tempfile.mkdtemp(prefix="quaymoor-standby-"))
    folder.chmod(0o755)
    pair = StandbyPair(folder / "pg")
    try:
        pair.start()
        yield pair
    finally:
        pair.stop()
        shutil.rmtree(folder, ignore_errors=True)

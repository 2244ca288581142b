"""A supervisor running for the length of a block, for the actor tests' fixtures."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio

from quaymoor.actors.supervisor import Supervisor


@asynccontextmanager
async def running(sup: Supervisor) -> AsyncIterator[Supervisor]:
    """``sup`` served in a nursery of its own while the block runs; cancelled after it."""
    async with trio.open_nursery() as nursery:
        await nursery.start(sup.run)
        yield sup
        nursery.cancel_scope.cancel()

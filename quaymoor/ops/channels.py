"""Taking what already waits in a trio channel, without waiting for more."""

from __future__ import annotations

from typing import TypeVar

import trio

T = TypeVar("T")


def waiting(recv: trio.MemoryReceiveChannel[T], limit: int | None = None) -> list[T]:
    """Every item waiting in ``recv`` now (at most ``limit``), without waiting; an empty
    or closed channel gives what there was."""
    items: list[T] = []
    while limit is None or len(items) < limit:
        try:
            items.append(recv.receive_nowait())
        except (trio.WouldBlock, trio.EndOfChannel):
            break
    return items

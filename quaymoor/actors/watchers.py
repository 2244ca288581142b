"""Who watches a table: the ``watchers`` message and its pace.

A spectator's coming or going changes only who watches, so it is told to everyone with
the next ``watchers`` message, at most one every ``WATCHERS_EVERY`` seconds: the first
change after a quiet spell goes out at once (through the table's alarm, so in order with
everything else), changes meanwhile join it, and a message that would say the same as the
last one is not sent (a storm of spectators coming and going is one message, or none).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import trio

from quaymoor.actors.alarm import Alarm
from quaymoor.actors.connection import Connection
from quaymoor.actors.inbox import Inbox, WatchersDue
from quaymoor.protocol.messages import MAX_WATCHER_NAMES, WATCHERS_EVERY, Watchers


def watchers_of(connections: Iterable[Connection]) -> Watchers:
    """Who watches now: every spectator connection counted, the first names listed."""
    spectators = [c for c in connections if c.seat is None]
    names = [c.name for c in spectators if c.name is not None][:MAX_WATCHER_NAMES]
    return Watchers(len(spectators), names)


class WatchersNotice:
    """When the table's next ``watchers`` goes out, and what the last one said."""

    def __init__(self, inbox: Inbox) -> None:
        self._alarm = Alarm(inbox, WatchersDue())
        self._sent: Watchers | None = None  #: the last ``watchers`` broadcast
        self._at = -math.inf  #: trio time it went out
        self._due = False  #: the next one is set on the alarm

    def attach(self, nursery: trio.Nursery) -> None:
        self._alarm.attach(nursery)

    def release(self) -> None:
        self._alarm.release()

    def changed(self) -> None:
        """A spectator came or went: the next ``watchers`` is set on the alarm (at once
        if none went in the last ``WATCHERS_EVERY`` seconds), unless one is already."""
        if self._due:
            return
        self._due = True  # until its WatchersDue is handled (it may be on its way)
        self._alarm.set(max(trio.current_time(), self._at + WATCHERS_EVERY))

    def due(self, connections: Iterable[Connection]) -> Watchers | None:
        """The alarm went off: the ``watchers`` to broadcast now, or None when it would
        say nothing new (they came and went)."""
        self._due = False
        watchers = watchers_of(connections)
        if watchers == self._sent:
            return None
        self._sent = watchers
        self._at = trio.current_time()
        return watchers

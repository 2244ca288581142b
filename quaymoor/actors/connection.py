"""A websocket's attachment to a table, as the table and the gateway share it.

The table knows a connection by its ``id``, its seat (None for a spectator) and a
spectator's name; everything the connection receives goes out through its ``outlet``
(``outlet``: the outbox, the frames written at once, the close code, the drop).
"""

from __future__ import annotations

import attrs

from quaymoor.actors.outlet import Outlet


@attrs.define(eq=False)
class Connection:
    """One websocket's attachment to a table, shared with the gateway."""

    id: int
    outlet: Outlet
    seat: int | None = None
    #: A spectator's name from its hello (cleaned), shown in ``watchers``; None: unnamed
    name: str | None = None

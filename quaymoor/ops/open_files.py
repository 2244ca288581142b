"""The open-file limit of a process that holds many sockets: every websocket is a file
descriptor in the server and in its client, and HAProxy holds two for each connection
(one to the client, one to a table process)."""

from __future__ import annotations

import contextlib
import resource

_NR_OPEN = "/proc/sys/fs/nr_open"  #: Linux's ceiling on any process's open-file limit


def raise_open_files(want: int = 0) -> int:
    """Raise this process's soft open-file limit to its hard limit, and both to ``want``
    when that is above the hard limit and the OS allows it (raising a hard limit needs
    CAP_SYS_RESOURCE; never above ``fs.nr_open``). Children inherit the result. Returns
    the new soft limit."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and want > hard:
        ceiling = want
        with contextlib.suppress(OSError, ValueError), open(_NR_OPEN) as f:
            ceiling = min(want, int(f.read()))
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, ceiling))
            return ceiling
        except (OSError, ValueError):  # not privileged: the hard limit stays
            pass
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def hard_open_files() -> int:
    """The hard open-file limit (what the soft one may be raised to without privilege)."""
    return resource.getrlimit(resource.RLIMIT_NOFILE)[1]

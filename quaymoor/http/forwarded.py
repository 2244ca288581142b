"""The client's address behind a reverse proxy (HAProxy in ``quaymoor cluster``).

Behind a proxy every connection comes from the proxy's address, so the per-address limits
would count all clients as one. The proxy says who its client is in ``X-Forwarded-For``;
the process believes that header only on a connection from an address it was told to
trust (``serve --forwarded-from``). The cluster's HAProxy *sets* the header to the TCP
peer it saw (``http-request set-header``), replacing whatever a client sent, so a client
of the proxy cannot name another address; a connection that reaches the process without
the proxy comes from an untrusted address (the processes listen where only HAProxy
reaches them), and its header is ignored. Of several values (a chain of proxies) the
last is the one the trusted proxy added: the earlier ones are what a client claimed.
"""

from __future__ import annotations

import ipaddress
from typing import Final

HEADER: Final = "x-forwarded-for"


class ForwardedError(ValueError):
    """A trusted proxy sent an ``X-Forwarded-For`` that is no address."""


def client_address(peer: str, headers: dict[str, str], trusted: frozenset[str]) -> str:
    """The client's address: the last ``X-Forwarded-For`` value when ``peer`` is a trusted
    proxy that sent one, else ``peer``. Raises ``ForwardedError`` for a trusted proxy's
    header that is no IP address (a proxy misconfigured: better refused than counted as
    one made-up client)."""
    value = headers.get(HEADER)
    if value is None or peer not in trusted:
        return peer
    last = value.rsplit(",", 1)[-1].strip()
    try:
        return str(ipaddress.ip_address(last))
    except ValueError:
        raise ForwardedError(f"the proxy's X-Forwarded-For is no IP address: {last[:60]!r}"
                             ) from None

"""``quaymoor fuzz``: hostile input, drawn from the definitions, against a real server.

Modules: ``schema`` (what may be sent: the message and action classes, the OpenAPI
document's routes), ``values`` and ``strategies`` (hypothesis values, cases built from the
shapes), ``wire`` (clients with the 2-second bound), ``tables`` (tables in every phase),
``websocket``, ``http``, ``sequences`` and ``probes`` (the workers), ``checks`` (the
columns, the secrets scanner), ``reduce`` (one input per failure), ``report``,
``runner`` (it all, in order). Every module says how it works at its top.
"""

from quaymoor.tools.fuzz.runner import fuzz_command

__all__ = ["fuzz_command"]

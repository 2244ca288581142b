"""Past one process (issue 15, docs/deploy.md): ``quaymoor cluster`` runs HAProxy in front
of N ``quaymoor serve`` processes that share one PostgreSQL database. ``heartbeat`` is a
process's membership, ``gone_tables`` what a process says of another's table,
``haproxy`` the router's configuration and runtime API, ``local_pg`` a PostgreSQL of its
own in ``var/``, ``runner`` the command itself, ``drain`` the operators' drain."""

"""Past one process (issue 15, docs/deploy.md): ``quaymoor cluster`` runs HAProxy in front
of N ``quaymoor serve`` processes that share one PostgreSQL database. ``runner`` is the
command, ``local_pg`` its PostgreSQL in ``var/``, ``haproxy`` the router's configuration
and runtime API, ``member`` how ``serve`` joins a cluster, ``shared_tables`` the table
directory every process shares (which table lives where, which died), ``heartbeat`` a
process's membership (drain, and ending a dead process's games)."""

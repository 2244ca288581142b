"""The modules that test what reads the store without a whole cluster get a PostgreSQL of
their own (``tests.store.postgres``)."""

from tests.store.postgres import database

__all__ = ["database"]

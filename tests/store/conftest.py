"""The store's PostgreSQL tests get a database of their own (``tests.store.postgres``)."""

from tests.store.postgres import database

__all__ = ["database"]

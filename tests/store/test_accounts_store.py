"""Accounts kept with the archive, alike in SQLite, a real PostgreSQL and memory: an account
and its first passkey are made together or not at all; a ceremony completes once, and not
after it expired; a session is found by its token's hash until it ends or expires; two
processes registering look-alike names at the same moment make one account; deleting an
account takes its passkeys and sessions with it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from quaymoor.store.accounts import AccountError, AccountStore, Ceremony
from quaymoor.store.archive import Archive
from quaymoor.store.memory_store import MemoryStore
from quaymoor.store.pg_archive import PgArchive

NOW = 1_800_000_000.0


def _make(store: AccountStore, account: str, name: str, key: str, credential: str) -> None:
    store.create_account(account, name, key, credential_id=credential, public_key="k",
                         sign_count=0, now=NOW)


def _wipe(store: AccountStore) -> None:
    def work(run: object) -> None:
        assert callable(run)
        for table in ("sessions", "credentials", "ceremonies", "accounts"):
            run(f"DELETE FROM {table}", ())
    store._transact(work)


@pytest.fixture(params=["sqlite", "postgresql", "memory"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[list[AccountStore]]:
    """Two handles on one store, as two processes of a cluster have (memory: one)."""
    if request.param == "sqlite":
        yield [Archive(tmp_path / "a.sqlite3").accounts, Archive(tmp_path / "a.sqlite3").accounts]
    elif request.param == "memory":
        one = MemoryStore().accounts
        yield [one, one]
    else:
        database: str = request.getfixturevalue("database")
        first, second = PgArchive(database, "p1"), PgArchive(database, "p2")
        _wipe(first.accounts)  # a database shared by the tests
        yield [first.accounts, second.accounts]


def test_an_account_and_its_passkey_are_made_together(stores: list[AccountStore]) -> None:
    store = stores[0]
    _make(store, "u1", "Ada", "ada", "cred1")
    assert store.name_taken("ada") and not store.name_taken("bob")
    found = store.credential("cred1")
    assert found is not None and (found.account_id, found.name, found.sign_count) == (
        "u1", "Ada", 0)
    with pytest.raises(AccountError) as taken:
        _make(store, "u2", "ADA", "ada", "cred2")
    assert taken.value.code == "name_taken"
    assert store.credential("cred2") is None  # nothing of the refused account was kept
    with pytest.raises(AccountError) as again:
        _make(store, "u3", "Bob", "bob", "cred1")
    assert again.value.code == "passkey_taken"
    assert not store.name_taken("bob")  # the account went back with its passkey
    account = store.account("u1")
    assert account is not None and (account.name, account.passkeys) == ("Ada", 1)


def test_a_ceremony_completes_once_and_not_after_it_expired(
        stores: list[AccountStore]) -> None:
    one, other = stores
    one.add_ceremony(Ceremony("c1", "signin", "ch", None, None, NOW + 100), NOW)
    assert other.take_ceremony("c1", "register", NOW) is None  # not of that kind
    taken = other.take_ceremony("c1", "signin", NOW)
    assert taken is not None and taken.challenge == "ch"
    assert one.take_ceremony("c1", "signin", NOW) is None  # taken already
    one.add_ceremony(Ceremony("c2", "signin", "ch", None, None, NOW + 100), NOW)
    assert one.take_ceremony("c2", "signin", NOW + 101) is None  # expired
    one.add_ceremony(Ceremony("c3", "signin", "ch", None, None, NOW + 100), NOW)
    # a later addition sweeps the expired
    assert one.add_ceremony(Ceremony("c4", "signin", "ch", None, None, NOW + 900),
                            NOW + 500) == 1


def test_sessions_end_by_one_by_all_and_by_time(stores: list[AccountStore]) -> None:
    one, other = stores
    _make(one, "u1", "Ada", "ada", "cred1")
    one.open_session("h1", "u1", "t1", NOW, NOW + 1000)
    other.open_session("h2", "u1", "t2", NOW, NOW + 1000)
    found = other.session("h1", NOW + 1)
    assert found is not None and (found.name, found.csrf) == ("Ada", "t1")
    assert one.session("h1", NOW + 1000) is None  # expired
    one.end_session("h1")
    assert one.session("h1", NOW + 1) is None and one.session("h2", NOW + 1) is not None
    other.open_session("h3", "u1", "t3", NOW, NOW + 1000)
    assert one.end_sessions("u1") == 2
    assert other.session("h3", NOW + 1) is None


def test_the_counter_moves_once(stores: list[AccountStore]) -> None:
    one, other = stores
    _make(one, "u1", "Ada", "ada", "cred1")
    assert one.credential_used("cred1", 0, 1, NOW)
    assert not other.credential_used("cred1", 0, 1, NOW)  # the same answer, elsewhere
    found = other.credential("cred1")
    assert found is not None and found.sign_count == 1


def test_deleting_takes_passkeys_and_sessions(stores: list[AccountStore]) -> None:
    one, other = stores
    _make(one, "u1", "Ada", "ada", "cred1")
    one.open_session("h1", "u1", "t1", NOW, NOW + 1000)
    assert other.delete_account("u1")
    assert not one.delete_account("u1")
    assert one.credential("cred1") is None and one.session("h1", NOW) is None
    assert one.account("u1") is None and not one.name_taken("ada")


def test_racing_registrations_of_one_name_make_one_account(
        stores: list[AccountStore]) -> None:
    """Two processes (two connections) registering look-alikes of one name at once, many
    times over: each time exactly one account."""
    outcomes: list[str] = []
    lock = threading.Lock()

    def register(store: AccountStore, account: str, name_key: str) -> None:
        try:
            _make(store, account, account, name_key, "cred-" + account)
            result = "made"
        except AccountError as exc:
            result = exc.code
        with lock:
            outcomes.append(result)

    for round_ in range(20):
        key = f"name{round_}"
        threads = [threading.Thread(target=register, args=(store, f"{key}-{i}", key))
                   for i, store in enumerate(stores)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert outcomes.count("made") == 20 and outcomes.count("name_taken") == 20

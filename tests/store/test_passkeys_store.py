"""An account's passkeys in the store, on SQLite, PostgreSQL and in memory: added up to
``MAX_PASSKEYS``, listed, removed but never the last; a passkey is one account's only; and
on PostgreSQL two removals at once, on two connections (two processes of a cluster), leave
the account a passkey."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from quaymoor.store.accounts import MAX_PASSKEYS, AccountError, AccountStore, Run
from quaymoor.store.archive import Archive
from quaymoor.store.memory_store import MemoryStore
from quaymoor.store.pg_archive import PgArchive


def _wipe(run: Run) -> None:
    for table in ("sessions", "credentials", "ceremonies", "accounts"):
        run(f"DELETE FROM {table}", ())


@pytest.fixture(params=["sqlite", "postgresql", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[AccountStore]:
    if request.param == "sqlite":
        yield Archive(tmp_path / "r.sqlite3").accounts
    elif request.param == "memory":
        yield MemoryStore().accounts
    else:
        pg = PgArchive(request.getfixturevalue("database"), "p1")
        pg._transact(_wipe)
        yield pg.accounts


def _account(store: AccountStore, aid: str, name: str) -> None:
    store.create_account(aid, name, name.lower(), credential_id=f"{aid}-key0",
                         public_key="pk", sign_count=0, now=100.0)


def _refused(code: str, work: object) -> None:
    assert callable(work)
    with pytest.raises(AccountError) as refused:
        work()
    assert refused.value.code == code


def test_passkeys_are_added_listed_and_removed_never_the_last(store: AccountStore) -> None:
    _account(store, "ada", "Ada")
    assert [p.id for p in store.passkeys("ada")] == ["ada-key0"]
    _refused("last_passkey", lambda: store.remove_credential("ada", "ada-key0"))
    for n in range(1, MAX_PASSKEYS):
        assert store.add_credential("ada", credential_id=f"ada-key{n}", public_key="pk",
                                    sign_count=0, now=100.0 + n) == n + 1
    _refused("too_many_passkeys", lambda: store.add_credential(
        "ada", credential_id="ada-one-more", public_key="pk", sign_count=0, now=200.0))
    listed = store.passkeys("ada")
    assert [p.id for p in listed] == [f"ada-key{n}" for n in range(MAX_PASSKEYS)]
    assert [p.created_at for p in listed] == [100.0 + n for n in range(MAX_PASSKEYS)]
    assert all(p.used_at is None for p in listed)
    assert store.credential_used("ada-key3", 0, 5, 300.0)
    assert store.passkeys("ada")[3].used_at == 300.0
    assert store.remove_credential("ada", "ada-key0") == MAX_PASSKEYS - 1
    assert store.credential("ada-key0") is None
    _refused("unknown_passkey", lambda: store.remove_credential("ada", "ada-key0"))
    account = store.account("ada")
    assert account is not None and account.passkeys == MAX_PASSKEYS - 1


def test_a_passkey_is_one_accounts_only(store: AccountStore) -> None:
    _account(store, "ada", "Ada")
    _account(store, "bob", "Bob")
    for owner in ("ada", "bob"):  # another's, or its own again
        _refused("passkey_taken", lambda owner=owner: store.add_credential(
            owner, credential_id="bob-key0", public_key="pk", sign_count=0, now=1.0))
    _refused("unknown_passkey", lambda: store.remove_credential("ada", "bob-key0"))
    assert [p.id for p in store.passkeys("bob")] == ["bob-key0"]
    store.delete_account("bob")
    _refused("account_gone", lambda: store.add_credential(
        "bob", credential_id="bob-key1", public_key="pk", sign_count=0, now=1.0))
    assert store.passkeys("bob") == []


def _race(stores: tuple[AccountStore, AccountStore], aid: str) -> list[str]:
    """Each store removes one of ``aid``'s two passkeys, both at once: what each got."""
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def remove(on: AccountStore, key: str) -> None:
        start.wait()
        try:
            outcomes.append(f"left {on.remove_credential(aid, key)}")
        except AccountError as exc:
            outcomes.append(exc.code)

    threads = [threading.Thread(target=remove, args=(on, f"{aid}-key{n}"))
               for n, on in enumerate(stores)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


@pytest.mark.parametrize("store", ["postgresql"], indirect=True)
def test_two_removals_at_once_leave_a_passkey(store: AccountStore, database: str) -> None:
    other = PgArchive(database, "p2").accounts  # a second process's connection
    for round_ in range(20):
        aid = f"ada{round_}"
        _account(store, aid, f"Ada{round_}")
        store.add_credential(aid, credential_id=f"{aid}-key1", public_key="pk",
                             sign_count=0, now=1.0)
        outcomes = _race((store, other), aid)
        assert sorted(outcomes) == ["last_passkey", "left 1"], outcomes
        assert len(store.passkeys(aid)) == 1

"""``quaymoor-fair-2``: the table's fingerprint, the seats' commitments, the key that binds
the seats (``fairness.deal_key``), record format 4, and every tamper with the seat binding
that ``verify_record`` must refuse (issue 24). The doc's test vectors are checked against
the code here, byte for byte."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from quaymoor.bots.prng import SplitMix64
from quaymoor.rules.fairness import (
    ALGORITHM,
    Deal,
    DealError,
    DealtSeat,
    bot_names,
    check_deal,
    deal_key,
    derive_key,
    draw_below,
    seed_commitment,
    shuffled,
    table_fingerprint,
)
from quaymoor.rules.game import Game
from quaymoor.rules.record import GameRecord
from quaymoor.rules.verify import verify_record
from quaymoor.tools.selfplay import play_random

DOC = (Path(__file__).resolve().parents[2] / "docs" / "fairness.md").read_text()
SEED = bytes(range(32))
TABLE = "a1b2c3d4e5"
ALICE = seed_commitment(TABLE, 0, "alice")
BOB = seed_commitment(TABLE, 2, "bob")
#: The doc's deal: Alice revealed, a bot, Bob committed and withheld.
DEAL = Deal(TABLE, (DealtSeat("Alice", False, ALICE, "alice"), DealtSeat("Ada (bot)", True),
                    DealtSeat("Bob", False, BOB, None)))


def _field(text: str) -> bytes:
    raw = text.encode()
    return len(raw).to_bytes(2, "big") + raw


def _vectors() -> str:
    return DOC[DOC.index("### `quaymoor-fair-2`\n\nFor the table"):
               DOC.index("### `quaymoor-fair-1`\n\nWith no client seeds")]


def _doc_hex(label: str) -> str:
    """The hex the doc gives under ``label`` (wrapped over several indented lines)."""
    text = _vectors()
    after = text[text.index(label) + len(label):]
    digits = re.match(r"\s*\n((?:\s+[0-9a-f]+\n)+)", after)
    assert digits is not None, f"no hex under {label!r}"
    return "".join(digits.group(1).split())


def _doc_value(label: str) -> str:
    found = re.search(rf"^\s*{re.escape(label)}\s+(\S+)$", _vectors(), re.MULTILINE)
    assert found is not None, f"no {label!r} line"
    return found.group(1).strip()


# ------------------------------------------------------------------ the doc's vectors


def test_the_fingerprint_is_the_docs_bytes_and_vector() -> None:
    message = b"quaymoor-fair-2\x00" + _field(TABLE) + bytes([3]) + SEED
    assert _doc_hex("fingerprint message (hex)") == message.hex()
    assert table_fingerprint(SEED, TABLE, 3) == hashlib.sha256(message).hexdigest()
    assert _doc_value("fingerprint") == table_fingerprint(SEED, TABLE, 3)


def test_the_commitments_are_the_docs_bytes_and_vectors() -> None:
    message = b"quaymoor-commit-2\x00" + _field(TABLE) + bytes([0]) + _field("alice")
    assert _doc_hex("commitment message, seat 0 (hex)") == message.hex()
    assert ALICE == hashlib.sha256(message).hexdigest() == _doc_value("commitment, seat 0")
    assert _doc_value("commitment, seat 2") == BOB


def test_the_key_is_the_docs_message_and_vectors() -> None:
    message = (b"quaymoor-key-2\x00" + _field(TABLE) + bytes([3])
               + b"\x00" + _field("Alice") + b"\x01" + bytes.fromhex(ALICE)
               + b"\x01" + _field("alice")
               + b"\x01" + _field("Ada (bot)") + b"\x00" + b"\x00"
               + b"\x00" + _field("Bob") + b"\x01" + bytes.fromhex(BOB) + b"\x00")
    assert _doc_hex("key message (hex)") == message.hex()
    key = deal_key(SEED, DEAL)
    assert key == hmac.digest(SEED, message, "sha256")
    text = _vectors()
    keys = re.findall(r"^\s+key\s+([0-9a-f]{64})$", text, re.MULTILINE)
    wardens = re.findall(r"^\s+first Warden\s+(\d)$", text, re.MULTILINE)
    revealed = DEAL._replace(seats=(*DEAL.seats[:2], DEAL.seats[2]._replace(client_seed="bob")))
    bots = Deal(TABLE, (DealtSeat("Seat 1", True), DealtSeat("Seat 2", True)))
    assert keys == [key.hex(), deal_key(SEED, revealed).hex(), deal_key(SEED, bots).hex()]
    assert wardens == [str(draw_below(key, "first-warden", 3)),
                       str(draw_below(deal_key(SEED, revealed), "first-warden", 3))]
    assert _doc_value('stream "plots", first 8 bytes') == hmac.digest(
        key, b"plots\x00" + bytes(8), "sha256")[:8].hex()
    shown = re.search(r'shuffled\(key, "plots", \[0, 1, 2, 3, 4, 5, 6, 7, 8, 9\]\)\n\s+(\[.*\])',
                      text)
    assert shown is not None
    assert json.loads(shown.group(1)) == shuffled(key, "plots", list(range(10)))


def test_every_part_of_the_deal_changes_the_key() -> None:
    """Swapping seats, a seat's name or bot flag, a commitment, a seed or the table gives
    another key: a record cannot move them without changing its draws."""
    base = deal_key(SEED, DEAL)
    alice, bot, bob = DEAL.seats
    variants = [
        Deal("a1b2c3d4e6", (alice._replace(commitment=seed_commitment("a1b2c3d4e6", 0, "alice")),
                            bot, bob._replace(commitment=seed_commitment("a1b2c3d4e6", 2, "bob")))),
        Deal(TABLE, (alice._replace(name="Alicia"), bot, bob)),
        Deal(TABLE, (alice, bot._replace(name="Bede (bot)"), bob)),
        Deal(TABLE, (alice, bot, bob._replace(commitment=None))),
        Deal(TABLE, (alice, bot, bob._replace(bot=True, commitment=None))),
        Deal(TABLE, (alice._replace(client_seed=None), bot, bob)),
        Deal(TABLE, (alice, bot, bob, DealtSeat("Cy", False))),
    ]
    keys = {deal_key(SEED, d) for d in variants}
    assert base not in keys and len(keys) == len(variants)
    assert base != derive_key(SEED, ["alice"])  # not fair-1's key for the same seeds


@pytest.mark.parametrize(("seats", "says"), [
    ((DealtSeat("Ada (bot)", True, ALICE, None),), "is a bot, and bots hold no seed"),
    ((DealtSeat("Ada (bot)", True, None, "alice"),), "is a bot, and bots hold no seed"),
    ((DealtSeat("Alice", False, None, "alice"),), "never committed to"),
    ((DealtSeat("Alice", False, BOB, "alice"),), "does not match its commitment"),
    ((DealtSeat("Alice", False, ALICE.upper(), None),), "64 lowercase hex"),
    ((DealtSeat("Alice", False, ALICE, "al\x00ice"),), "NUL"),
])
def test_a_deal_that_does_not_hold_is_refused(seats: tuple[DealtSeat, ...], says: str) -> None:
    with pytest.raises(DealError, match=says):
        check_deal(Deal(TABLE, seats))
    with pytest.raises(DealError):
        deal_key(SEED, Deal(TABLE, seats))


def test_a_commitment_binds_the_table_and_the_seat() -> None:
    assert seed_commitment(TABLE, 0, "alice") != seed_commitment(TABLE, 1, "alice")
    assert seed_commitment(TABLE, 0, "alice") != seed_commitment("a1b2c3d4e6", 0, "alice")
    with pytest.raises(DealError):
        seed_commitment(TABLE, 0, "\ud800")


# ------------------------------------------------------------------ format-4 records


@cache
def _record() -> GameRecord:
    """A finished 3-player game dealt to the doc's seats (Bob withheld his seed)."""
    game = Game(3, SEED, deal=DEAL)
    play_random(game, SplitMix64(7))
    return game.record(end_reason="finished")


def _refusal(edit: Any) -> str:
    """Why the record with ``edit`` applied is refused: as it is read (a record that does
    not state its whole binding), or by ``verify_record``."""
    data = json.loads(_record().to_json())
    edit(data)
    try:
        record = GameRecord.from_json(json.dumps(data))
    except ValueError as exc:
        return str(exc)
    verdict = verify_record(record)
    assert not verdict.ok, "a tampered record verified"
    return verdict.message


def test_a_dealt_record_is_format_4_and_verifies() -> None:
    rec = _record()
    assert (rec.format, rec.algorithm, rec.game) == (4, ALGORITHM, TABLE)
    assert rec.fingerprint == table_fingerprint(SEED, TABLE, 3)
    assert [s.commitment for s in rec.seats] == [ALICE, None, BOB]
    assert rec.seat_seeds == ["alice", None, None] and rec.client_seeds == ["alice"]
    verdict = verify_record(rec)
    assert verdict.ok and verdict.message.startswith("ok: fingerprint matches"), verdict.message
    assert verify_record(GameRecord.from_json(rec.to_json())).ok


def _swap_seats(d: dict[str, Any]) -> None:
    d["seats"][0], d["seats"][2] = d["seats"][2], d["seats"][0]
    d["seat_seeds"][0], d["seat_seeds"][2] = d["seat_seeds"][2], d["seat_seeds"][0]


def _swap_names(d: dict[str, Any]) -> None:
    d["seats"][0]["name"], d["seats"][2]["name"] = d["seats"][2]["name"], d["seats"][0]["name"]


def _seed_to_bot(d: dict[str, Any]) -> None:
    d["seats"][1]["commitment"], d["seats"][0]["commitment"] = ALICE, None
    d["seat_seeds"] = [None, "alice", None]


def _seed_to_withheld(d: dict[str, Any]) -> None:
    d["seat_seeds"] = [None, None, "alice"]


def _bot_to_person(d: dict[str, Any]) -> None:
    d["seats"][1]["bot"] = False


def _downgrade(d: dict[str, Any]) -> None:
    d["format"], d["algorithm"] = 3, "quaymoor-fair-1"
    d["fingerprint"] = hashlib.sha256(SEED).hexdigest()
    for seat in d["seats"]:
        del seat["commitment"]


def _downgrade_to_2(d: dict[str, Any]) -> None:
    """The issue's tamper: seat_seeds deleted and the format set to 2 (and, to try harder,
    the algorithm and fingerprint made fair-1's)."""
    _downgrade(d)
    d["format"] = 2
    del d["seat_seeds"]


@pytest.mark.parametrize(("edit", "says"), [
    (lambda d: (d.pop("seat_seeds"), d.update(format=2)), "algorithm: a format-2 record"),
    (lambda d: (d["seats"][1].pop("commitment"), d.update(format=3)),
     "algorithm: a format-3 record"),
    (_downgrade_to_2, "first Warden|plots turned up"),
    (lambda d: d.update(seat_seeds=None), "the binding was stripped"),
    (lambda d: d.pop("seat_seeds"), "leaves out seat_seeds: the binding was stripped"),
    (lambda d: d.pop("game"), "leaves out game: the binding was stripped"),
    (lambda d: d["seats"][1].pop("commitment"), "leaves out seats.1..commitment"),
    (lambda d: d.update(game=None), "names none"),
    (lambda d: d["seats"][1].update(name="Zed (bot)"), "plots turned up|first Warden"),
    (lambda d: d.update(game="a1b2c3d4e6"), "fingerprint mismatch"),
    (lambda d: d["seats"][2].update(commitment=None), "first Warden|plots turned up"),
    (lambda d: d["seats"][0].update(commitment=None), "never committed to"),
    (lambda d: d["seats"][2].update(commitment=ALICE), "first Warden|plots turned up"),
    (lambda d: d.update(seat_seeds=["alice", None, "bob"], client_seeds=["alice", "bob"]),
     "first Warden|plots turned up"),
    (lambda d: d.update(seat_seeds=[None, None, None], client_seeds=[]),
     "first Warden|plots turned up"),
    (lambda d: d.update(client_seeds=[]), "client seeds: the seats gave"),
    (_swap_seats, "first Warden|plots turned up|does not match"),
    (_swap_names, "first Warden|plots turned up"),
    (_seed_to_bot, "is a bot, and bots hold no seed"),
    (_seed_to_withheld, "does not match its commitment"),
    (_bot_to_person, "first Warden|plots turned up"),
    (lambda d: d.update(format=3), "algorithm: a format-3 record is played with "
                                   "quaymoor-fair-1"),
    (lambda d: d.update(algorithm="quaymoor-fair-1"), "algorithm: a format-4 record"),
    (_downgrade, "first Warden|plots turned up"),
    (lambda d: d["seats"].pop(), "2 seats listed for 3 players"),
])
def test_every_tamper_with_the_binding_is_refused(edit: Any, says: str) -> None:
    message = _refusal(edit)
    assert re.search(says, message), message


def test_a_record_that_names_a_key_twice_is_refused() -> None:
    """Parsers differ on which of two values counts: a record may not leave it to them."""
    text = _record().to_json().replace('"format": 4,', '"format": 4, "format": 3,', 1)
    with pytest.raises(ValueError, match="the key 'format' is given twice"):
        GameRecord.from_json(text)


def test_a_downgrade_fails_on_its_draws_even_with_a_matching_fingerprint() -> None:
    """Written down as format 3 (quaymoor-fair-1, the fingerprint recomputed to match),
    the game's own draws no longer come out of the key: refused at the first Warden or
    the setup's turn-up, for every one of 20 games."""
    for i in range(20):
        seed = hashlib.sha256(bytes([i])).digest()
        game = Game(3, seed, deal=DEAL)
        play_random(game, SplitMix64(i))
        data = json.loads(game.record().to_json())
        data["seed"] = seed.hex()
        data["format"], data["algorithm"] = 3, "quaymoor-fair-1"
        data["fingerprint"] = hashlib.sha256(seed).hexdigest()
        for seat in data["seats"]:
            seat["commitment"] = None
        verdict = verify_record(GameRecord.from_json(json.dumps(data)))
        assert not verdict.ok
        assert re.search("first Warden|plots turned up|action", verdict.message), verdict.message


def test_a_server_that_chose_its_bots_names_is_caught() -> None:
    """Dealt with a bot's name the server chose (so its key, draws and replay all hold),
    the record is still refused: a bot's name is fixed by the people's names."""
    chosen = DEAL._replace(seats=(DEAL.seats[0], DealtSeat("Zed (bot)", True), DEAL.seats[2]))
    game = Game(3, SEED, deal=chosen)
    play_random(game, SplitMix64(7))
    verdict = verify_record(game.record())
    assert not verdict.ok
    assert verdict.message == ("seats: seat 1 is a bot named 'Zed (bot)', but a bot there is "
                               "named 'Ada (bot)' (bots take the first free names of the list, "
                               "in seat order: docs/fairness.md)")


def test_bots_take_the_first_names_no_person_has() -> None:
    assert bot_names([None, None]) == ["Ada (bot)", "Bede (bot)"]
    assert bot_names(["Bede", None, "Ada", None, None]) == [
        None, "Cuthbert (bot)", None, "Dunstan (bot)", "Edith (bot)"]
    # a person who calls themselves "Ada (bot)" takes Ada: no two seats named alike
    assert bot_names(["Ada (bot)", None]) == [None, "Bede (bot)"]

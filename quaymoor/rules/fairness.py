"""Seeded, verifiable randomness for a game (algorithm ``quaymoor-fair-1``).

Every random choice in a game comes from the game's 32-byte seed, never from Python's
random-number module. The server draws the seed with :mod:`secrets` when the table is
created and publishes its fingerprint, SHA-256(seed), before anyone joins; the seed itself
is revealed when the game ends. A key is derived from the seed (and any client seeds the
players' browsers added) with HMAC-SHA256; each kind of draw (first Warden, plot stack,
each reshuffle) reads its own HMAC-SHA256 byte stream named by a label, turns bytes into
integers by rejection sampling and shuffles with Fisher-Yates.

Algorithm ``quaymoor-fair-3`` (every table's game, record format 5) binds the whole table:
the fingerprint published at creation commits to the algorithm, the table's id and its
number of seats besides the seed (``table_fingerprint``); each seat that adds a client seed
first sends a commitment to it (``seed_commitment``) and reveals it only once every
commitment is fixed; and the key is made from the seat list (bot flags), each seat's
commitment and each revealed seed (``deal_key``), so a record whose seats, seeds or
commitments were changed, moved or stripped gives other draws. A seat's *name* is not in
the key: it is its player's personal data, which an account's deletion takes out of the
records, and no draw depends on it. ``quaymoor-fair-2`` (format 4) is the same with each
seat's name in the key; it and ``quaymoor-fair-1`` (``derive_key``, formats 1-3) are kept
to check older records.

The exact algorithm, how the game uses it and test vectors are in ``docs/fairness.md``;
change nothing here without changing that document and :data:`ALGORITHM`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import Final, NamedTuple, TypeVar

__all__ = [
    "ALGORITHM",
    "ALGORITHM_1",
    "ALGORITHM_2",
    "DEALT_ALGORITHMS",
    "BOT_NAMES",
    "bot_names",
    "Deal",
    "DealError",
    "DealtSeat",
    "check_commitment",
    "check_deal",
    "deal_key",
    "seed_commitment",
    "table_fingerprint",
    "ClientSeedError",
    "SEED_BYTES",
    "MAX_CLIENT_SEED_BYTES",
    "LABEL_FIRST_WARDEN",
    "LABEL_PLOTS",
    "DrawStream",
    "check_client_seed",
    "derive_key",
    "draw_below",
    "fingerprint",
    "new_client_seed",
    "new_seed",
    "reshuffle_label",
    "seed_from_hex",
    "seed_to_hex",
    "shuffled",
]

T = TypeVar("T")

#: The algorithm version string of every table's game, recorded in its record (format 5).
ALGORITHM: Final = "quaymoor-fair-3"
#: The algorithm of format-4 records (the seats' names in the key), kept to check them.
ALGORITHM_2: Final = "quaymoor-fair-2"
#: The algorithms of a table's deal (``table_fingerprint``, ``deal_key``): each one's key
#: message prefix, and whether the key binds the seats' names.
DEALT_ALGORITHMS: Final = {ALGORITHM: (b"quaymoor-key-3", False),
                           ALGORITHM_2: (b"quaymoor-key-2", True)}
#: The algorithm of record formats 1-3 (and of a bare ``Game`` with no deal), kept to
#: check old records: the fingerprint is SHA-256(seed), the key ``derive_key``.
ALGORITHM_1: Final = "quaymoor-fair-1"
#: Length of a game seed in bytes.
SEED_BYTES: Final = 32
#: Longest client seed accepted, in UTF-8 bytes.
MAX_CLIENT_SEED_BYTES: Final = 256

#: Label of the stream that picks the first Warden's seat.
LABEL_FIRST_WARDEN: Final = "first-warden"
#: Label of the stream that shuffles the plot stack at the start of the game.
LABEL_PLOTS: Final = "plots"

_KEY_PREFIX: Final = b"quaymoor-key-1"
_COMMIT_PREFIX: Final = b"quaymoor-commit-2"
_MAX_FIELD: Final = 0xFFFF  # a field's length is written in 2 bytes
_HEX = frozenset("0123456789abcdef")
_BLOCK_BYTES: Final = 32  # one HMAC-SHA256 output
_SAMPLE_BYTES: Final = 4
_SAMPLE_RANGE: Final = 1 << 32


def _check_seed(seed: bytes) -> None:
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed must be exactly {SEED_BYTES} bytes, got {len(seed)}")


class ClientSeedError(ValueError):
    """A client seed that cannot go into a game key: not a string, empty, holding NUL,
    not valid Unicode (a lone surrogate such as ``"\\ud800"``) or over the limit."""


def check_client_seed(value: object) -> str:
    """``value`` as a client seed, or ``ClientSeedError`` saying what is wrong with it.

    A client seed is a non-empty string without NUL of at most
    :data:`MAX_CLIENT_SEED_BYTES` UTF-8 bytes. Nothing is dropped or replaced: a seed that
    is not good is refused.
    """
    if not isinstance(value, str):
        raise ClientSeedError(f"a client seed is a string, not {type(value).__name__}")
    if not value:
        raise ClientSeedError("a client seed may not be empty")
    if "\x00" in value:
        raise ClientSeedError("a client seed may not hold NUL (U+0000)")
    try:
        encoded = value.encode("utf-8")
    except UnicodeEncodeError:
        raise ClientSeedError("a client seed must be valid Unicode (it has a lone "
                              "surrogate, which UTF-8 cannot encode)") from None
    if len(encoded) > MAX_CLIENT_SEED_BYTES:
        raise ClientSeedError(f"a client seed is at most {MAX_CLIENT_SEED_BYTES} UTF-8 "
                              f"bytes; this one is {len(encoded)}")
    return value


def new_seed() -> bytes:
    """Draw a fresh game seed from the operating system's secure generator."""
    return secrets.token_bytes(SEED_BYTES)


def new_client_seed() -> str:
    """A client seed as the web client draws one: 128 random bits as 32 hex digits (a
    commitment hides a seed only when it is hard to guess)."""
    return secrets.token_hex(16)


def fingerprint(seed: bytes) -> str:
    """The commitment published before the game: lowercase hex SHA-256 of the raw seed."""
    _check_seed(seed)
    return hashlib.sha256(seed).hexdigest()


def seed_to_hex(seed: bytes) -> str:
    """The seed as 64 lowercase hex characters."""
    _check_seed(seed)
    return seed.hex()


def seed_from_hex(text: str) -> bytes:
    """Parse a seed written as exactly 64 hex characters (either case)."""
    expected = 2 * SEED_BYTES
    if len(text) != expected:
        raise ValueError(
            f"a seed must be exactly {expected} hex characters, got {len(text)} characters"
        )
    if any(c not in "0123456789abcdefABCDEF" for c in text):
        raise ValueError("a seed must contain only hex characters 0-9 and a-f")
    return bytes.fromhex(text)


def derive_key(seed: bytes, client_seeds: Sequence[str] = ()) -> bytes:
    """The game key: HMAC-SHA256(key=seed, msg=prefix || NUL || length-prefixed client seeds).

    Each client seed, in the order given, contributes its UTF-8 length as 2 bytes big-endian
    followed by its UTF-8 bytes.
    """
    _check_seed(seed)
    if isinstance(client_seeds, str):
        raise TypeError("client_seeds must be a sequence of strings, not a single string")
    message = bytearray(_KEY_PREFIX)
    message.append(0)
    for index, client_seed in enumerate(client_seeds):
        encoded = client_seed.encode("utf-8")
        if len(encoded) > MAX_CLIENT_SEED_BYTES:
            raise ValueError(
                f"client seed {index} is {len(encoded)} UTF-8 bytes; "
                f"at most {MAX_CLIENT_SEED_BYTES} are allowed"
            )
        message += len(encoded).to_bytes(2, "big")
        message += encoded
    return hmac.digest(seed, bytes(message), "sha256")


class DrawStream:
    """The byte stream for one label: block_0 || block_1 || ... where
    block_i = HMAC-SHA256(key, label_utf8 || NUL || i as 8 bytes big-endian).

    Bytes are handed out in order and never reused.
    """

    def __init__(self, key: bytes, label: str) -> None:
        self._key = bytes(key)
        self._label = label.encode("utf-8")
        self._next_block = 0
        self._buffer = bytearray()

    def _block(self, index: int) -> bytes:
        message = self._label + b"\x00" + index.to_bytes(8, "big")
        return hmac.digest(self._key, message, "sha256")

    def take(self, n: int) -> bytes:
        """The next ``n`` bytes of the stream."""
        if n < 0:
            raise ValueError(f"cannot take a negative number of bytes ({n})")
        while len(self._buffer) < n:
            self._buffer += self._block(self._next_block)
            self._next_block += 1
        out = bytes(self._buffer[:n])
        del self._buffer[:n]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` for ``1 <= n <= 2**32``, by rejection sampling.

        Reads 4 bytes as an unsigned big-endian integer ``x``; if ``x`` is at or above the
        largest multiple of ``n`` not over 2**32 it is thrown away and 4 more are read;
        otherwise the result is ``x % n``. ``below(1)`` still reads 4 bytes and returns 0.
        """
        if n < 1 or n > _SAMPLE_RANGE:
            raise ValueError(f"below(n) needs 1 <= n <= 2**32, got {n}")
        limit = (_SAMPLE_RANGE // n) * n
        while True:
            x = int.from_bytes(self.take(_SAMPLE_BYTES), "big")
            if x < limit:
                return x % n


def draw_below(key: bytes, label: str, n: int) -> int:
    """One ``below(n)`` from a fresh stream for ``label``."""
    return DrawStream(key, label).below(n)


def shuffled(key: bytes, label: str, items: Sequence[T]) -> list[T]:
    """A Fisher-Yates shuffle of a copy of ``items`` using one stream for ``label``.

    For ``i`` from ``len - 1`` down to 1: ``j = below(i + 1)``, then swap positions
    ``i`` and ``j``. The input is not modified.
    """
    out = list(items)
    stream = DrawStream(key, label)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def reshuffle_label(k: int) -> str:
    """The label for the ``k``-th reshuffle of the plot stack in a game (``k >= 1``)."""
    if k < 1:
        raise ValueError(f"reshuffles are counted from 1, got {k}")
    return f"plots-reshuffle-{k}"


# ------------------------------------------------------- quaymoor-fair-3 (and fair-2)


class DealError(ValueError):
    """A table's seats that cannot make a ``quaymoor-fair-3`` (or ``-2``) key: a seed with no
    commitment or not matching it, a bot with a seed or commitment, a malformed field."""


#: The bots' names, in the order they are given (``bot_names``).
BOT_NAMES: Final = ("Ada", "Bede", "Cuthbert", "Dunstan", "Edith", "Frideswide", "Godric",
                    "Hilda")
_BOT_SUFFIX: Final = " (bot)"


def bot_names(people: Sequence[str | None]) -> list[str | None]:
    """The names the bots at a table get, fixed by the people's: ``people`` has per seat a
    person's name, or None for a bot's chair; the bots' chairs, in seat order, take the
    first names of :data:`BOT_NAMES` that no person at the table has (with or without
    " (bot)"), each with " (bot)".
    (The result has None at the people's seats.) Nobody chooses a bot's name: under
    ``quaymoor-fair-2``, whose key binds every seat's name, a server could otherwise have
    tried names to move the key (verifiers check format 4's bot names for that reason)."""
    taken = {name.removesuffix(_BOT_SUFFIX) for name in people if name is not None}
    free = iter(name + _BOT_SUFFIX for name in BOT_NAMES if name not in taken)
    return [next(free) if name is None else None for name in people]


class DealtSeat(NamedTuple):
    """One seat as the key binds it: its name (``quaymoor-fair-2`` only), whether it is a
    bot's own chair, the
    commitment its player sent (64 lowercase hex digits; None: none) and the client seed
    it revealed (None: none, or a commitment never revealed)."""

    name: str
    bot: bool
    commitment: str | None = None
    client_seed: str | None = None


class Deal(NamedTuple):
    """What a table's start fixes besides the server's seed: its id and its seats."""

    table_id: str
    seats: tuple[DealtSeat, ...]

    @property
    def client_seeds(self) -> list[str]:
        """The revealed client seeds in seat order (a record's ``client_seeds``)."""
        return [s.client_seed for s in self.seats if s.client_seed is not None]


def _field(text: str, what: str) -> bytes:
    """``text`` as UTF-8, prefixed with its length in 2 bytes big-endian."""
    try:
        encoded = text.encode("utf-8")
    except UnicodeEncodeError:
        raise DealError(f"{what} is not valid Unicode (a lone surrogate)") from None
    if len(encoded) > _MAX_FIELD:
        raise DealError(f"{what} is {len(encoded)} UTF-8 bytes; at most {_MAX_FIELD}")
    return len(encoded).to_bytes(2, "big") + encoded


def _seat_count(players: int) -> bytes:
    if not 1 <= players <= 255:
        raise DealError(f"a table has 1 to 255 seats, not {players}")
    return bytes([players])


def _dealt(algorithm: str) -> tuple[bytes, bool]:
    try:
        return DEALT_ALGORITHMS[algorithm]
    except KeyError:
        raise DealError(f"no table is dealt with algorithm {algorithm!r}") from None


def table_fingerprint(seed: bytes, table_id: str, players: int,
                      algorithm: str = ALGORITHM) -> str:
    """The commitment a table publishes when it is created: lowercase hex SHA-256 of
    ``algorithm || 0x00 || field(table_id) || players (1 byte) || seed`` (``algorithm``
    "quaymoor-fair-3", or "quaymoor-fair-2" for a format-4 record)."""
    _check_seed(seed)
    _dealt(algorithm)
    message = (algorithm.encode("ascii") + b"\x00" + _field(table_id, "the table id")
               + _seat_count(players) + seed)
    return hashlib.sha256(message).hexdigest()


def seed_commitment(table_id: str, seat: int, client_seed: str) -> str:
    """A seat's commitment to its client seed, sent before any seed is revealed:
    lowercase hex SHA-256 of ``"quaymoor-commit-2" || 0x00 || field(table_id) || seat
    (1 byte) || field(client_seed)``."""
    if not 0 <= seat <= 254:
        raise DealError(f"a seat is numbered 0 to 254, not {seat}")
    message = (_COMMIT_PREFIX + b"\x00" + _field(table_id, "the table id") + bytes([seat])
               + _field(client_seed, "the client seed"))
    return hashlib.sha256(message).hexdigest()


def check_commitment(value: object) -> str:
    """``value`` as a commitment (64 lowercase hex digits), or ``DealError``."""
    if not isinstance(value, str):
        raise DealError(f"a commitment is a string, not {type(value).__name__}")
    if len(value) != 64 or not set(value) <= _HEX:
        raise DealError("a commitment is 64 lowercase hex digits (SHA-256)")
    return value


def check_deal(deal: Deal) -> None:
    """Raises ``DealError`` naming the first seat whose entries cannot go together: a
    bot's chair with a commitment or a seed (bots hold no seed), a seed with no
    commitment, a seed that does not match its commitment, a bad commitment."""
    for index, seat in enumerate(deal.seats):
        where = f"seat {index} ({seat.name})"
        if seat.bot and (seat.commitment is not None or seat.client_seed is not None):
            raise DealError(f"{where} is a bot, and bots hold no seed nor commitment")
        if seat.commitment is not None:
            try:
                check_commitment(seat.commitment)
            except DealError as exc:
                raise DealError(f"{where}: {exc}") from None
        if seat.client_seed is None:
            continue
        if seat.commitment is None:
            raise DealError(f"{where} gives a client seed it never committed to")
        try:
            check_client_seed(seat.client_seed)
        except ClientSeedError as exc:
            raise DealError(f"{where}: {exc}") from None
        if seed_commitment(deal.table_id, index, seat.client_seed) != seat.commitment:
            raise DealError(f"{where}: its client seed {seat.client_seed!r} does not match "
                            f"its commitment {seat.commitment}")


def deal_key(seed: bytes, deal: Deal, algorithm: str = ALGORITHM) -> bytes:
    """The game key: HMAC-SHA256(key=seed, msg="quaymoor-key-3" || 0x00 || field(table_id)
    || seats (1 byte) || per seat: bot (1 byte) || commitment (0x00, or 0x01 and its 32
    bytes) || seed (0x00, or 0x01 and field(seed))). ``quaymoor-fair-2`` (format 4):
    "quaymoor-key-2", and each seat's field(name) after its bot byte. The deal is checked
    first (``check_deal``)."""
    _check_seed(seed)
    prefix, named = _dealt(algorithm)
    check_deal(deal)
    message = bytearray(prefix + b"\x00")
    message += _field(deal.table_id, "the table id")
    message += _seat_count(len(deal.seats))
    for index, seat in enumerate(deal.seats):
        message.append(1 if seat.bot else 0)
        if named:
            message += _field(seat.name, f"seat {index}'s name")
        if seat.commitment is None:
            message.append(0)
        else:
            message += b"\x01" + bytes.fromhex(seat.commitment)
        if seat.client_seed is None:
            message.append(0)
        else:
            message += b"\x01" + _field(seat.client_seed, f"seat {index}'s client seed")
    return hmac.digest(seed, bytes(message), "sha256")

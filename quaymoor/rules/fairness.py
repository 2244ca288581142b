"""Seeded, verifiable randomness for a game (algorithm ``quaymoor-fair-1``).

Every random choice in a game comes from the game's 32-byte seed, never from Python's
random-number module. The server draws the seed with :mod:`secrets` when the table is
created and publishes its fingerprint, SHA-256(seed), before anyone joins; the seed itself
is revealed when the game ends. A key is derived from the seed (and any client seeds the
players' browsers added) with HMAC-SHA256; each kind of draw (first Warden, plot stack,
each reshuffle) reads its own HMAC-SHA256 byte stream named by a label, turns bytes into
integers by rejection sampling and shuffles with Fisher-Yates.

The exact algorithm, how the game uses it and test vectors are in ``docs/fairness.md``;
change nothing here without changing that document and :data:`ALGORITHM`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import Final, TypeVar

__all__ = [
    "ALGORITHM",
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
    "new_seed",
    "reshuffle_label",
    "seed_from_hex",
    "seed_to_hex",
    "shuffled",
]

T = TypeVar("T")

#: The algorithm version string, recorded in every game record.
ALGORITHM: Final = "quaymoor-fair-1"
#: Length of a game seed in bytes.
SEED_BYTES: Final = 32
#: Longest client seed accepted, in UTF-8 bytes.
MAX_CLIENT_SEED_BYTES: Final = 256

#: Label of the stream that picks the first Warden's seat.
LABEL_FIRST_WARDEN: Final = "first-warden"
#: Label of the stream that shuffles the plot stack at the start of the game.
LABEL_PLOTS: Final = "plots"

_KEY_PREFIX: Final = b"quaymoor-key-1"
_BLOCK_BYTES: Final = 32  # one HMAC-SHA256 output
_SAMPLE_BYTES: Final = 4
_SAMPLE_RANGE: Final = 1 << 32


def _check_seed(seed: bytes) -> None:
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed must be exactly {SEED_BYTES} bytes, got {len(seed)}")


class ClientSeedError(ValueError):
    """A client seed that cannot go into a game key: not a string, empty, not valid
    Unicode (a lone surrogate such as ``"\\ud800"``) or over the limit."""


def check_client_seed(value: object) -> str:
    """``value`` as a client seed, or ``ClientSeedError`` saying what is wrong with it.

    A client seed is a non-empty string of at most :data:`MAX_CLIENT_SEED_BYTES` UTF-8
    bytes. Nothing is dropped or replaced: a seed that is not good is refused.
    """
    if not isinstance(value, str):
        raise ClientSeedError(f"a client seed is a string, not {type(value).__name__}")
    if not value:
        raise ClientSeedError("a client seed may not be empty")
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

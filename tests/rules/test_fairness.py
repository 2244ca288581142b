"""Tests for quaymoor.rules.fairness, checked against independent computations and the
test vectors published in docs/fairness.md."""

from __future__ import annotations

import ast
import hashlib
import hmac
import re
from collections import Counter
from pathlib import Path

import pytest

from quaymoor.rules import fairness
from quaymoor.rules.fairness import (
    ALGORITHM,
    ALGORITHM_1,
    LABEL_FIRST_WARDEN,
    LABEL_PLOTS,
    SEED_BYTES,
    DrawStream,
    derive_key,
    draw_below,
    fingerprint,
    new_seed,
    reshuffle_label,
    seed_from_hex,
    seed_to_hex,
    shuffled,
)

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "fairness.md"
RULES_DIR = ROOT / "quaymoor" / "rules"

SEED = bytes(range(32))
SEED_HEX = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
KEY = derive_key(SEED)


def _hmac(key: bytes, msg: bytes) -> bytes:
    return hmac.new(key, msg, hashlib.sha256).digest()


def _reference_stream(key: bytes, label: str, nbytes: int) -> bytes:
    """The stream written out from the spec, block by block."""
    out = b""
    i = 0
    while len(out) < nbytes:
        out += _hmac(key, label.encode("utf-8") + b"\x00" + i.to_bytes(8, "big"))
        i += 1
    return out[:nbytes]


def _reference_shuffle(key: bytes, label: str, items: list[int]) -> list[int]:
    """Fisher-Yates with rejection sampling, written out independently of the module."""
    data = _reference_stream(key, label, 4096)
    pos = 0
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = (2**32 // n) * n
        while True:
            x = int.from_bytes(data[pos : pos + 4], "big")
            pos += 4
            if x < limit:
                break
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


# --- constants and seeds -------------------------------------------------------------------


def test_constants() -> None:
    assert ALGORITHM == "quaymoor-fair-3"
    assert ALGORITHM_1 == "quaymoor-fair-1"
    assert SEED_BYTES == 32
    assert LABEL_FIRST_WARDEN == "first-warden"
    assert LABEL_PLOTS == "plots"
    assert reshuffle_label(1) == "plots-reshuffle-1"
    assert reshuffle_label(12) == "plots-reshuffle-12"
    with pytest.raises(ValueError):
        reshuffle_label(0)


def test_new_seed_is_32_fresh_bytes() -> None:
    a, b = new_seed(), new_seed()
    assert isinstance(a, bytes)
    assert len(a) == 32
    assert len(b) == 32
    assert a != b


def test_fingerprint_is_sha256_of_raw_seed() -> None:
    assert fingerprint(SEED) == hashlib.sha256(SEED).hexdigest()
    assert fingerprint(SEED) == (
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    )
    seed = new_seed()
    assert fingerprint(seed) == hashlib.sha256(seed).hexdigest()
    # Over the raw bytes, not the hex text.
    assert fingerprint(SEED) != hashlib.sha256(SEED_HEX.encode()).hexdigest()


def test_seed_hex_round_trip() -> None:
    assert seed_to_hex(SEED) == SEED_HEX
    assert seed_from_hex(SEED_HEX) == SEED
    assert seed_from_hex(SEED_HEX.upper()) == SEED
    seed = new_seed()
    text = seed_to_hex(seed)
    assert len(text) == 64
    assert text == text.lower()
    assert seed_from_hex(text) == seed


@pytest.mark.parametrize(
    "text",
    [
        "",
        SEED_HEX[:-2],  # 62 characters
        SEED_HEX + "00",  # 66 characters
        SEED_HEX[:-1] + "g",  # not hex
        SEED_HEX[:-2] + " f",  # space inside
        " " + SEED_HEX[1:],
        "0x" + SEED_HEX[2:],
        SEED_HEX[:-1] + "\u0661",  # a non-ASCII digit
    ],
)
def test_seed_from_hex_rejects_bad_input(text: str) -> None:
    with pytest.raises(ValueError, match="seed"):
        seed_from_hex(text)


def test_seeds_of_the_wrong_length_are_rejected() -> None:
    with pytest.raises(ValueError):
        fingerprint(SEED[:31])
    with pytest.raises(ValueError):
        derive_key(SEED + b"\x00")


# --- key derivation ------------------------------------------------------------------------


def test_derive_key_without_client_seeds() -> None:
    expected = hmac.new(SEED, b"quaymoor-key-1\x00", hashlib.sha256).digest()
    assert derive_key(SEED) == expected
    assert derive_key(SEED, []) == expected
    assert len(expected) == 32


def test_derive_key_with_client_seeds() -> None:
    message = b"quaymoor-key-1" + b"\x00" + b"\x00\x05" + b"alice" + b"\x00\x03" + b"bob"
    expected = hmac.new(SEED, message, hashlib.sha256).digest()
    assert derive_key(SEED, ["alice", "bob"]) == expected
    # Order matters, and the length prefix keeps splits apart.
    assert derive_key(SEED, ["bob", "alice"]) != expected
    assert derive_key(SEED, ["ab", "c"]) != derive_key(SEED, ["a", "bc"])
    assert derive_key(SEED, [""]) != derive_key(SEED)


def test_derive_key_uses_utf8_byte_length() -> None:
    name = "Ærø 🌾"
    raw = name.encode("utf-8")
    message = b"quaymoor-key-1\x00" + len(raw).to_bytes(2, "big") + raw
    assert derive_key(SEED, [name]) == hmac.new(SEED, message, hashlib.sha256).digest()


def test_derive_key_client_seed_limit() -> None:
    derive_key(SEED, ["x" * 256])
    derive_key(SEED, ["é" * 128])  # 256 UTF-8 bytes
    with pytest.raises(ValueError):
        derive_key(SEED, ["x" * 257])
    with pytest.raises(ValueError):
        derive_key(SEED, ["ok", "é" * 129])  # 258 UTF-8 bytes, though only 129 characters


# --- the byte stream -----------------------------------------------------------------------


def test_stream_first_block_is_independent_hmac() -> None:
    block0 = hmac.new(KEY, b"plots\x00" + bytes(8), hashlib.sha256).digest()
    assert DrawStream(KEY, "plots").take(32) == block0


def test_stream_is_consumed_in_order_across_blocks() -> None:
    stream = DrawStream(KEY, "plots")
    parts = [stream.take(n) for n in (5, 0, 40, 3, 33, 1)]
    assert b"".join(parts) == _reference_stream(KEY, "plots", 82)
    # A second block really is block 1, not a repeat of block 0.
    block1 = hmac.new(KEY, b"plots\x00" + (1).to_bytes(8, "big"), hashlib.sha256).digest()
    assert _reference_stream(KEY, "plots", 64)[32:] == block1
    assert DrawStream(KEY, "plots").take(64)[32:] == block1


def test_take_rejects_negative() -> None:
    with pytest.raises(ValueError):
        DrawStream(KEY, "plots").take(-1)


class ScriptedStream(DrawStream):
    """A stream whose bytes are given by the test."""

    def __init__(self, data: bytes) -> None:
        super().__init__(b"unused", "unused")
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        out = self.data[self.pos : self.pos + n]
        assert len(out) == n, "the test ran out of scripted bytes"
        self.pos += n
        return out


def _words(*values: int) -> bytes:
    return b"".join(v.to_bytes(4, "big") for v in values)


def test_below_rejects_values_at_or_above_limit() -> None:
    # n = 3: limit = (2**32 // 3) * 3 = 0xFFFFFFFF, so only 0xFFFFFFFF is rejected.
    stream = ScriptedStream(_words(0xFFFFFFFF, 7))
    assert stream.below(3) == 1
    assert stream.pos == 8
    # Just under the limit is accepted.
    stream = ScriptedStream(_words(0xFFFFFFFE))
    assert stream.below(3) == 0xFFFFFFFE % 3
    # n = 2**31 + 1: limit = 2**31 + 1; everything from there up is rejected.
    n = 2**31 + 1
    stream = ScriptedStream(_words(2**31 + 1, 2**32 - 1, 2**31, 5))
    assert stream.below(n) == 2**31
    assert stream.pos == 12


def test_below_reads_big_endian_and_reduces_mod_n() -> None:
    assert ScriptedStream(bytes([0, 0, 1, 2])).below(1000) == 258
    assert ScriptedStream(_words(1234567)).below(10) == 7


def test_below_one_still_consumes_four_bytes() -> None:
    stream = ScriptedStream(_words(99, 100))
    assert stream.below(1) == 0
    assert stream.pos == 4
    real = DrawStream(KEY, "plots")
    assert real.below(1) == 0
    assert real.take(4) == _reference_stream(KEY, "plots", 8)[4:]


def test_below_range_checks() -> None:
    stream = DrawStream(KEY, "plots")
    for bad in (0, -1, 2**32 + 1):
        with pytest.raises(ValueError):
            stream.below(bad)
    # n = 2**32 never rejects: it returns the 4 bytes as an integer.
    x = int.from_bytes(_reference_stream(KEY, "x", 4), "big")
    assert DrawStream(KEY, "x").below(2**32) == x


def test_below_is_roughly_uniform() -> None:
    stream = DrawStream(KEY, "uniformity")
    draws = 6000
    counts = Counter(stream.below(6) for _ in range(draws))
    assert set(counts) == set(range(6))
    for value in range(6):
        assert 800 <= counts[value] <= 1200, counts
    expected = draws / 6
    chi2 = sum((counts[v] - expected) ** 2 / expected for v in range(6))
    assert chi2 < 20.5, (chi2, counts)  # p = 0.001 for 5 degrees of freedom


def test_draw_below_uses_a_fresh_stream() -> None:
    for n in (1, 2, 3, 4, 5, 6, 1000, 2**32):
        assert draw_below(KEY, "first-warden", n) == DrawStream(KEY, "first-warden").below(n)
    x = int.from_bytes(_reference_stream(KEY, "first-warden", 4), "big")
    assert draw_below(KEY, "first-warden", 4) == x % 4


# --- shuffling -----------------------------------------------------------------------------


def test_shuffled_is_a_permutation_and_leaves_input_alone() -> None:
    items = list(range(20))
    original = list(items)
    out = shuffled(KEY, "plots", items)
    assert items == original
    assert out is not items
    assert sorted(out) == original
    assert out != original  # 1 in 20! chance of failing for a correct shuffle; fixed key

    as_tuple = ("clay", "flax", "flax", "wool")
    out_t = shuffled(KEY, "plots", as_tuple)
    assert isinstance(out_t, list)
    assert sorted(out_t) == sorted(as_tuple)


def test_shuffled_matches_reference_fisher_yates() -> None:
    for label in ("plots", "plots-reshuffle-1", "plots-reshuffle-2", "other"):
        for size in (0, 1, 2, 3, 10, 52):
            items = list(range(size))
            assert shuffled(KEY, label, items) == _reference_shuffle(KEY, label, items)


def test_shuffled_small_lists() -> None:
    assert shuffled(KEY, "plots", []) == []
    assert shuffled(KEY, "plots", ["clay"]) == ["clay"]


def test_same_key_and_label_repeat_different_labels_differ() -> None:
    items = list(range(30))
    assert shuffled(KEY, "plots", items) == shuffled(KEY, "plots", items)
    assert shuffled(KEY, "plots", items) != shuffled(KEY, reshuffle_label(1), items)
    assert shuffled(KEY, reshuffle_label(1), items) != shuffled(KEY, reshuffle_label(2), items)
    assert DrawStream(KEY, "plots").take(32) != DrawStream(KEY, "first-warden").take(32)
    other_key = derive_key(SEED, ["alice"])
    assert shuffled(KEY, "plots", items) != shuffled(other_key, "plots", items)


def test_shuffle_hits_every_arrangement_of_three() -> None:
    seen = {tuple(shuffled(KEY, f"perm-{i}", [0, 1, 2])) for i in range(200)}
    assert len(seen) == 6


# --- the document --------------------------------------------------------------------------


def _doc() -> str:
    return DOC.read_text(encoding="utf-8")


def _vectors() -> dict[str, str]:
    key = derive_key(SEED)
    stream = DrawStream(key, "plots")
    return {
        "seed": seed_to_hex(SEED),
        "fingerprint": fingerprint(SEED),
        "key": key.hex(),
        "plots_8": stream.take(8).hex(),
        "shuffle": str(shuffled(key, "plots", list(range(10)))),
        "reshuffle": str(shuffled(key, "plots-reshuffle-1", list(range(10)))),
        "key_alice_bob": derive_key(SEED, ["alice", "bob"]).hex(),
    }


def _fair1_vectors() -> str:
    """The doc's test vectors of ``quaymoor-fair-1`` (those of fair-2 are in test_deal)."""
    doc = _doc()
    return doc[doc.index("### `quaymoor-fair-1`\n\nWith no client seeds"):
               doc.index("## How to check a game yourself")]


def test_doc_test_vectors_match_code() -> None:
    vectors = _vectors()
    for name, value in vectors.items():
        assert value in _doc(), f"{name} vector {value} is missing from docs/fairness.md"
    doc = _fair1_vectors()

    lines = doc.splitlines()

    def line_with(prefix: str) -> str:
        found = [line.strip() for line in lines if line.strip().startswith(prefix)]
        assert len(found) == 1, f"expected one line starting {prefix!r} in the doc"
        return found[0]

    fingerprints = re.findall(r"^\s+fingerprint\s+([0-9a-f]{64})$", doc, re.MULTILINE)
    assert fingerprints == [vectors["fingerprint"]]
    assert line_with('stream "plots", first 8 bytes').split()[-1] == vectors["plots_8"]
    keys = [line.split()[-1] for line in lines if re.match(r"\s+key\s+[0-9a-f]{64}$", line)]
    assert keys == [vectors["key"], vectors["key_alice_bob"]]
    for n in (2, 3, 4, 5):
        warden = draw_below(KEY, LABEL_FIRST_WARDEN, n)
        assert 0 <= warden < n
        assert line_with(f"first Warden, N={n} ") == f"first Warden, N={n}   {warden}"


def test_doc_key_message_vector() -> None:
    message = b"quaymoor-key-1\x00\x00\x05alice\x00\x03bob"
    assert message.hex() in _doc()


def test_doc_names_the_algorithm_and_labels() -> None:
    doc = _doc()
    assert f"`{ALGORITHM}`" in doc
    for text in ('"first-warden"', '"plots"', '"plots-reshuffle-k"', "quaymoor verify"):
        assert text in doc
    for kind in ("clay", "flax", "wool", "honey", "amber"):
        assert f"`{kind}`" in doc


def test_module_docstring_points_to_doc() -> None:
    assert fairness.__doc__ is not None
    assert "docs/fairness.md" in fairness.__doc__


# --- no other randomness -------------------------------------------------------------------

_RANDOM_IMPORT = re.compile(r"^\s*(?:import\s+random\b|from\s+random\b)", re.MULTILINE)


def test_rules_never_import_random() -> None:
    sources = sorted(RULES_DIR.rglob("*.py"))
    assert RULES_DIR / "fairness.py" in sources
    for path in sources:
        text = path.read_text(encoding="utf-8")
        assert not _RANDOM_IMPORT.search(text), f"{path} imports random"
        try:
            tree = ast.parse(text, filename=str(path))
        except SyntaxError:
            continue  # the text check above still applied; other tests report the error
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] != "random", f"{path} imports {name}"

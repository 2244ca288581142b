"""Inputs built from the shapes of ``schema``: one ``Case`` per input.

Values come from hypothesis (``values.hostile``, ``values.unicode_text``, drawn into
``Pools``); ``Maker`` walks the shapes and splices them in. A case is a template: values
that depend on the live server (this connection's table, a seat's token, another table's
token, the table's version) are ``Slot`` markers, filled in when the case is sent
(``fill``).

For every field of every shape a case is one of: all fields valid; one field replaced by a
hostile value of any JSON type; one field missing; an extra key; the tag wrong; or the
whole message not an object. ``Case.field`` and ``Case.kind`` say which, for the report.
"""

from __future__ import annotations

import random
import re
from typing import Any, Final

import attrs
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from quaymoor.tools.fuzz import values as V
from quaymoor.tools.fuzz.schema import ACTION_INT_RANGE, ACTIONS, MESSAGES, FieldSpec, Shape


@attrs.frozen
class Slot:
    """A value known only when sending: ``table``, ``token`` (this seat's), ``seat_token``
    (another seat's of the same table), ``foreign_token`` (another table's), ``version``,
    ``other_table``."""

    name: str


@attrs.frozen
class Case:
    """One input: where it is aimed (``field``), what kind of value is there, the value."""

    field: str
    kind: str
    value: Any


SLOTS: Final = ("table", "token", "seat_token", "foreign_token", "version", "other_table")


def fill(value: Any, slots: dict[str, Any]) -> Any:
    """``value`` with every ``Slot`` replaced from ``slots``."""
    if isinstance(value, Slot):
        return slots.get(value.name)
    if isinstance(value, dict):
        return {k: fill(v, slots) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, slots) for v in value]
    return value


_SURROGATE = re.compile("[\ud800-\udfff]")


def frame(case: Case, slots: dict[str, Any]) -> str | bytes:
    """The text (or bytes) a case sends. A text frame must be UTF-8, so a lone surrogate
    written raw (in broken JSON) travels escaped, as JSON writes it."""
    if isinstance(case.value, bytes):
        return case.value
    text = V.dumps(fill(case.value, slots))
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


# ---------------------------------------------------------------- pools


@attrs.frozen
class Pools:
    """Values drawn by hypothesis once (``pools``), spliced into shapes by ``Maker``:
    drawing each input through hypothesis costs a few milliseconds, too slow for 100,000;
    a pool of a few thousand edge values times every shape, field and mutation is not."""

    hostile: tuple[Any, ...]
    texts: tuple[str, ...]
    raw: tuple[Case, ...]


def raw_frames() -> st.SearchStrategy[Case]:
    """Frames that are not a message: broken JSON, odd text, binary frames."""
    broken = st.sampled_from(['{"type":', "{", '{"type":"act"', "[", '"', "\\", "{]", "",
                              " ", '{"type":"ping"}{', "\x00", "\ud800", '{"type":"ping",}'])
    return st.one_of(
        broken.map(lambda t: Case("(whole frame)", "broken JSON", V.Raw(t, "broken JSON"))),
        st.text(max_size=60).map(lambda t: Case("(whole frame)", "text", V.Raw(t, "text"))),
        st.binary(max_size=200).map(lambda b: Case("(whole frame)", "binary frame", b)),
    )


def pools(n: int, salt: int) -> Pools:
    """About ``n`` hostile values, ``n`` strings and ``n // 4`` raw frames."""
    return Pools(tuple(draw(V.hostile(), n, salt)), tuple(draw(V.unicode_text(), n, salt)),
                 tuple(draw(raw_frames(), max(n // 4, 10), salt)))


# ---------------------------------------------------------------- cases

_MUTATIONS: Final = ("field", "field", "field", "missing", "extra", "tag", "valid")
_EXTRA_KEYS: Final = ("extra", "seat", "type ", "__proto__", "Type", "action ")


class Maker:
    """Cases for every shape of ``schema``, drawn with ``rng`` from ``pools``."""

    def __init__(self, rng: random.Random, pools: Pools) -> None:
        self.rng = rng
        self.pools = pools
        self.hello = next(m for m in MESSAGES if m.name == "hello")
        by_kind: dict[str, list[Any]] = {}
        for value in pools.hostile + pools.texts:
            by_kind.setdefault(V.kind_of(value), []).append(value)
        self.kinds = sorted(by_kind)
        self.by_kind = by_kind
        #: Every kind alike, but the ones near 64 KiB a tenth as often (bandwidth).
        self.weights = [0.1 if k in V.BULKY_KINDS else 1.0 for k in self.kinds]
        #: Field names of every shape: an extra key is often one that belongs elsewhere.
        self.known_keys = sorted({f.name for shape in (*MESSAGES, *ACTIONS)
                                  for f in shape.fields})

    def learn(self, shapes: tuple[Shape, ...]) -> None:
        """Add the fields of more shapes (the routes, once the document is read)."""
        self.known_keys = sorted({*self.known_keys, *(f.name for s in shapes for f in s.fields)})

    def hostile(self) -> Any:
        """A hostile value, its kind first (evenly), then one of that kind."""
        kind = self.rng.choices(self.kinds, self.weights)[0]
        return self.rng.choice(self.by_kind[kind])

    def valid(self, field: FieldSpec) -> Any:
        """A value the field takes (its name says where it comes from on the server)."""
        rng = self.rng
        nullable = "null" in field.kinds and rng.random() < 0.2
        if nullable:
            return None
        if field.choices:
            return rng.choice(field.choices)
        if field.name == "table":
            return Slot(rng.choice(("table", "table", "table", "other_table")))
        if field.name == "token":
            return Slot(rng.choice(("token", "token", "seat_token", "foreign_token")))
        if field.name == "since":
            return rng.choice((None, Slot("version"), rng.randint(0, 300)))
        if field.name == "action":
            return self.action_value()
        if "integer" in field.kinds:
            low = field.minimum if field.minimum is not None else ACTION_INT_RANGE[0] + 1
            high = field.maximum if field.maximum is not None else ACTION_INT_RANGE[1] - 1
            return rng.randint(low, high)
        if "string" in field.kinds:
            return rng.choice(("Ada", "Bede", "my dice", "x" * 24, self.rng.choice(
                self.pools.texts)))
        if "object" in field.kinds:
            return {}
        return None

    def action_value(self) -> dict[str, Any]:
        """A valid-shaped action (its enum values random, so some are legal)."""
        shape = self.rng.choice(ACTIONS)
        return {"type": shape.name, **{f.name: self.valid(f) for f in shape.fields}}

    def shaped(self, shape: Shape, tag_key: str | None, prefix: str = "") -> Case:
        """All fields valid, or one field (or the tag) hostile, missing, or an extra key."""
        rng = self.rng
        body: dict[str, Any] = {} if tag_key is None else {tag_key: shape.name}
        for field in shape.fields:
            if field.required or rng.random() < 0.5:
                body[field.name] = self.valid(field)
        names = [f.name for f in shape.fields]
        how = rng.choice(_MUTATIONS if names else _MUTATIONS[4:])
        where = f"{prefix}{shape.name}"
        if how == "field":
            name = rng.choice(names)
            body[name] = value = self.hostile()
            return Case(f"{where}.{name}", V.kind_of(value), body)
        if how == "missing":
            name = rng.choice(names)
            body.pop(name, None)
            return Case(f"{where}.{name}", "missing", body)
        if how == "extra":
            key = rng.choice((*_EXTRA_KEYS, rng.choice(self.pools.texts),
                              *(rng.choice(self.known_keys) for _ in range(6))))
            key = key + "_" if key in body else key
            body[key] = value = self.hostile()
            return Case(f"{where}.(extra key)", V.kind_of(value), body)
        if how == "tag" and tag_key is not None:
            value = rng.choice((self.hostile(), rng.choice(MESSAGES).name,
                                rng.choice(ACTIONS).name, shape.name.upper()))
            body[tag_key] = value
            return Case(f"{where}.{tag_key}", V.kind_of(value), body)
        return Case(where, "valid", body)

    def message(self) -> Case:
        """Any client message after the hello (a second hello included)."""
        return self.shaped(self.rng.choice(MESSAGES), "type")

    def act(self) -> Case:
        """An ``act`` whose action's fields are mutated like a message's."""
        case = self.shaped(self.rng.choice(ACTIONS), "type")
        return Case(f"act.action.{case.field}", case.kind, {"type": "act", "action": case.value})

    def first_frame(self) -> Case:
        """A first frame: mostly a hello, mutated; else any message or frame."""
        roll = self.rng.random()
        if roll < 0.75:
            return self.shaped(self.hello, "type")
        if roll < 0.85:
            return self.message()
        return self.raw()

    def raw(self) -> Case:
        """A frame that is not a message: any JSON value, broken JSON, binary."""
        if self.rng.random() < 0.5:
            return self.rng.choice(self.pools.raw)
        value = self.hostile()
        return Case("(whole frame)", V.kind_of(value), value)

    def body(self, route: Shape) -> Case:
        """A request body for ``route``: its fields as above, or not an object, not JSON,
        not UTF-8."""
        roll = self.rng.random()
        if roll < 0.8:
            return self.shaped(route, None)
        if roll < 0.9:
            value = self.hostile()
            return Case(f"{route.name}.(body)", V.kind_of(value), value)
        raw = self.rng.choice((b"", b"\xff\xfe", b"{", b'{"name": "\xc3"}', b"null",
                               b"\x00" * 10, self.rng.randbytes(20)))
        return Case(f"{route.name}.(body)", "not JSON or not UTF-8", raw)


#: Path segments aimed at the {table} of a route, besides a real table.
PATH_IDS: Final = ("0000000000", "ffffffffff", "ABCDEF0123", "012345678", "01234567890",
                   "%2e%2e", "..", "%00", "\u00f1" * 10, "%ff", "0123456789/../x", "")


def draw(strategy: st.SearchStrategy[Any], n: int, salt: int) -> list[Any]:
    """``n`` examples of ``strategy`` (fewer if it runs out), the same for the same salt."""
    out: list[Any] = []

    @seed(salt)
    @settings(max_examples=n, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def grab(value: Any) -> None:
        out.append(value)

    grab()
    return out

"""Account names (quaymoor/accounts/names.py): the names accepted, the names refused with a
message that says what and where, the keys names are unique by, and any string at all
either accepted as a clean name or refused with a message that can go out as UTF-8."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quaymoor.accounts import names
from quaymoor.accounts.names import AccountName, NameRefused, account_name

EXAMPLES = 300


def _refusal(raw: object) -> str:
    with pytest.raises(NameRefused) as caught:
        account_name(raw)
    message = str(caught.value)
    message.encode("utf-8")  # never raises
    return message


# --- accepted ----------------------------------------------------------------------------


@pytest.mark.parametrize("raw", [
    "alice",
    "José",  # precomposed é
    "Ελένη",  # Greek
    "Наташа",  # Cyrillic
    "田中たろウ",  # Japanese: Han, Hiragana, Katakana
    "ヤマダ",  # Katakana alone
    "김민준",  # Hangul
    "金민준",  # Korean: Han and Hangul
    "王小明ㄅㄆ",  # Chinese: Han and Bopomofo
    "محمد",  # Arabic
    "محمد١٢",  # Arabic with Arabic-Indic digits
    "محمد12",  # Arabic with ASCII digits (Common)
    "राम१२",  # Devanagari with its digits
    "Mary-Jane",
    "o'neil",
    "jean luc",
    "a_b.c",
    "R2D2",
    "Zoë",
    "ab",  # 2, the shortest
    "a" * 20,  # 20, the longest
    "Nguyễn Văn An",  # two marks in one precomposed letter
    "q\u0300\u0301",  # two combining marks in a row
])
def test_accepted_names_keep_their_normal_form(raw: str) -> None:
    name = account_name(raw)
    assert name.display == unicodedata.normalize("NFKC", raw) == raw
    assert 2 <= len(name.display) <= 20


def test_decomposed_accents_are_composed() -> None:
    precomposed = account_name("Jos\u00e9")
    decomposed = account_name("Jose\u0301")
    assert decomposed.display == "Jos\u00e9" == precomposed.display
    assert decomposed == precomposed


def test_fullwidth_letters_become_plain_ones() -> None:
    assert account_name("\uff41\uff4c\uff49\uff43\uff45") == account_name("alice")
    assert account_name("\uff41\uff4c\uff49\uff43\uff45").display == "alice"


def test_a_str_subclass_comes_out_a_plain_str() -> None:
    class Sneaky(str):
        pass

    name = account_name(Sneaky("alice"))
    assert type(name.display) is str
    assert name == AccountName(display="alice", key=account_name("alice").key)


# --- refused: what, and where --------------------------------------------------------------


@pytest.mark.parametrize(("raw", "parts"), [
    ("a\x00b", ["character 2", "U+0000", "control"]),
    ("ab\u200f", ["character 3 (U+200F RIGHT-TO-LEFT MARK) is invisible"]),
    ("a\u200bb", ["character 2", "U+200B ZERO WIDTH SPACE", "invisible"]),
    ("\ufeffab", ["character 1", "U+FEFF ZERO WIDTH NO-BREAK SPACE", "invisible"]),
    ("a\u200db", ["character 2", "U+200D ZERO WIDTH JOINER", "invisible"]),
    ("\ud800ab", ["character 1", "U+D800", "surrogate"]),
    ("ab\udfff", ["character 3", "U+DFFF", "surrogate"]),
    ("a\tb", ["character 2", "U+0009", "control"]),
    ("a\nb", ["character 2", "U+000A", "control"]),
    ("a\u2028b", ["character 2", "U+2028 LINE SEPARATOR", "line separator"]),
    ("a\u2029b", ["character 2", "U+2029 PARAGRAPH SEPARATOR", "paragraph separator"]),
    ("a\u00a0b", ["character 2", "U+00A0 NO-BREAK SPACE", "space"]),
    ("a\u3000b", ["character 2", "U+3000 IDEOGRAPHIC SPACE", "space"]),
    ("ab\ue000", ["character 3", "U+E000", "private-use"]),
    ("ab\U000e0001", ["character 3", "U+E0001 LANGUAGE TAG", "invisible"]),
    ("ab\u0378", ["character 3", "U+0378", "not an assigned"]),
    ("a\U0001f600b", ["character 2", "U+1F600 GRINNING FACE", "symbol"]),
    ("<script>", ['character 1 "<" (U+003C LESS-THAN SIGN) is a symbol']),
    ("bob!", ["character 4", "U+0021 EXCLAMATION MARK", "punctuation"]),
    ("a,b", ["character 2", "U+002C COMMA", "punctuation"]),
    ("a\u2160b", []),  # ROMAN NUMERAL ONE: NFKC makes it "I", accepted; see below
    ("ab\u2460", []),  # CIRCLED DIGIT ONE: NFKC makes it "1", accepted; see below
    ("a\u00bdb", ["character 2", "U+2044 FRACTION SLASH", 'from "½" U+00BD', "symbol"]),
    ("a\u00b2b", []),  # SUPERSCRIPT TWO: NFKC makes it "2", accepted; see below
    ("ab\u0bf0", ["character 3", "U+0BF0 TAMIL NUMBER TEN", "not a decimal digit"]),
    ("ab\u20dd", ["character 3", "U+20DD COMBINING ENCLOSING CIRCLE", "enclosing mark"]),
    ("-ab", ["begin with a separator", "character 1", "U+002D"]),
    ("ab.", ["end with a separator", "character 3", "U+002E"]),
    ("a--b", ["character 3", "U+002D", "follows another separator"]),
    ("a. b", ["character 3", "U+0020", "follows another separator"]),
    ("a  b", ["character 3", "follows another separator"]),
    ("a", ["2 to 20 characters; this one has 1"]),
    ("", ["2 to 20 characters; this one has 0"]),
    ("a" * 21, ["2 to 20 characters; this one has 21"]),
    ("a" * 25, ["2 to 20 characters; this one has 25"]),
    ("x" * 10_000, ["2 to 20 characters; this one has 10000"]),
    ("1234", ['"1234" has no letter']),
    ("12-34", ['"12-34" has no letter']),
    ("\u0410lice", ['"\u0410lice" mixes scripts (Cyrillic and Latin)', "character 2",
                    "U+006C LATIN SMALL LETTER L", "is Latin"]),
    ("p\u0430ypal", ["mixes scripts (Latin and Cyrillic)", "character 2",
                     "U+0430 CYRILLIC SMALL LETTER A", "is Cyrillic"]),
    ("abc\u0661", ["mixes scripts (Latin and Arabic)", "character 4",
                   "U+0661 ARABIC-INDIC DIGIT ONE"]),
    ("Alpha\u03b2", ["mixes scripts (Latin and Greek)", "character 6"]),
    ("金민준たろ", ["mixes scripts (Han, Hangul and Hiragana)", "character 4", "Hiragana"]),
    ("tokyo東京", ["mixes scripts (Latin and Han)", "character 6"]),
    ("a1\u0967", ["mixes digits of two numbering systems", "character 3",
                  "U+0967 DEVANAGARI DIGIT ONE", "character 2"]),
    ("\u0930\u093e\u092e1\u0967", ["mixes digits", "character 5", "U+0967"]),
    ("x\u0300\u0301\u0302", ["character 4", "U+0302 COMBINING CIRCUMFLEX ACCENT",
                             "at most 2"]),
    ("\u0301ab", ["character 1", "U+0301", "no letter before it"]),
    ("1\u0301ab", ["character 2", "U+0301", "no letter before it"]),
    ("a-\u0301b", ["character 3", "U+0301", "no letter before it"]),
    (None, ["a name is a string, not NoneType"]),
    (123, ["a name is a string, not int"]),
    (["a"], ["a name is a string, not list"]),
    (b"alice", ["a name is a string, not bytes"]),
])
def test_refused_names_say_what_and_where(raw: object, parts: list[str]) -> None:
    if not parts:
        account_name(raw)  # the compatibility form is a fine name
        return
    message = _refusal(raw)
    for part in parts:
        assert part in message


def test_compatibility_characters_are_judged_in_their_normal_form() -> None:
    assert account_name("ab\u2460").display == "ab1"
    assert account_name("a\u00b2b").display == "a2b"
    assert account_name("a\u2160b").display == "aIb"


def test_a_message_quotes_at_most_40_characters() -> None:
    long_type = type("N" * 100, (), {})
    message = _refusal(long_type())
    assert "N" * 40 in message
    assert "N" * 41 not in message
    message = _refusal("\u0410" + "b" * 60)
    assert "b" * 41 not in message


def test_no_raw_control_or_format_character_gets_into_a_message() -> None:
    for raw in ["a\x00b", "a\u200fb", "\ud800\udc00ab", "a\x1bb", "a\u202eb"]:
        message = _refusal(raw)
        assert all(unicodedata.category(c) not in ("Cc", "Cf", "Cs") for c in message)


# --- keys --------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", [
    "alice", "Alice", "ALICE", "aLiCe", "a1ice", "a\u2113ice",
    "\uff41\uff4c\uff49\uff43\uff45", "\uff21\uff2c\uff29\uff23\uff25",  # fullwidth
    "aIice",  # a capital I for the l: the key ignores case, so I, i, l and 1 are one class
    "AL1CE",
])
def test_case_width_and_look_alike_variants_share_a_key(variant: str) -> None:
    assert account_name(variant).key == account_name("alice").key


@pytest.mark.parametrize(("one", "other"), [
    ("ace", "\u0430\u0441\u0435"),  # Latin and all-Cyrillic look-alikes
    ("paypal", "\u0440\u0430\u0443\u0440\u0430\u04cf"),  # all Cyrillic, palochka for l
    ("Mary-Jane", "Mary Jane"),
    ("Mary-Jane", "mary_jane"),
    ("Mary-Jane", "Mary.Jane"),
    ("o'neil", "o\u02bcneil"),  # MODIFIER LETTER APOSTROPHE, a letter, looks like "'"
    ("Jos\u00e9", "JOSE\u0301"),
    ("stra\u00dfe", "STRASSE"),
    ("\u03a3\u03bf\u03c6\u03af\u03b1", "\u03c3\u03bf\u03c6\u03af\u03b1"),  # Σοφία, σοφία
    ("\u041d\u0430\u0442\u0430\u0448\u0430", "\u041d\u0410\u0422\u0410\u0428\u0410"),  # НАТАША
    ("bob", "b0b"),
    ("BOB", "b0b"),
    ("ali", "all"),  # the price of ignoring case: I looks like l
])
def test_same_key(one: str, other: str) -> None:
    assert account_name(one).key == account_name(other).key


@pytest.mark.parametrize(("one", "other"), [
    ("alice", "alicia"),
    ("alice", "alice2"),
    ("bob", "rob"),
    ("ana", "anna"),
    ("a-b", "a-c-b"),
    ("田中", "山田"),
    ("rusty", "tutty"),
    ("cool", "coal"),
    ("Наташа", "Натали"),
])
def test_different_names_have_different_keys(one: str, other: str) -> None:
    assert account_name(one).key != account_name(other).key


def test_a_key_has_only_hyphens_for_separators_and_is_normal() -> None:
    for raw in ["J.R_Tolkien o'x", "o\u02bcneil", "\u05d3\u05d5\u05d3", "q\u0308x"]:
        key = account_name(raw).key
        assert not set(key) & (names.SEPARATORS - {"-"})
        assert unicodedata.normalize("NFKC", key) == key


def test_the_look_alike_classes_pick_ascii_representatives() -> None:
    table = names._look_alikes()
    assert table[ord("\u0430")] == "a"  # CYRILLIC SMALL LETTER A
    assert table[ord("l")] == table[ord("|")] == table[ord("i")] == "1"  # 1, I, i, l, |
    assert table[ord("o")] == table[ord("O")] == "0"
    assert table[ord("A")] == "a"  # not a capital, where the class has a small letter
    assert table[ord("\u05d5")] == "1"  # HEBREW LETTER VAV, wrapped in LRMs in the data
    assert ord("a") not in table  # its own representative
    assert all(len(rep) == 1 for rep in table.values())


# --- the length bound taken before normalizing ----------------------------------------------


def test_no_code_point_decomposes_to_more_than_the_bound() -> None:
    longest = max(len(unicodedata.normalize("NFD", chr(code)))
                  for code in range(0x110000) if not 0xD800 <= code <= 0xDFFF)
    assert longest <= names._MAX_DECOMPOSITION


# --- any string at all -----------------------------------------------------------------------


def _accepted_or_refused_cleanly(raw: str) -> AccountName | None:
    try:
        name = account_name(raw)
    except NameRefused as refused:
        str(refused).encode("utf-8")
        return None
    display = name.display
    assert 2 <= len(display) <= 20
    assert not any(unicodedata.category(c) in ("Cf", "Cc", "Cs", "Co", "Cn") for c in display)
    display.encode("utf-8")
    name.key.encode("utf-8")
    assert display == unicodedata.normalize("NFKC", display)
    again = account_name(display)
    assert again == name
    return name


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.text())
def test_any_text_is_a_clean_name_or_refused(raw: str) -> None:
    _accepted_or_refused_cleanly(raw)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.text(alphabet=st.characters(codec=None)))
def test_any_code_points_surrogates_included_are_a_clean_name_or_refused(raw: str) -> None:
    _accepted_or_refused_cleanly(raw)


_NAMEISH = st.text(
    alphabet=st.sampled_from([*"abcdeijlorsxyzABLOZ0127", *" -_.'", "\u00e9", "\u00df",
                              "\u0301", "\u0308", "\u0430", "\u0456", "\uff41", "\u2113"]),
    max_size=24)


@settings(max_examples=EXAMPLES, deadline=None)
@given(_NAMEISH)
def test_nameish_text_is_a_clean_name_or_refused(raw: str) -> None:
    name = _accepted_or_refused_cleanly(raw)
    if name is None:
        return
    for variant in (name.display.upper(), name.display.lower(),
                    unicodedata.normalize("NFD", name.display)):
        try:
            other = account_name(variant)
        except NameRefused:
            continue  # upper() can lengthen (ß is SS)
        assert other.key == name.key

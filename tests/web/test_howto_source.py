"""The How to play page's own source holds no number in its prose: every number a player
reads there is filled in from /api/rules (``web/howto.js``), so it cannot drift from the
rules engine. No browser needed.

- ``web/how-to-play.html``: its text (outside ``<script>`` and ``<style>``) and the words a
  screen reader or a tooltip gives (``aria-label``, ``title``, ``alt``) have no digit. Other
  attributes (``data-rule="setups.2.players"``, ids, classes) are code.
- The page's scripts: no string literal that reads as prose (it has a space and a word)
  holds a digit. Numbers in code (``counts.includes(4)``, ``${i + 1}``), comments, and
  literals without a space (``"h3"``) are code. Template literals are split: their
  ``${...}`` parts are code, their text parts prose. (The scripts have no regular-expression
  literals, which this reading does not know.)
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from tests.web.conftest import ROOT

WEB = ROOT / "web"
PAGE = WEB / "how-to-play.html"
SCRIPTS = ["howto.js", "howto_tables.js", "howto_draw.js", "howto_words.js", "howto_link.js"]
DIGIT = re.compile(r"[0-9]")
READ_ATTRIBUTES = {"aria-label", "title", "alt", "placeholder"}


class _Prose(HTMLParser):
    """The text of a page a person reads, with the line each piece starts on."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skipping = 0
        self.found: list[tuple[int, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skipping += 1
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value:
                self.found.append((self.getpos()[0], f"{name}={value!r}"))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping and data.strip():
            self.found.append((self.getpos()[0], data.strip()))


def html_prose(text: str) -> list[tuple[int, str]]:
    parser = _Prose()
    parser.feed(text)
    parser.close()
    return parser.found


def js_literals(src: str) -> list[tuple[int, str]]:
    """Every string literal of a script, and each text part of its template literals, with
    the line it starts on."""
    out: list[tuple[int, str]] = []

    def line(i: int) -> int:
        return src.count("\n", 0, i) + 1

    def code(i: int, closing: str | None) -> int:
        """Read code from ``i`` up to the ``closing`` brace of a ``${`` (or the end)."""
        depth = 0
        while i < len(src):
            c = src[i]
            if src.startswith("//", i):
                i = src.find("\n", i)
                i = len(src) if i < 0 else i
            elif src.startswith("/*", i):
                i = src.index("*/", i) + 2
            elif c in "'\"":
                start, i = i, i + 1
                while src[i] != c:
                    i += 2 if src[i] == "\\" else 1
                out.append((line(start), src[start + 1:i]))
                i += 1
            elif c == "`":
                i = template(i + 1)
            elif c == "{":
                depth += 1
                i += 1
            elif c == "}":
                if depth == 0 and closing:
                    return i + 1
                depth -= 1
                i += 1
            else:
                i += 1
        return i

    def template(i: int) -> int:
        start, text = i, []
        while src[i] != "`":
            if src[i] == "\\":
                text.append(src[i:i + 2])
                i += 2
            elif src.startswith("${", i):
                out.append((line(start), "".join(text)))
                text, i = [], code(i + 2, "}")
                start = i
            else:
                text.append(src[i])
                i += 1
        out.append((line(start), "".join(text)))
        return i + 1

    code(0, None)
    return out


def reads_as_prose(text: str) -> bool:
    return bool(re.search(r"[A-Za-z]{2,}", text)) and bool(re.search(r"\s", text.strip()))


def test_the_tokenizer_finds_prose_and_leaves_code() -> None:
    src = ("const a = `Barge ${i + 1} of ${n}`; // Seat 1 in a comment\n"
           'h("h3", {}, "Holding: 12 spaces"); f(`x ${`in ${y} here`} y`);')
    found = [text for _, text in js_literals(src)]
    assert found == ["Barge ", " of ", "", "h3", "Holding: 12 spaces", "x ", "in ", " here",
                     " y"]
    assert reads_as_prose("Holding: 12 spaces") and not reads_as_prose("h3")


def test_the_page_text_has_no_digits() -> None:
    found = [(n, text) for n, text in html_prose(PAGE.read_text()) if DIGIT.search(text)]
    assert not found, "numbers written into how-to-play.html (fill them from /api/rules): " + \
        "; ".join(f"line {n}: {text!r}" for n, text in found)
    texts = " ".join(text for _, text in html_prose(PAGE.read_text()))
    assert "Why it is fair" in texts  # the reader saw the page


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_scripts_prose_has_no_digits(script: str) -> None:
    src = (WEB / script).read_text()
    assert src.startswith("// @ts-check\n"), f"{script} starts with // @ts-check"
    assert len(src.splitlines()) < 400, f"{script} is under 400 lines"
    literals = js_literals(src)
    assert literals, f"nothing read from {script}"
    found = [(n, text) for n, text in literals if reads_as_prose(text) and DIGIT.search(text)]
    assert not found, f"numbers written into the prose of {script}: " + \
        "; ".join(f"line {n}: {text!r}" for n, text in found)

"""The shape of a rule help topic: its id, title, answer in full and in screen pages, and the
rule that settles it.

Each :class:`Topic` has an ``id`` (used by ``pegboard rules ID`` and the device menu), a
``title``, the ``text`` the command line prints, the ``pages`` the 128x64 screen shows, and the
``reference`` that settles the point: an ACC rule number with its edition where the rules
page gives one (for example ``ACC 7.3 (2020)``), otherwise the section of the project's rules
page, ``docs/rules.md``.

Screen pages are at most :data:`PAGE_LINES` lines of at most :data:`TEXT_WIDTH` characters:
the device's built-in bitmap font is 6 pixels wide, so 21 characters fill the 128-pixel line,
and four 11-pixel lines leave the top line of the screen for the title. Paragraphs never
split across pages when they fit on one.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence

from pegboard.errors import PegboardError
from pegboard.rules.value import Value

LINE_WIDTH = 21
"""Characters per screen line (128 pixels / 6-pixel glyphs)."""

TEXT_WIDTH = LINE_WIDTH
"""Characters of a page's text line as the screen draws it: the whole line (a page that
scrolls has its marks in its title bar). Every page's words are wrapped at this width, once:
the screen never breaks a line again (a word left alone on a line of its own, "let" /
"go:")."""

PAGE_LINES = 4
"""Body lines per screen page (the title takes the first line)."""

ACC_EDITION = "2020"
"""Edition of the ACC tournament rules docs/rules.md cites."""

RULES_PAGE = "docs/rules.md"
"""The project's rules page, which the topics without an ACC number cite by section."""


class Wrapped(str):
    """A screen line the screen's wrap made (:func:`wrap_lines`, :func:`paginate`): a
    paragraph's first line, or (:class:`Continued`) one going on from the line before. It is
    its text everywhere (compared, hashed, drawn as a ``str``); an output wider than the
    screen (the 80x24 text panel, the voice reading a page) joins the lines of a paragraph
    back with :func:`rejoined`, and never joins a paragraph to the one before."""

    __slots__ = ()


class Continued(Wrapped):
    """A screen line that goes on from the line before it: the screen's width, not the text,
    broke the line there, whatever it starts with ("First to" / "121 wins.")."""

    __slots__ = ()


def wrap_lines(text: str, width: int = TEXT_WIDTH) -> tuple[str, ...]:
    """Words in lines of at most ``width`` characters, each line after the first marked as
    :class:`Continued`; a word longer than a line is a line of its own.

    >>> wrap_lines("First to 121 wins.", 9)
    ('First to', '121 wins.')
    >>> [type(line).__name__ for line in wrap_lines("First to 121 wins.", 9)]
    ['Wrapped', 'Continued']
    """
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return tuple(Continued(line) if i else Wrapped(line) for i, line in enumerate(lines))


def rejoined(lines: Sequence[str], *, by_case: bool = True) -> list[str]:
    """Lines the 21-column screen broke, joined again for an output with room for them: a
    :class:`Continued` line always joins the line before it, and a paragraph the wrap began
    (:class:`Wrapped`) never does; with ``by_case``, a line written split by hand that goes
    on in lower case joins the one before, unless that one ends a sentence (a count's page,
    whose lines are phrases, is read without it).

    >>> rejoined(["Show: the crib.", Continued("First to"), Continued("121 wins."), "OK next"])
    ['Show: the crib. First to 121 wins.', 'OK next']
    >>> rejoined(["7D = 6", Wrapped("rules: The show")])
    ['7D = 6', 'rules: The show']
    >>> rejoined(["Counting it needs the", "starter's suit.", "keys 1\u2663 2\u2666"])
    ["Counting it needs the starter's suit.", 'keys 1\u2663 2\u2666']
    """
    out: list[str] = []
    for line in lines:
        if out and (isinstance(line, Continued) or (
                by_case and not isinstance(line, Wrapped) and line[:1].islower()
                and not out[-1].endswith((".", "?", "!", ":")))):
            out[-1] += " " + line.strip()
        else:
            out.append(str(line))
    return out


class UnknownTopicError(PegboardError, KeyError):
    """A rule help topic id that does not exist."""

    def __str__(self) -> str:  # KeyError would quote the whole message again
        return str(self.args[0]) if self.args else ""


class Topic(Value):
    """One rule help topic."""

    __slots__ = ("id", "reference", "screen", "text", "title")
    __match_args__ = ("id", "title", "reference", "text", "screen")

    id: str
    title: str
    reference: str
    text: str
    screen: tuple[str, ...]

    def __init__(
        self,
        id: str,
        title: str,
        reference: str,
        text: str,
        screen: tuple[str, ...],
    ) -> None:
        setter = object.__setattr__
        setter(self, "id", id)
        setter(self, "title", title)
        setter(self, "reference", reference)
        setter(self, "text", text)
        setter(self, "screen", screen)

    @property
    def pages(self) -> tuple[tuple[str, ...], ...]:
        """The screen paragraphs wrapped and packed into pages for the OLED."""
        return paginate(self.screen)

    def full_text(self) -> str:
        """The CLI form: title, the rule in full, and the reference."""
        body = "\n\n".join(textwrap.fill(p, 78) for p in self.text.split("\n\n"))
        return f"{self.title}\n{'=' * len(self.title)}\n\n{body}\n\nRule: {self.reference}\n"


def paginate(
    paragraphs: Iterable[str], *, width: int = TEXT_WIDTH, lines: int = PAGE_LINES
) -> tuple[tuple[str, ...], ...]:
    """Wrap paragraphs to ``width`` and pack them into pages of ``lines`` lines.

    A paragraph starts a new page when it would not fit on the current one (unless it is
    longer than a page by itself, in which case it simply flows on).

    >>> paginate(["one two three", "four"], width=8, lines=2)
    (('one two', 'three'), ('four',))
    """
    pages: list[list[str]] = []
    current: list[str] = []
    for paragraph in paragraphs:
        wrapped = [Continued(line) if i else Wrapped(line) for i, line in
                   enumerate(textwrap.wrap(paragraph, width, break_on_hyphens=False))]
        if current and len(current) + len(wrapped) > lines:
            pages.append(current)
            current = []
        for line in wrapped:
            if len(current) == lines:
                pages.append(current)
                current = []
            current.append(line)
    if current:
        pages.append(current)
    return tuple(tuple(page) for page in pages)


def acc(number: str) -> str:
    """An ACC rule number with the edition docs/rules.md cites."""
    return f"ACC {number} ({ACC_EDITION})"


def in_words(reference: str) -> str:
    """A reference as a player reads it on the device: the rules page's sections by name
    ("rules: The play"), never the file they are kept in; a line of its own on a page, never
    run on into the line before it."""
    return Wrapped(reference.replace(f"{RULES_PAGE}, ", "rules: "))


def in_lines(reference: str) -> tuple[str, ...]:
    """A reference in words (:func:`in_words`) wrapped for a page's last lines, its first a
    line of its own: "rules: The deal, The" / "starter, The play, ...", never broken by the
    screen again."""
    return wrap_lines(in_words(reference))


def rules_page(*sections: str) -> str:
    """Sections of the project's rules page, as a reference."""
    return f"{RULES_PAGE}, {', '.join(sections)}"

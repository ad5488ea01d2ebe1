"""What is refused before tomllib reads a config: what would break the parser itself.

tomllib recurses once per level of nested arrays and inline tables and would exhaust the stack;
Python will not read an integer of 4,301 digits. :func:`check_shape` refuses both with a
message that names the line and the key being set.
"""

from __future__ import annotations

import re

from pegboard.errors import ConfigError

MAX_NESTING = 4
"""The deepest nesting of arrays and inline tables (a config needs 2: ``input = {rows = [...]}``);
tomllib recurses once per level and would exhaust the stack."""

MAX_DIGITS = 24
"""The longest run of digits in a number (Python refuses to read an integer of 4,301 digits)."""

_DIGIT_RUN = re.compile(rf"[0-9_]{{{MAX_DIGITS + 1},}}")

# The rest of a string after its opening quote(s), up to and including the closing ones (or
# to the end of the line, or of the text, when it is not closed: tomllib will say so). The
# basic forms are written as unrolled loops, linear on any input.
_STRING_REST = {
    '"': re.compile(r'[^"\\\n]*(?:\\.[^"\\\n]*)*"?'),
    "'": re.compile(r"[^'\n]*'?"),
    '"""': re.compile(r'[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*(?:"""|\Z)', re.S),
    "'''": re.compile(r"[^']*(?:'(?!'')[^']*)*(?:'''|\Z)"),
}
_SPECIAL = re.compile(r"[\n#\"'\[\]{}=]")


def check_shape(text: str, source: str) -> None:
    """Refuse nesting deeper than MAX_NESTING and digit runs longer than MAX_DIGITS.

    A small TOML lexer: it skips comments and the four kinds of strings (so brackets and
    digits inside them do not count) and remembers the section and the key being set, to
    name them. Text that is not valid TOML is left for tomllib to describe.
    """
    _Scan(text, source).run()


def _string_end(text: str, start: int, quote: str) -> int:
    """The index just past the string whose opening ``quote`` ends before ``start``."""
    rest = _STRING_REST[quote].match(text, start)
    return len(text) if rest is None else rest.end()


class _Scan:
    """One pass over the text; each step reads one token and returns where the next starts."""

    def __init__(self, text: str, source: str) -> None:
        self.text, self.source = text, source
        self.depth = 0
        self.line = 1
        self.section = ""
        self.pending = ""  # what stands before "=" at depth 0 on this line: the key being set
        self.key = ""

    def run(self) -> None:
        at = 0
        while at < len(self.text):
            at = self._step(at)

    def _step(self, at: int) -> int:
        char = self.text[at]
        if char == "\n":
            self.line += 1
            if self.depth == 0:
                self.pending = self.key = ""
            return at + 1
        if char == "#":
            end = self.text.find("\n", at)
            return len(self.text) if end < 0 else end
        if char in "\"'":
            width = 3 if self.text.startswith(('"""', "'''"), at) else 1
            end = _string_end(self.text, at + width, self.text[at:at + width])
            self.line += self.text.count("\n", at, end)
            return self._keep(at, end)
        if char in "[{":
            return self._open(at)
        if char in "]}":
            self.depth = max(0, self.depth - 1)
            return at + 1
        if char == "=" and self.depth == 0 and not self.key:
            self.key = self.pending.strip()
            return at + 1
        return self._word(at)

    def _keep(self, at: int, end: int) -> int:
        """Text before "=" at depth 0 is part of the key being set."""
        if self.depth == 0 and not self.key:
            self.pending += self.text[at:end]
        return end

    def _where(self) -> str:
        name = self.key or self.pending.strip() or "the text"
        named = self.key or self.pending.strip()
        return f"{self.section}.{name}" if self.section and named else name

    def _open(self, at: int) -> int:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise ConfigError(
                f"{self.source}: line {self.line}: {self._where()} nests arrays or inline "
                f"tables more than {MAX_NESTING} deep; allowed: at most {MAX_NESTING} levels "
                "(a list of pins or colours is one)"
            )
        if self.depth == 1 and not self.key and not self.pending.strip():
            # A [section] or [[array]] header: the section is the text up to "]".
            end = self.text.find("]", at)
            header = self.text[at + 1:end if end >= 0 else len(self.text)].strip("[ \t")
            self.section = header if re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", header) else ""
        return at + 1

    def _word(self, at: int) -> int:
        """A bare word: a key, a number, a date, true or false (anything up to a character
        that means something else)."""
        special = _SPECIAL.search(self.text, at + 1)
        end = len(self.text) if special is None else special.start()
        run = _DIGIT_RUN.search(self.text, at, end)
        if run is not None:
            digits = run.group().replace("_", "")
            raise ConfigError(
                f"{self.source}: line {self.line}: {self._where()} = a number of "
                f"{len(digits):,} digits ({digits[:12]}…); allowed: numbers of at most "
                f"{MAX_DIGITS} digits"
            )
        return self._keep(at, end)

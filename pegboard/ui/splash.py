"""The first frame: Pegboard's name and, when a game is being restored, who is playing and
the scores the store last saved (see :mod:`pegboard.store.peek`).

Drawn with Pillow and the font's glyphs as bits (:mod:`pegboard.ui.glyphs`), so it is shown
before the rest of the device (the rules engine, the app, the input pins, Pillow's font
loading) is.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from pegboard.ui.glyphs import CELL_W, cell_mask

LINE_H = 10

WIDTH, HEIGHT = 128, 64
_TOP = 1  # the font's first inked row: text is placed so that its top is at y


def width(text: str, scale: int = 1) -> int:
    """Pixels ``text`` takes across."""
    return len(text) * CELL_W * scale


def fit(text: str, chars: int) -> str:
    """``text`` cut to ``chars`` characters, ending in "..." when cut."""
    return text if len(text) <= chars else text[: max(0, chars - 3)] + "..."


def draw_text(image: Image.Image, x: int, y: int, text: str, *, scale: int = 1) -> None:
    """``text`` with its top at ``y`` (scaled by whole numbers for the title)."""
    mask = cell_mask(text)
    if scale != 1:
        mask = mask.resize((mask.width * scale, mask.height * scale), Image.Resampling.NEAREST)
    image.paste(1, (x, y - _TOP * scale), mask)


def side_names(players: Sequence[str], sides: int) -> list[str]:
    """The name of each side: partners (seats 1 and 3, 2 and 4) joined with "&".

    >>> side_names(["Ann", "Ben", "Cat", "Dan"], 2)
    ['Ann & Cat', 'Ben & Dan']
    """
    if sides <= 0 or sides >= len(players):
        return list(players)
    return [" & ".join(players[seat] for seat in range(side, len(players), sides))
            for side in range(sides)]


def splash(players: Sequence[str] = (), scores: Sequence[int] | None = None) -> Image.Image:
    """The start-up frame: "PEGBOARD" large, then each side and score (or "Starting")."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    title = "PEGBOARD"
    draw_text(image, (WIDTH - width(title, 2)) // 2, 2, title, scale=2)
    y = 26
    if players and scores is not None:
        for name, score in zip(side_names(players, len(scores)), scores, strict=False):
            figure = str(score)
            room = WIDTH // CELL_W - len(figure) - 2
            draw_text(image, 4, y, fit(name, room))
            draw_text(image, WIDTH - 4 - width(figure), y, figure)
            y += LINE_H
            if y > HEIGHT - 2 * LINE_H:
                break
        line = "Restoring the game"
    elif players:
        draw_text(image, 4, y, fit(" v ".join(players), WIDTH // CELL_W - 1))
        y += LINE_H
        line = "Restoring the game"
    else:
        line = "Starting"
    draw_text(image, (WIDTH - width(line)) // 2, HEIGHT - LINE_H - 1, line)
    return image

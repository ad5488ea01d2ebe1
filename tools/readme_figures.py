"""``python -m tools.readme_figures``: the README's input-cost paragraph written again from
what ``python -m bench input`` prints.

The benchmark runs as it does on its own (its deals from ``PEGBOARD_BENCH_DEALS``, 150 here
unless set); its printed lines are read back (the mean of each kit, with and without muggins,
and the counts put right with GO) and the paragraph between the README's ``<!-- bench input
-->`` marks is replaced with the sentence those figures make. Nothing is typed by hand: a
figure in the README is one the bench printed.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
BEGIN, END = "<!-- bench input -->", "<!-- /bench input -->"
DEALS = "150"
TARGETS = {("encoder", False): 40, ("keypad", False): 18, ("encoder", True): 45,
           ("keypad", True): 25}
"""The targets the bench holds each figure to (issue 24)."""


@dataclass(frozen=True, slots=True)
class Figures:
    """What the bench printed: the mean actions of a deal by kit and muggins, the cores, the
    deals, and the counts put right with GO (presses each on average, at most)."""

    means: dict[tuple[str, bool], float]
    cores: int
    deals: int
    fix_mean: float
    fix_max: int
    open_hands: dict[str, tuple[float, int, int, float]] | None = None
    """Deals with both players' six cards entered, by kit: the mean actions, the deals in
    which the starter's suit was asked, the deals, and the actions of each answer (None when
    the bench printed no such line)."""


def parse(printed: str) -> Figures:
    """The figures in the bench's printed lines (greedy pegging for the plain deals)."""
    head = re.search(r"\((\d+) seeded deals each, (\d+) cores\)", printed)
    if head is None:
        raise ValueError(f"no bench input heading in {printed[:200]!r}")
    means: dict[tuple[str, bool], float] = {}
    for kit, muggins, mean in re.findall(
            r"^\s+(encoder|keypad)\s+(muggins,|greedy pegging)[^\n]*?mean\s+([\d.]+)",
            printed, re.M):
        means[kit, muggins == "muggins,"] = float(mean)
    fixed = re.search(r"^\s+encoder\s+forgetting[^\n]*?, ([\d.]+) presses each \(max (\d+)\)",
                      printed, re.M)
    if len(means) != len(TARGETS) or fixed is None:
        raise ValueError(f"the bench printed {len(means)} of the {len(TARGETS)} figures")
    opened = {kit: (float(mean), int(asked), int(deals), float(each))
              for kit, mean, asked, deals, each in re.findall(
                  r"^\s+(encoder|keypad)\s+open hands[^\n]*?mean\s+([\d.]+); the starter's "
                  r"suit asked in (\d+) of (\d+) deals, ([\d.]+) actions each", printed, re.M)}
    return Figures(means, int(head.group(2)), int(head.group(1)), float(fixed.group(1)),
                   int(fixed.group(2)), opened or None)


def paragraph(f: Figures) -> str:
    """The README's sentences for ``f``."""
    m = f.means
    over = [f"{kit}{' with muggins' if mug else ''} ({m[kit, mug]:.1f} > {target})"
            for (kit, mug), target in TARGETS.items() if m[kit, mug] > target]
    verdict = ("every figure within its target" if not over
               else "over target: " + ", ".join(over))
    return (
        "Entering a whole 2-player deal (starter, the play with its goes, reading every count,\n"
        f"the crib; `python -m bench input` with {f.deals} seeded deals on {f.cores} cores, "
        "the fewest\nactions through the real app) takes on average "
        f"{m['encoder', False]:.1f} actions on the encoder kit (a\n"
        "detent or a press each; GO jumps ahead a group of ranks on the starter and crib "
        "wheels\nand on a lead, holding GO back a group on every card wheel) and "
        f"{m['keypad', False]:.1f} key presses on the keypad\nkit (a held rank key enters "
        "its card with its flush or nobs). In a muggins game, every score\nclaimed in full "
        "and nobody calling muggins (a play score's claim starts at what the kinds named\n"
        "are worth, a hand's or crib's at 4; a quick turn moves it by fives; a go or last card\n"
        "alone is claimed by the GO or card that wins it, \"one for go\"; the crib's claim\n"
        "leads straight to the next starter; a right claim brings no page once its window\n"
        "shuts, but with teaching; a call is a menu "
        f"row),\na deal takes {m['encoder', True]:.1f} encoder actions and "
        f"{m['keypad', True]:.1f} key presses.\nTargets: 40 and 18 without muggins, 45 and "
        f"25 with; {verdict}.\nA flush or nobs forgotten on the wheel is put right on the "
        f"count's page with GO: {f.fix_mean:.2f}\npresses a count on average, {f.fix_max} at "
        "most. (`python -m tools.readme_figures` writes this\nparagraph from what the bench "
        "prints; `--kept` again from the lines kept above.)\n" + _open_hands(f)
    )


def _open_hands(f: Figures) -> str:
    """The sentence on deals whose six cards were entered: how often the starter's suit was
    asked, and what answering it costs."""
    o = f.open_hands
    if o is None or set(o) != {"encoder", "keypad"}:
        return ""
    enc, key = o["encoder"], o["keypad"]
    return (
        "With both players' six cards entered (their entry not counted) and the starter by its\n"
        "rank, the box asks the starter's suit only when a count needs it: in "
        f"{enc[1]} of {enc[2]} deals,\n{enc[3]:.2f} actions an answer on the encoder and "
        f"{key[3]:.2f} on the keypad; such a deal takes\n{enc[0]:.1f} encoder actions and "
        f"{key[0]:.1f} key presses, the questions counted.\n"
    )


def block(printed: str) -> str:
    """The README's marked block: the bench's printed lines kept in a comment (so a test can
    check the sentences against them), then the sentences they make."""
    lines = [line.rstrip() for line in printed.splitlines()
             if line.strip() and not line.startswith(("Pegboard benchmarks", "=="))]
    kept = "\n".join(line.split("; score mismatches")[0].replace("--", "- -")
                     for line in lines)
    return f"{BEGIN}\n<!-- printed by python -m bench input:\n{kept}\n-->\n" + paragraph(
        parse(printed)) + END


def rewrite(text: str, printed: str) -> str:
    """``text`` (the README) with the marked block made from what the bench ``printed``."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"README has no {BEGIN} ... {END} paragraph")
    return text[:start] + block(printed) + text[end + len(END):]


def kept_block(text: str) -> tuple[str, str]:
    """The bench lines kept in the README's block, and the block as it stands."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"README has no {BEGIN} ... {END} paragraph")
    found = text[start:end + len(END)]
    kept = re.search(r"<!-- printed by python -m bench input:\n(.*?)\n-->", found, re.S)
    if kept is None:
        raise ValueError("the README's block keeps no bench output")
    return kept.group(1), found


def bench_output() -> str:
    """Run the input bench as ``python -m bench input`` does; what it printed."""
    from bench.bench_input import main

    os.environ.setdefault("PEGBOARD_BENCH_DEALS", DEALS)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        main()
    return printed.getvalue()


def main(readme: Path = README) -> int:
    """Run the bench and write its figures; with ``--kept``, write the sentences again from
    the bench lines the README already keeps (no new run)."""
    if "--kept" in sys.argv[1:]:
        printed = kept_block(readme.read_text(encoding="utf-8"))[0]
    else:
        printed = bench_output()
    sys.stdout.write(printed if printed.endswith("\n") else printed + "\n")
    readme.write_text(rewrite(readme.read_text(encoding="utf-8"), printed), encoding="utf-8")
    print(f"wrote the input figures into {readme}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The README's input-cost figures are what ``python -m bench input`` printed: the marked
block keeps the bench's lines and its sentences are made from them by
``python -m tools.readme_figures`` (never typed by hand)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.readme_figures import README, TARGETS, bench_output, block, kept_block, parse, rewrite


def test_the_readme_sentences_are_made_from_the_bench_lines_it_keeps() -> None:
    kept, found = kept_block(README.read_text(encoding="utf-8"))
    assert block(kept) == found
    figures = parse(kept)
    assert set(figures.means) == set(TARGETS) and figures.cores >= 1


def test_the_tool_writes_what_the_bench_prints(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEGBOARD_BENCH_DEALS", "2")
    printed = bench_output()
    readme = tmp_path / "README.md"
    readme.write_text("before\n<!-- bench input -->\nold figures\n<!-- /bench input -->\nafter\n",
                      encoding="utf-8")
    readme.write_text(rewrite(readme.read_text(encoding="utf-8"), printed), encoding="utf-8")
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("before\n") and text.endswith("\nafter\n") and "old figures" not in text
    figures = parse(printed)
    assert figures.deals == 2
    for (kit, muggins), mean in figures.means.items():
        assert f"{mean:.1f}" in text, (kit, muggins)
    assert kept_block(text)[1] == block(printed)
    # Open hands: how often the starter's suit is asked, and what an answer costs.
    assert figures.open_hands is not None and set(figures.open_hands) == {"encoder", "keypad"}
    assert "asks the starter's suit only when a count needs it" in text

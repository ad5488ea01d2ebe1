"""``pegboard rules [TOPIC]``: the rule help topics, listed or printed in full."""

from __future__ import annotations

import argparse
import json

from pegboard.coach.help_shape import in_words
from pegboard.coach.rulehelp import TOPICS, Topic, topic


def register(parser: argparse.ArgumentParser) -> None:
    """The ``rules`` command\'s arguments."""
    parser.add_argument("topic", nargs="?", metavar="TOPIC", help="a topic id from the list")
    parser.add_argument(
        "--screen", action="store_true", help="print the topic as the device pages it"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(func=run)


def _as_json(t: Topic) -> dict[str, object]:
    return {
        "id": t.id,
        "title": t.title,
        "reference": t.reference,
        "text": t.text,
        "pages": [list(page) for page in t.pages],
    }


def screen_text(t: Topic) -> str:
    """The topic as the device shows it: title, then each page boxed to the screen width."""
    lines = [t.title]
    for number, page in enumerate(t.pages, start=1):
        lines.append(f"--- page {number}/{len(t.pages)} ---")
        lines.extend(page)
    lines.append(f"--- {in_words(t.reference)}")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """List the topics, or print one (in full, as screen pages, or as JSON)."""
    if args.topic is None:
        if args.json:
            print(json.dumps([_as_json(t) for t in TOPICS], ensure_ascii=False, indent=2))
            return 0
        width = max(len(t.id) for t in TOPICS)
        print("Rule help topics (pegboard rules TOPIC):")
        for t in TOPICS:
            print(f"  {t.id:<{width}}  {t.title}  [{t.reference}]")
        return 0
    chosen = topic(args.topic)
    if args.json:
        print(json.dumps(_as_json(chosen), ensure_ascii=False, indent=2))
    elif args.screen:
        print(screen_text(chosen), end="")
    else:
        print(chosen.full_text(), end="")
    return 0

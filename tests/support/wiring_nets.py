"""The nets a reader sees in a wiring drawing: which pins its wires join.

A drawing is read the way a builder reads it. A wire is a ``<polyline>``; a pin is any element
with a ``data-pin`` name (``part:pin``). Two wires are joined where they share an end, where
one ends on the other at a junction dot (``<circle class="junction">``), and where they run
along the same line (a reader cannot tell two wires on one line apart). Wires that cross
without a dot are not joined. A wire that ends on another without a dot, a dot that joins
nothing, an end that reaches no pin and no wire, and two wires on one line are each reported
as a fault: each is a drawing a builder can get wrong.
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

SVG = "{http://www.w3.org/2000/svg}"
Point = tuple[float, float]
Segment = tuple[Point, Point]


@dataclass
class Drawing:
    """The wires, junction dots and named pins of one SVG drawing."""

    wires: list[list[Point]]
    dots: list[Point]
    pins: dict[str, Point]

    @classmethod
    def parse(cls, text: str) -> Drawing:
        root = ET.fromstring(text)
        wires = [[_point(pair) for pair in line.get("points", "").split()]
                 for line in root.iter(f"{SVG}polyline")]
        dots = [(float(c.get("cx", 0)), float(c.get("cy", 0)))
                for c in root.iter(f"{SVG}circle") if c.get("class") == "junction"]
        pins: dict[str, Point] = {}
        for element in root.iter():
            name = element.get("data-pin")
            if name is None:
                continue
            assert name not in pins, f"pin {name} drawn twice"
            if element.tag == f"{SVG}rect":
                pins[name] = (float(element.get("x", 0)) + float(element.get("width", 0)) / 2,
                              float(element.get("y", 0)) + float(element.get("height", 0)) / 2)
            else:
                pins[name] = (float(element.get("cx", 0)), float(element.get("cy", 0)))
        return cls(wires, dots, pins)


@dataclass
class Nets:
    """Every net (a set of pin names) and every fault found on the way."""

    nets: list[frozenset[str]]
    faults: list[str] = field(default_factory=list)

    def of(self, pin: str) -> frozenset[str]:
        """The net ``pin`` is on (just the pin itself when no wire reaches it)."""
        for net in self.nets:
            if pin in net:
                return net
        return frozenset({pin})


def _point(pair: str) -> Point:
    x, y = pair.split(",")
    return float(x), float(y)


def _segments(wire: list[Point]) -> list[Segment]:
    return list(itertools.pairwise(wire))


def _on(point: Point, segment: Segment) -> bool:
    """``point`` lies on the axis-parallel ``segment`` (ends included)."""
    (x1, y1), (x2, y2) = segment
    x, y = point
    return (min(x1, x2) <= x <= max(x1, x2) and min(y1, y2) <= y <= max(y1, y2)
            and (x2 - x1) * (y - y1) == (y2 - y1) * (x - x1))


def _overlap(a: Segment, b: Segment) -> bool:
    """Two segments on the same line that share more than a point."""
    (ax1, ay1), (ax2, ay2) = a
    (bx1, by1), (bx2, by2) = b
    if ax1 == ax2 == bx1 == bx2:
        low, high = max(min(ay1, ay2), min(by1, by2)), min(max(ay1, ay2), max(by1, by2))
        return high > low
    if ay1 == ay2 == by1 == by2:
        low, high = max(min(ax1, ax2), min(bx1, bx2)), min(max(ax1, ax2), max(bx1, bx2))
        return high > low
    return False


def nets(drawing: Drawing) -> Nets:
    """The nets of ``drawing`` and its faults (see the module docstring)."""
    parent = list(range(len(drawing.wires)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(i: int, j: int) -> None:
        parent[find(i)] = find(j)

    faults: list[str] = []
    dots = set(drawing.dots)
    used_dots: set[Point] = set()
    at_pin = {point: name for name, point in drawing.pins.items()}
    for (i, a), (j, b) in itertools.combinations(enumerate(drawing.wires), 2):
        if any(_overlap(s, t) for s in _segments(a) for t in _segments(b)):
            faults.append(f"two wires on one line: {a} and {b}")
            join(i, j)
        ends_a, ends_b = {a[0], a[-1]}, {b[0], b[-1]}
        if ends_a & ends_b:
            join(i, j)
            continue
        for end, other in [(e, b) for e in ends_a] + [(e, a) for e in ends_b]:
            if any(_on(end, s) for s in _segments(other)):
                if end in dots:
                    used_dots.add(end)
                    join(i, j)
                else:
                    faults.append(f"a wire ends on another at {end} without a junction dot")
    for dot in dots - used_dots:
        faults.append(f"a junction dot at {dot} joins nothing")
    for wire in drawing.wires:
        for end in (wire[0], wire[-1]):
            others = [w for w in drawing.wires if w is not wire]
            if end not in at_pin and not any(
                    _on(end, s) for w in others for s in _segments(w)):
                faults.append(f"a wire ends at {end} on no pin and no wire")
    groups: dict[int, set[str]] = {}
    for i, wire in enumerate(drawing.wires):
        net = groups.setdefault(find(i), set())
        net |= {at_pin[end] for end in (wire[0], wire[-1]) if end in at_pin}
    return Nets([frozenset(net) for net in groups.values() if net], faults)

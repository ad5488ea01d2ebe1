# Renders named LED frames with the firmware's own code; used by the golden frame tests.
# Runs under MicroPython and CPython:  micropython firmware/tests/render_cases.py CASES.json
# Each case: {"name", "cfg", "states": [[ms, state], ...], "test": bool, "at": ms, "lost": bool}
# where a state is the dict pb_proto.parse_state returns (colours as lists).
# Prints "<name> <mA> <RRGGBB...>" per case.

import sys

if __name__ == "__main__":
    sys.path.insert(0, sys.argv[0].rsplit("/", 2)[0] if "/" in sys.argv[0] else "..")

import pb_render  # noqa: E402


def render_case(case):
    scene = pb_render.Scene(case["cfg"])
    for at, state in case["states"]:
        state = dict(state)
        state["colours"] = [tuple(c) for c in state["colours"]]
        scene.set_state(state, at)
    scene.set_test(case.get("test", False))
    frame = scene.frame(case["at"], case.get("lost", False))
    ma = pb_render.limit(frame, case["cfg"]["cap"], case["cfg"]["ma"])
    return ma, frame


def main(path):
    import binascii
    import json

    with open(path) as handle:
        cases = json.load(handle)
    for case in cases:
        ma, frame = render_case(case)
        print("%s %d %s" % (case["name"], ma, binascii.hexlify(frame).decode().upper()))


if __name__ == "__main__":
    main(sys.argv[1])

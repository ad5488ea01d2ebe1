# Layout table of the LED pegboard: which LED lights which hole (firmware side).
#
# Same rules as pegboard/link/layout.py on the host (a test compares the two tables for every
# setting): tracks of 120 holes in four streets of 30, rows stacked street by street
# (row = street * tracks + side), the chain visiting rows in "street" or "track" order,
# serpentine or not, hole 1 at the "left" or "right" end, "skip" unlit LEDs first, the shared
# game hole (121) last. Hole 0 (the start) has no LED.

HOLES = 120
STREET = 30
STREETS = 4
GAME_HOLE = 121

DEFAULT_CFG = {
    "n": 241, "tracks": 2, "order": "street", "serp": True, "end": "left",
    "skip": 0, "cap": 128, "ma": 500, "hb": 1000,
}


def led_index(cfg, side, hole):
    if hole == 0:
        return -1
    tracks = cfg["tracks"]
    if hole == GAME_HOLE:
        return cfg["skip"] + tracks * HOLES
    street = (hole - 1) // STREET
    pos = (hole - 1) % STREET
    from_end = pos if street % 2 == 0 else STREET - 1 - pos
    col = from_end if cfg["end"] == "left" else STREET - 1 - from_end
    if cfg["order"] == "street":
        segment = street * tracks + side
    else:
        segment = side * STREETS + street
    if cfg["serp"] and segment % 2 == 1:
        col = STREET - 1 - col
    return cfg["skip"] + segment * STREET + col


def table(cfg):
    # table[side][hole] -> LED index, -1 for the start hole.
    result = []
    for side in range(cfg["tracks"]):
        result.append([led_index(cfg, side, hole) for hole in range(GAME_HOLE + 1)])
    return result

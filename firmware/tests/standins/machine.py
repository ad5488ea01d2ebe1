# Stand-in for the rp2 port's machine module on the unix port: pins that remember their value.


class Pin:
    OUT = 1
    IN = 0

    def __init__(self, ident, mode=IN):
        if ident == "LED":
            raise ValueError("no onboard LED on this board")  # as on a Pico W
        self.ident = ident
        self.mode = mode
        self.level = 0

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = level

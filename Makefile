# Two commands for a newcomer: `make run` (the main job) and `make test` (the whole suite).
# Each target sets itself up: it creates .venv and installs Pegboard with its dev extras.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench lint clean test-tools install-check club-demo

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The simulator: interactive on a terminal; without one (a pipe, CI) it plays the built-in demo
# and prints its frames.
run: $(STAMP)
	$(BIN)/pegboard sim

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy --strict pegboard tests bench tools

# The suite on two workers a core (pytest-xdist): much of it waits on real processes (the
# firmware's heartbeat, mosquitto, Chromium, espeak-ng), so a second worker a core keeps the cores
# busy (on 2 cores: 262 s with 4 workers, 314 s with 3, about 330-350 s with 2). A module's tests
# run on one worker (its module fixtures made once), the slowest modules first
# (tests/conftest.py). `make test WORKERS=0` runs it in one process.
# Python writes its compiled modules even where the environment says not to
# (PYTHONDONTWRITEBYTECODE): otherwise every worker, and every `pegboard` the tests start (the
# scoreboard, the club's services, the simulator), compiles Pegboard's source again, about 0.2 s
# of processor a start, and every worker rewrites each test module's asserts afresh.
WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) * 2 )))
test: lint test-tools
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -n $(WORKERS) --dist loadfile --no-loadscope-reorder

# System tools the tests use that pip cannot provide: systemd-analyze (from Debian's systemd
# package), tmux (the simulator's terminal test), espeak-ng and sox (the voice: speech into WAV
# files, and a player the tests can point at a file) and chromium (the scoreboard's browser
# tests, driven by Playwright) and mosquitto (the club's broker: the club tests start a real one
# on a free loopback port), installed only when missing and only when running as root.
test-tools:
	@command -v systemd-analyze >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq systemd; }
	@command -v tmux >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux; }
	@command -v espeak-ng >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq espeak-ng; }
	@command -v sox >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sox; }
	@command -v chromium >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }
	@command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || [ "$$(id -u)" != 0 ] || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto; }

# systemd/install.sh run for real in a clean Debian bookworm root made with debootstrap, on this
# machine's architecture and then on arm64 under qemu-user (root only, several minutes, the
# Debian mirror apt uses; not part of `make test`): systemd/README.md. Exit status 77 from the
# arm64 run means it could not run here (no binfmt_misc): it said why, and the target goes on.
install-check:
	@command -v debootstrap >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; }
	@command -v qemu-aarch64-static >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user-static; }
	bash systemd/install-check.sh
	bash systemd/install-check.sh --arch arm64 || [ $$? = 77 ]

# A whole demo club night on this machine (mosquitto on loopback, four boards, the standings
# page): docs/club.md.
club-demo: $(STAMP) test-tools
	$(BIN)/python -m tools.club_demo

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

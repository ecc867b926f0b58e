# Two commands do everything on a fresh machine:
#   make run   set up and start the panel (simulated table off a Pi)
#   make test  set up and run the whole suite, browser tests included
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8080
ON_PI  := $(shell grep -qs "Raspberry Pi" /proc/device-tree/model && echo yes)
EXTRAS := test$(if $(ON_PI),$(comma)pi)
comma  := ,

.PHONY: run test test-fast setup system system-test browser bench lint install check-arm64 clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[$(EXTRAS)]"
	touch $@

setup: $(BIN)/.installed

run: setup system
	$(BIN)/sudoku-table serve --host $(HOST) --port $(PORT)

# Debian packages, each "command:package": RUN_TOOLS are what the table itself uses (espeak-ng
# is its voice, aplay plays it on the speaker), TEST_TOOLS what only the suite needs (the
# browser tests drive Debian's chromium, the network tests start their own Mosquitto, the
# overlay checks compile a device-tree overlay with dtc, the tactile parts' braille comes from
# liblouis' lou_translate). They are installed here
# where that is possible (root, or sudo without a password); otherwise make stops and names the
# one command to run. Nothing is skipped silently.
RUN_TOOLS  := espeak-ng:espeak-ng aplay:alsa-utils
TEST_TOOLS := chromium:chromium mosquitto:mosquitto dtc:device-tree-compiler \
              lou_translate:liblouis-bin

define apt_install
	@missing=""; for entry in $(1); do \
	  command -v "$${entry%%:*}" >/dev/null 2>&1 || missing="$$missing $${entry#*:}"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; \
	  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo"; \
	  else echo "The table needs Debian packages. Run:  sudo apt-get install$$missing" >&2; exit 1; fi; \
	  echo "installing Debian packages:$$missing"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; fi
endef

system:
	$(call apt_install,$(RUN_TOOLS))

system-test:
	$(call apt_install,$(RUN_TOOLS) $(TEST_TOOLS))

browser: setup system-test
	@$(BIN)/python -m tests.web.axe >/dev/null

# The suite runs on every core (pytest-xdist), two workers a core since most tests wait on a
# browser, a broker or a settle time (WORKERS=1 for one), in a random order (pytest-randomly:
# the seed is printed, --randomly-seed=N repeats an order), lint and types first as a step of
# their own. Tiers (tests/conftest.py): unit, integration, browser.
WORKERS ?= $(shell echo $$(( $$(nproc) * 2 )))
PYTEST  := $(BIN)/python -m pytest -q -n $(WORKERS) --dist worksteal
# Compiled tests are kept between runs (pytest rewrites every assert of 140 files otherwise).
unexport PYTHONDONTWRITEBYTECODE

test: setup browser lint
	$(PYTEST) -m "not sweep" --durations=20

# The unit tier alone, for the edit loop: no whole table, browser, broker or process.
test-fast: setup
	$(PYTEST) -m "unit and not slow and not sweep"

bench: setup
	@for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

lint: setup
	$(BIN)/ruff check src tests bench hardware
	$(BIN)/mypy

install:
	sudo ./systemd/install.sh

# The whole install in emulated Debian 12 and 13 arm64 (slow: 25 minutes a suite the first
# time; hardware/README.md, "Checked on arm64").
check-arm64:
	sudo ./hardware/check-arm64.sh --suite bookworm
	sudo ./hardware/check-arm64.sh --suite trixie

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache .cache

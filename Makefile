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

.PHONY: run test setup browser bench lint install clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[$(EXTRAS)]"
	touch $@

setup: $(BIN)/.installed

run: setup
	$(BIN)/sudoku-table serve --host $(HOST) --port $(PORT)

# The browser tests drive Debian's chromium: installed here where that is possible (root or
# sudo without a password); otherwise make stops and names the one command to run.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; \
	  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo"; \
	  else echo "The browser tests need Debian's chromium. Run:  sudo apt-get install chromium" >&2; exit 1; fi; \
	  echo "installing Debian's chromium for the browser tests"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }
	@$(BIN)/python -m tests.web.axe >/dev/null

test: setup browser
	$(BIN)/python -m pytest -q

bench: setup
	@for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

lint: setup
	$(BIN)/ruff check app firmware tests bench hardware
	$(BIN)/mypy

install:
	sudo ./systemd/install.sh

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache .cache

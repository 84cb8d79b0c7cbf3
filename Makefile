# cardtable: the README's two commands are `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Debian packages the project needs: the Polish and English word lists of 7 słów, and
# Chromium for the browser tests (Playwright drives Debian's chromium, never a download),
# PostgreSQL for the crash test on PostgreSQL, nginx for the reverse-proxy test (docs/web.md).
APT_PACKAGES ?= wpolish wamerican chromium postgresql nginx

.PHONY: run cluster test check compiled bench bench-attack bench-compiled bench-compare device-kit levels ladder train lint format docs system-deps clean help

help:
	@echo "make run     start the web app on http://127.0.0.1:8000 (SQLite in cardtable.db)"
	@echo "make cluster three server processes behind nginx on http://127.0.0.1:8100 (PostgreSQL)"
	@echo "make test    install everything needed and run every test (lint included)"
	@echo "make check   lint and the quick tests (small property counts, no browser): minutes, for use while working"
	@echo "make bench   engine benchmarks (figures in benchmarks/results/); C_PEER=ai_sim KOIKOI_AI=koikoigame.py time those engines too"
	@echo "make bench-attack  the attack suite at soak counts (hidden cards, fuzz, kill -9 runs)"
	@echo "make bench-compiled  the Python source and the compiled engine side by side, as ratios"
	@echo "make bench-compare BEFORE=REV  engine, ISMCTS and RL speed of REV and now, both compiled, in turns, as ratios (SOURCE=1: REV's Python source)"
	@echo "make device-kit  gather into .devkit/ what benchmarks/device_web.sh and device_bots.sh need on a lent 16-core machine, and try them here"
	@echo "make levels  the bot levels against each other, every game (about four hours)"
	@echo "make ladder  calibrate the bot ladder of 'Your record' (src/cardtable/arena/ladder.json, ~10 min)"
	@echo "make train  self-play and train koi-koi's learned evaluator into the package (~15 min on 2 cores)"
	@echo "make compiled  rebuild the compiled engine after a change to its sources"
	@echo "make lint    ruff check, ruff format --check, mypy --strict src/, eslint on the browser code"
	@echo "make docs    regenerate the option and yaku tables of docs/ from the code"

$(STAMP): pyproject.toml hatch_build.py
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,ray,rl,web,openspiel,train]'
	@touch $(STAMP)

system-deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing >/dev/null; \
	  else \
	    echo "missing system packages:$$missing (install them with: sudo apt-get install$$missing)"; \
	  fi; \
	fi

run: $(STAMP) system-deps compiled
	$(VENV)/bin/cardtable serve --db sqlite:///cardtable.db --host 127.0.0.1 --port 8000

# Many processes behind one address, on this machine (docs/web.md, "Many processes"): a
# scratch PostgreSQL, three servers and nginx on http://127.0.0.1:8100; Ctrl-C stops it all
cluster: $(STAMP) system-deps compiled
	$(VENV)/bin/cardtable cluster --processes 3 --port 8100

# ESLint for the browser code, pinned in package.json / package-lock.json (Node.js and npm
# come with the machine; where they do not, from Debian's packages)
NODE_STAMP := node_modules/.installed
$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || $(MAKE) --no-print-directory system-deps APT_PACKAGES="nodejs npm"
	npm ci --no-audit --no-fund --loglevel=error
	@touch $(NODE_STAMP)

lint: $(STAMP) $(NODE_STAMP)
	$(VENV)/bin/ruff check src tests benchmarks examples
	$(VENV)/bin/ruff format --check src tests benchmarks examples
	$(VENV)/bin/mypy --strict src
	node_modules/.bin/eslint src

format: $(STAMP)
	$(VENV)/bin/ruff format src tests benchmarks examples
	$(VENV)/bin/ruff check --fix src tests benchmarks examples

# The engine's hot path compiled by mypyc (src/cardtable/compiled.py); pip install builds it
# too, this rebuilds it after a change to its sources.
compiled: $(STAMP)
	$(PY) src/cardtable/compiled.py --if-stale

test: $(STAMP) system-deps lint compiled
	CARDTABLE_TEST_PROFILE=full $(VENV)/bin/pytest -n 2 --durations=40 --doctest-modules src tests

# While working: the same lint, and every test but the browser's and the long ones (marked
# slow), each soak and property at a small share of its count (tests/counts.py).
check: $(STAMP) system-deps lint compiled
	CARDTABLE_TEST_PROFILE=check $(VENV)/bin/pytest -n 2 -m "not slow and not browser" --durations=15 --doctest-modules src tests

# one core a figure: BLAS threads spinning after numpy's import would count as CPU time
bench bench-compiled bench-compare: export OPENBLAS_NUM_THREADS = 1

bench: $(STAMP) system-deps compiled
	$(PY) benchmarks/compare_revisions.py --engine
	$(PY) benchmarks/bench_engine.py $(if $(C_PEER),--c-peer $(C_PEER)) $(if $(KOIKOI_AI),--koikoi-ai $(KOIKOI_AI))
	$(PY) benchmarks/bench_dictionary.py
	$(PY) benchmarks/bench_rl.py
	$(PY) benchmarks/bench_ismcts.py
	$(PY) benchmarks/bench_arena.py
	$(PY) benchmarks/ismcts_scaling.py
	$(PY) benchmarks/inference.py --positions 1000
	$(PY) benchmarks/bench_web.py --seats 200 1000 --duration 45
	$(PY) benchmarks/web_floor.py --seats 1000 --duration 30
	$(PY) benchmarks/bench_server_limits.py --spectators 0 250 1000 --moves 30 --hint-seats 12 --flood-seconds 10
	$(PY) benchmarks/bench_compute.py --moves 40 --replies 40 --tables 0 20 100
	$(PY) benchmarks/attack_soak.py

# the attack suite at soak counts: frames checked for hidden cards, fuzz, kill -9 runs (~15 min)
bench-attack: $(STAMP) system-deps compiled
	$(PY) benchmarks/attack_soak.py

bench-compiled: $(STAMP) compiled
	$(PY) benchmarks/compare_revisions.py --engine

# REV's compiled engine is built in .cache/revisions/ (once); the working tree's must be fresh
bench-compare: $(STAMP) compiled
	@test -n "$(BEFORE)" || { echo "say which commit to compare with: make bench-compare BEFORE=REV"; exit 2; }
	$(PY) benchmarks/compare_revisions.py --before $(BEFORE) $(if $(SOURCE),--source)

# what benchmarks/device_web.sh and device_bots.sh need on a lent machine with no registry,
# tried here first
device-kit: $(STAMP) compiled
	$(PY) benchmarks/device_kit.py --check

levels: $(STAMP)
	benchmarks/levels.sh

LADDER_DEALS ?= 8
LADDER_JOBS ?= 2
ladder: $(STAMP)
	$(PY) benchmarks/ladder.py --deals $(LADDER_DEALS) --jobs $(LADDER_JOBS)

# The learned evaluator of koi-koi (docs/bots.md): two stages, both seeded. First the
# rule-based bots' self-play, then expert iteration: the search's own games, from the first
# stage's weights. Writes the package's weights and the run's logs and curves; the
# self-play is kept in .cache/training (a second run trains again without playing).
TRAINED := benchmarks/reference/training
SELFPLAY := .cache/training
train: $(STAMP) compiled
	$(VENV)/bin/cardtable train koi-koi --rounds 40000 --bots strategist,greedy --epsilon 0.1 \
	  --epochs 6 --jobs 2 --threads 2 --seed 1 --data $(SELFPLAY)/koi-koi-stage1.npz \
	  --out $(SELFPLAY)/koi-koi-stage1-weights.npz \
	  --log $(TRAINED)/koi-koi-stage1.json --curves $(TRAINED)/koi-koi-stage1.png
	$(VENV)/bin/cardtable train koi-koi --rounds 3000 --bots hard --iterations 1000 \
	  --epsilon 0.05 --epochs 4 --learning-rate 3e-4 --jobs 2 --threads 2 --seed 21 \
	  --data $(SELFPLAY)/koi-koi-stage2.npz --start $(SELFPLAY)/koi-koi-stage1-weights.npz \
	  --out src/cardtable/games/hanafuda/bots/weights/koi-koi.npz \
	  --log $(TRAINED)/koi-koi-stage2.json --curves $(TRAINED)/koi-koi-stage2.png

docs: $(STAMP)
	$(VENV)/bin/cardtable docs

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build
	find src -name '*.so' -delete; rm -f src/cardtable/_compiled.json

# The two set-up commands are `make run` and `make test`; both build .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# The browser tests drive Debian's Chromium: Playwright cannot download its own build here.
PLAYWRIGHT_CHROMIUM ?= /usr/bin/chromium
export PLAYWRIGHT_CHROMIUM

.PHONY: install engine run serve test chromium wrk lint worker bench messages clean

$(STAMP): pyproject.toml requirements.lock
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

install: $(STAMP) messages engine

# The rules engine compiled by mypyc (engine/rules/native.py); does nothing when up to date. If it
# cannot compile, the app still runs the engine from its sources (slower); `make test` refuses to.
engine: $(STAMP)
	$(PY) -c "from engine.rules.native import main; main()" \
	  || echo "engine.rules: NOT COMPILED, the rules engine runs from its sources (see above)"

messages: $(STAMP)
	$(PY) manage.py compilemessages --ignore=.venv -v 0

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_catalogue
	$(PY) manage.py load_starter_book
	$(PY) manage.py collectstatic --noinput -v 0
	$(PY) manage.py runserver $(HOST):$(PORT) --noreload

# The production server (cod_site/gunicorn_conf.py): gunicorn's master over uvicorn workers
# serving the app under ASGI, a worker per core, static files collected for WhiteNoise. The catalogue is loaded once, not at every start
# (`manage.py load_catalogue`). `exec`: gunicorn takes this shell's place, so HUP and TERM reach it.
serve: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput -v 0
	HOST=$(HOST) PORT=$(PORT) exec $(BIN)/gunicorn --config cod_site/gunicorn_conf.py

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(PY) manage.py makemigrations --check --dry-run

# COD_ENGINE=native: the tests fail rather than quietly run the engine uncompiled. The suite runs
# in TEST_WORKERS processes (pytest-xdist; tests/support/workers.py says how they share Redis).
TEST_WORKERS ?= 2
test: lint chromium
	COD_ENGINE=native $(PY) -m pytest -p tests.support.workers -n $(TEST_WORKERS) --dist loadgroup \
	  $(PYTEST_ARGS)

# Chromium for the browser tests: installed from Debian when it is missing and this is root with
# apt-get (a failed install stops `make test`); else the browser tests are skipped, saying why.
chromium:
	@if [ ! -x "$(PLAYWRIGHT_CHROMIUM)" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "No Chromium at $(PLAYWRIGHT_CHROMIUM): installing Debian's chromium for the browser tests"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; \
	fi
	@[ -x "$(PLAYWRIGHT_CHROMIUM)" ] || echo "No Chromium at $(PLAYWRIGHT_CHROMIUM): the browser \
	tests will be skipped. Install it (as root: apt-get install chromium fonts-dejavu-core) or set \
	PLAYWRIGHT_CHROMIUM to a Chromium binary."

# bench/load_bench.py's load generator (issue 26: a C client, so the cores stay the servers').
wrk:
	@if ! command -v wrk >/dev/null && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "No wrk: installing Debian's wrk for the load bench"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq wrk >/dev/null; \
	fi
	@command -v wrk >/dev/null || echo "No wrk: the load bench will be skipped. Install it (as \
	root: apt-get install wrk; macOS: brew install wrk)."

worker: install
	$(BIN)/celery -A cod_site worker --loglevel=INFO --concurrency=$${WORKER_CONCURRENCY:-2} --prefetch-multiplier=1 \
	  --beat

bench: install wrk
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) .build staticfiles .pytest_cache .ruff_cache .mypy_cache

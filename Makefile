# Sổ Tôm: every set-up step lives here, so a fresh machine needs only `make run` or `make test`.
SHELL := /bin/bash
export UV_PYTHON_DOWNLOADS := never
export UV_LINK_MODE := copy
PY := .venv/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-slow bench bench-all bench-serving bench-corrections bench-replay-memory bench-load bench-openloop bench-van-cost bench-leaderboard bench-club-book bench-display lint deps system-deps-test system-deps-run messages demo clean

# ---- set-up -------------------------------------------------------------------------------
.venv/.synced: pyproject.toml uv.lock
	@command -v uv >/dev/null 2>&1 || python3 -m pip install --quiet uv
	uv sync --locked --quiet
	@touch $@

deps: .venv/.synced

# Debian packages, installed only when missing (apt needs `apt-get update` once first).
system-deps-run:
	@bash .ci/apt.sh gettext libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core

system-deps-test:
	@bash .ci/apt.sh gettext postgresql-15 redis-server chromium poppler-utils fonts-dejavu-core libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 wrk pushpin

messages: deps system-deps-run
	@$(PY) manage.py compilemessages --ignore=.venv -v 0

# ---- the two commands of the README ----------------------------------------------------------
# PUSHPIN=1 make run: Pushpin in front of the app, holding the displays (totom_site/pushpin.py).
run: deps messages
	@[ "$${PUSHPIN:-}" != 1 ] || bash .ci/apt.sh pushpin
	@bash .ci/run-app.sh $(HOST) $(PORT)

test: deps system-deps-test messages
	@bash .ci/test.sh

# ---- extras ---------------------------------------------------------------------------------
test-slow: deps system-deps-test messages
	@bash .ci/test.sh --slow

bench: deps
	$(PY) bench/hands.py

# Every benchmark in full, issue 32's targets in one table; writes docs/performance.md (nginx: one of the layouts compared).
bench-all: deps system-deps-test messages
	@bash .ci/apt.sh nginx
	bash -c 'source .ci/services.sh; trap stop_services EXIT; start_postgres; start_redis; $(PY) bench/all.py'

bench-serving: deps system-deps-test messages
	bash -c 'source .ci/services.sh; trap stop_services EXIT; start_postgres; $(PY) bench/serving.py'

bench-corrections: deps system-deps-test
	bash -c 'source .ci/services.sh; trap stop_services EXIT; start_postgres; $(PY) bench/corrections.py'
	DATABASE_URL= $(PY) bench/corrections.py

# Peak memory of a 10,000-ván `manage.py replay` and of the sitting's exports (issue 24 item 3).
bench-replay-memory: deps system-deps-test
	bash -c 'source .ci/services.sh; trap stop_services EXIT; start_postgres; $(PY) bench/replay_memory.py'
	DATABASE_URL= $(PY) bench/replay_memory.py

bench-load: deps system-deps-test
	bash -c 'source .ci/services.sh; trap stop_services EXIT; start_postgres; $(PY) bench/load.py && $(PY) bench/load.py --pool 4'

bench-openloop: deps system-deps-test
	bash -c 'source .ci/services.sh; trap stop_services EXIT; start_postgres; start_redis; $(PY) bench/openloop.py'

bench-van-cost: deps system-deps-test
	bash -c 'source .ci/services.sh; trap stop_services EXIT; start_postgres; $(PY) bench/van_cost.py'

bench-leaderboard: deps system-deps-test
	bash -c 'source .ci/services.sh; trap stop_services EXIT; start_postgres; $(PY) bench/leaderboard.py'
	DATABASE_URL= $(PY) bench/leaderboard.py --van 200000  # the embedded default (SQLite), a fifth of the ván

bench-club-book: deps system-deps-test
	bash -c 'source .ci/services.sh; trap stop_services EXIT; start_postgres; $(PY) bench/club_book.py'
	DATABASE_URL= $(PY) bench/club_book.py  # the embedded default (SQLite)

bench-display: deps system-deps-test
	@bash .ci/apt.sh pushpin
	bash -c 'source .ci/services.sh; trap stop_services EXIT; start_postgres; start_redis; $(PY) bench/display.py'

lint: deps
	.venv/bin/ruff check .
	.venv/bin/lint-imports --no-cache
	.venv/bin/ruff format --check .

clean:
	rm -rf var/ .pytest_cache

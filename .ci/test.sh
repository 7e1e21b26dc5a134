#!/usr/bin/env bash
# `make test`: lint, migrations check, a smoke run on the embedded default (SQLite + filesystem
# broker), then the whole pytest suite against real PostgreSQL, Redis and headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
source .ci/services.sh
trap stop_services EXIT

echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .

echo "== import contracts (lint-imports; pyproject.toml [tool.importlinter], docs/architecture.md)"
.venv/bin/lint-imports --no-cache

echo "== mypy (engine)"
.venv/bin/mypy --no-error-summary scoring/engine

echo "== smoke on the embedded default"
bash .ci/smoke.sh

echo "== services"
start_postgres
start_redis

echo "== makemigrations --check (PostgreSQL)"
$PY manage.py makemigrations --check --dry-run >/dev/null

echo "== pytest (PostgreSQL, Redis, Chromium)"
markers="not slow"
# --slow runs here only, on PostgreSQL + Redis; the tests that must also hold on the embedded default
# at full size start it themselves through .ci/run-app.sh (tests/reliability/test_live_budget.py
# runs `make run`'s SQLite + filesystem-broker stack and a PostgreSQL + Redis one).
[ "${1:-}" = "--slow" ] && markers="slow"
export DJANGO_ALLOW_ASYNC_UNSAFE=true
start=$SECONDS
$PY -m pytest -m "$markers" -p no:cacheprovider
echo "== pytest on PostgreSQL + Redis took $((SECONDS - start)) s"

if [ "${1:-}" != "--slow" ]; then
  # The tests marked `sqlite` again on the embedded default, as `make run` configures it: a SQLite
  # file (the test database is a file too, so servers and workers started by a test share it) and
  # Celery on kombu's filesystem broker, no Redis.
  echo "== pytest -m sqlite (the embedded default: SQLite file, filesystem broker)"
  sqlite_dir=$(mktemp -d /tmp/sotom-sqlite-tests.XXXXXX)
  mkdir -p "$sqlite_dir/broker/queue" "$sqlite_dir/broker/processed" "$sqlite_dir/broker/control"
  start=$SECONDS
  (
    unset REDIS_URL
    export DATABASE_URL="sqlite:///$sqlite_dir/sotom.sqlite3" DATABASE_TEST_NAME="$sqlite_dir/test.sqlite3"
    export CELERY_BROKER_URL="filesystem://" CELERY_FS_BROKER_DIR="$sqlite_dir/broker"
    $PY -m pytest -m "sqlite and not slow" -p no:cacheprovider
  )
  rm -rf "$sqlite_dir"
  echo "== pytest on SQLite + filesystem broker took $((SECONDS - start)) s"
fi

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
[ "${1:-}" = "--slow" ] && markers="slow"
export DJANGO_ALLOW_ASYNC_UNSAFE=true
$PY -m pytest -m "$markers" -p no:cacheprovider

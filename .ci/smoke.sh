#!/usr/bin/env bash
# Smoke run of the embedded default, exactly as `make run` serves it: SQLite, a real Celery
# worker on the filesystem broker, demo data, the ASGI server. Checks the pages and the API answer.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
dir=$(mktemp -d /tmp/sotom-smoke.XXXXXX)
export DATABASE_URL="sqlite:///$dir/smoke.sqlite3"
export CELERY_BROKER_URL="filesystem://" CELERY_FS_BROKER_DIR="$dir/broker"
unset REDIS_URL
mkdir -p "$dir/broker/queue" "$dir/broker/processed" "$dir/broker/control"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$dir"; }
trap cleanup EXIT

$PY manage.py migrate --noinput -v 0
$PY manage.py collectstatic --noinput -v 0
$PY manage.py load_demo >/dev/null
$PY -m celery -A totom_site worker --loglevel=ERROR --concurrency=1 --pool=solo >"$dir/worker.log" 2>&1 &
pids+=($!)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
$PY -m daphne -b 127.0.0.1 -p "$port" totom_site.asgi:application >"$dir/server.log" 2>&1 &
pids+=($!)
if ! $PY .ci/smoke_check.py "http://127.0.0.1:$port"; then
  echo "--- server log"; tail -40 "$dir/server.log"; echo "--- worker log"; tail -20 "$dir/worker.log"
  exit 1
fi

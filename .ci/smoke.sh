#!/usr/bin/env bash
# Smoke run of the embedded default, started by `make run`'s own script (.ci/run-app.sh): SQLite,
# a real Celery worker on the filesystem broker, demo data, the ASGI server. Checks the pages and
# the API answer. Everything it starts is stopped by its own PID.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
dir=$(mktemp -d /tmp/sotom-smoke.XXXXXX)
export DATABASE_URL="sqlite:///$dir/smoke.sqlite3"
export CELERY_BROKER_URL="filesystem://" CELERY_FS_BROKER_DIR="$dir/broker" RUN_APP_PIDFILE="$dir/pids"
unset REDIS_URL
app_pid=""
cleanup() {
  if [ -n "$app_pid" ]; then
    kill "$app_pid" 2>/dev/null || true
    wait "$app_pid" 2>/dev/null || true
  fi
  if [ -s "$dir/pids" ]; then  # the script stops its worker and server; make sure, by their PIDs
    while read -r pid; do kill "$pid" 2>/dev/null || true; done <"$dir/pids"
  fi
  rm -rf "$dir"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
bash .ci/run-app.sh 127.0.0.1 "$port" >"$dir/app.log" 2>&1 &
app_pid=$!
if ! $PY .ci/smoke_check.py "http://127.0.0.1:$port"; then
  echo "--- make run's output (server, worker)"; tail -60 "$dir/app.log"
  exit 1
fi

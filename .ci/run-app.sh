#!/usr/bin/env bash
# `make run`: the embedded default. SQLite in var/, a real Celery worker on kombu's filesystem
# broker (no Redis), demo data, the app served on http://HOST:PORT/. Ctrl-C stops everything.
#
# The smoke run (.ci/smoke.sh) and the journey tests (tests/journeys/) start the app through this
# very script, so a change to how `make run` serves is what they test. They point it elsewhere by
# the environment (DATABASE_URL, CELERY_BROKER_URL, CELERY_FS_BROKER_DIR, REDIS_URL) and may ask
# for RUN_APP_PIDFILE: the workers' and the server's PIDs, one a line, written once all started.
set -euo pipefail
cd "$(dirname "$0")/.."
HOST=${1:-127.0.0.1}; PORT=${2:-8000}
PY=.venv/bin/python
source .ci/lan.sh  # HOST=0.0.0.0: answer the phones on the LAN (this machine's own addresses)
export CELERY_BROKER_URL=${CELERY_BROKER_URL:-filesystem://}
# PUSHPIN=1: Pushpin (Debian package `pushpin`) on HOST:PORT in front of the app, which is served on
# a port of its own on 127.0.0.1; the displays' streams are held by Pushpin (GRIP_URL: every process
# below publishes each event to it; totom_site/pushpin.py, docs/scaling.md). Without it the app
# holds them itself (in-process SSE): no extra server on a laptop.
app_host=$HOST; app_port=$PORT
if [ "${PUSHPIN:-}" = 1 ]; then
  command -v pushpin >/dev/null || { echo "PUSHPIN=1 needs Pushpin: bash .ci/apt.sh pushpin" >&2; exit 1; }
  app_host=127.0.0.1
  app_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  mkdir -p var
  GRIP_URL=$($PY -m totom_site.pushpin configure "$HOST" "$PORT" "127.0.0.1:$app_port" var/pushpin)
  export GRIP_URL
fi
broker_dir=${CELERY_FS_BROKER_DIR:-var/broker}
mkdir -p var "$broker_dir/queue" "$broker_dir/processed" "$broker_dir/control"

$PY manage.py migrate --noinput -v 0
$PY manage.py collectstatic --noinput -v 0
# The demo organiser (thu-ky / so-tom-demo), its village and canh, and the demo festival, so a
# fresh `make run` has someone to sign in as and something to look at. The festival's
# leaderboard is queued here as a recorded ván queues it; the worker below computes it.
$PY manage.py load_demo --with-demo-user --base-url "http://$HOST:$PORT"

# The workers and the server run side by side; each is stopped by its own PID when another ends,
# on Ctrl-C (INT) and on TERM. Two lanes (issue 29, docs/scaling.md), each its own solo worker: the
# live lane (leaderboards, board sweeps, club ratings) and, beside it, webhooks + bulk (deliveries,
# imports, reports), so a slow receiver or a stranger's import never waits in front of a board.
pids=()
stop() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait || true
}
trap stop EXIT
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM

worker=($PY -m celery -A totom_site worker --loglevel=WARNING --concurrency=1 --pool=solo)
if [ "${PUSHPIN:-}" = 1 ]; then
  $PY -m totom_site.pushpin run var/pushpin >var/pushpin/pushpin.out 2>&1 &
  pids+=($!)
fi
"${worker[@]}" -Q live -n "live-$$@%h" &
pids+=($!)
# The bulk worker also runs beat (periodic tasks: CELERY_BEAT_SCHEDULE, the trim of the displays' stored
# events), embedded: no fourth process on a laptop; its schedule file lives with the broker.
"${worker[@]}" -Q webhooks,bulk -n "bulk-$$@%h" -B -s "$broker_dir/beat-schedule" &
pids+=($!)
$PY -m totom_site.serve "$app_host" "$app_port" &  # granian: pages on WSGI threads, the displays on ASGI (totom_site/asgi.py)
pids+=($!)
[ -n "${RUN_APP_PIDFILE:-}" ] && printf '%s\n' "${pids[@]}" >"$RUN_APP_PIDFILE"

$PY -m totom_site.lan urls "$HOST" "$PORT"  # the addresses to open (phones: those on the LAN)
echo "Ctrl-C để dừng / to stop"
wait -n

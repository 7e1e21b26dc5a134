#!/usr/bin/env bash
# `make run`: the embedded default. SQLite in var/, a real Celery worker on kombu's filesystem
# broker (no Redis), demo data, the app served on http://HOST:PORT/. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
HOST=${1:-127.0.0.1}; PORT=${2:-8000}
PY=.venv/bin/python
source .ci/lan.sh  # HOST=0.0.0.0: answer the phones on the LAN (this machine's own addresses)
export CELERY_BROKER_URL=${CELERY_BROKER_URL:-filesystem://}
broker_dir=${CELERY_FS_BROKER_DIR:-var/broker}
mkdir -p var "$broker_dir/queue" "$broker_dir/processed" "$broker_dir/control"

$PY manage.py migrate --noinput -v 0
$PY manage.py collectstatic --noinput -v 0
# The demo organiser (thu-ky / so-tom-demo) so a fresh `make run` has someone to sign in as.
$PY manage.py load_demo --with-demo-user

$PY -m celery -A totom_site worker --loglevel=WARNING --concurrency=1 --pool=solo &
WORKER_PID=$!
trap 'kill $WORKER_PID 2>/dev/null || true' EXIT INT TERM

$PY -m totom_site.lan urls "$HOST" "$PORT"  # the addresses to open (phones: those on the LAN)
$PY -m daphne -b "$HOST" -p "$PORT" totom_site.asgi:application

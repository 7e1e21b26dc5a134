# Throwaway PostgreSQL and Redis on 127.0.0.1 for tests. Source this file, then call
# start_postgres / start_redis; stop_services (trap it on EXIT) stops each by its own PID.
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
SERVICES_DIR=$(mktemp -d /tmp/sotom-services.XXXXXX)
chmod 755 "$SERVICES_DIR"

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_postgres() {
  local dir="$SERVICES_DIR/pg" port
  mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$dir"
  port=$(free_port)
  as_pg "$PGBIN/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null
  as_pg "$PGBIN/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o \
    "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
    start >/dev/null
  PG_PID=$(head -1 "$dir/data/postmaster.pid")
  as_pg "$PGBIN/createdb" -h 127.0.0.1 -p "$port" -U postgres sotom
  export DATABASE_URL="postgres://postgres@127.0.0.1:$port/sotom"
  echo "postgres: 127.0.0.1:$port (pid $PG_PID)"
}

start_redis() {
  local dir="$SERVICES_DIR/redis" port
  mkdir -p "$dir"
  port=$(free_port)
  redis-server --port "$port" --bind 127.0.0.1 --daemonize yes --save '' --appendonly no \
    --dir "$dir" --pidfile "$dir/redis.pid" --logfile "$dir/log" >/dev/null
  for _ in $(seq 50); do [ -s "$dir/redis.pid" ] && break; sleep 0.1; done
  REDIS_PID=$(cat "$dir/redis.pid")
  export REDIS_URL="redis://127.0.0.1:$port/0"
  export CELERY_BROKER_URL="redis://127.0.0.1:$port/1"
  echo "redis: 127.0.0.1:$port (pid $REDIS_PID)"
}

stop_services() {
  if [ -n "${PG_PID:-}" ]; then
    as_pg "$PGBIN/pg_ctl" -D "$SERVICES_DIR/pg/data" -m immediate stop >/dev/null 2>&1 || kill "$PG_PID" 2>/dev/null || true
  fi
  [ -n "${REDIS_PID:-}" ] && kill "$REDIS_PID" 2>/dev/null || true
  rm -rf "$SERVICES_DIR"
}

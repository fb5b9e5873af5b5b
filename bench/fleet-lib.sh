# Helpers of the fleet benchmarks (bench/fleet.sh, bench/fleet-checkpoint.sh); sourced after
# bench/lib.sh, whose PIDS, load and wait_http they use.

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
now() { date +%s.%N; }
secs_since() { python3 -c "print(f'{$(now) - $1:.2f}')"; }
metric() { # port name: the value of an unlabelled metric on /metrics ("" when absent)
  curl -s "http://127.0.0.1:$1/metrics" | awk -v n="$2" '$1 == n || $1 == n "_total" {print $2; exit}'
}
pos() { local v; v=$(metric "$1" snowline_fleet_position); echo "${v:-0}"; }
ready() { [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$1/readyz")" = 200 ]; }
wait_for() { # secs description command...: polls the command every 0.2 s until it succeeds
  local secs=$1 what=$2
  shift 2
  for _ in $(seq 1 $((secs * 5))); do
    if "$@"; then return 0; fi
    sleep 0.2
  done
  echo "timed out waiting for $what" >&2
  exit 1
}
stop() { # pid...: stops these children and forgets them (the exit trap kills the rest)
  local p keep=()
  kill "$@" 2>/dev/null || true
  wait "$@" 2>/dev/null || true
  for p in "${PIDS[@]}"; do [[ " $* " == *" $p "* ]] || keep+=("$p"); done
  PIDS=("${keep[@]}")
}
start_nats() { # dir port monitor-port: one nats-server with JetStream, its store in dir; batches
  # over 8 MB go in parts, as in the tests and the demo
  mkdir -p "$1"
  cat >"$1/nats.conf" <<CONF
listen: 127.0.0.1:$2
http: 127.0.0.1:$3
max_payload: 8MB
jetstream { store_dir: "$1/store" }
CONF
  nats-server -c "$1/nats.conf" >"$1/nats.log" 2>&1 &
  PIDS+=($!)
  wait_http "http://127.0.0.1:$3/healthz"
}

# shellcheck shell=bash
# What the bench scripts share; sourced, never run. `run` reads REL (the release dir), CONNS,
# MAX_REQ and SECS from the script that sources it; `devnet` reads REL, WORK and N_TXS and sets
# DEV.

serving_args() { # default-work "$@": the preamble of the serving benchmarks whose first three
  # arguments are [WORK_DIR=default-work] [SECS=10] [CONNS=64]: sets WORK, SECS, CONNS and
  # MAX_REQ, exports CARGO_TARGET_DIR (default ~/.cache/snowline/target), moves to the
  # repository root and creates WORK.
  WORK=${2:-$1}
  SECS=${3:-10}
  CONNS=${4:-64}
  MAX_REQ=5000000
  export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/snowline/target}
  cd "$(dirname "$0")/.." || exit
  mkdir -p "$WORK"
}

build_bench() { # the release binaries the data-api benchmarks run, unless NO_BUILD is set
  [ -n "${NO_BUILD:-}" ] && return 0
  cargo build --release --workspace --bins
  cargo build --release --workspace --example rest-hello --example rest-load
}
devnet() { # the large:N_TXS devnet of seed 1 in DEVNET_DIR or WORK/devnet-N_TXS, generated once
  DEV=${DEVNET_DIR:-$WORK/devnet-$N_TXS}
  if [ ! -s "$DEV/containers.jsonl" ]; then
    mkdir -p "$DEV"
    "$REL/devnet-gen" --seed 1 --preset "large:$N_TXS" --out "$DEV" >"$WORK/gen.log" 2>&1
    tail -1 "$WORK/gen.log"
  fi
}

load() { echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"; }
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
wait_http() { # url: bounded wait until it answers at all
  for _ in $(seq 1 600); do
    if curl -s -o /dev/null "$1"; then return 0; fi
    sleep 0.2
  done
  echo "no answer from $1" >&2
  return 1
}
start_ceiling() { # rest-hello: the framework's trivial route on HELLO_PORT and a plain hyper
  # handler on RAW_PORT, the ceilings serving figures are ratios to; sets HELLO_PID, waits for it.
  "$REL/examples/rest-hello" "127.0.0.1:$HELLO_PORT" "127.0.0.1:$RAW_PORT" >"$WORK/hello.log" 2>&1 &
  HELLO_PID=$!
  PIDS+=("$HELLO_PID")
  wait_http "http://127.0.0.1:$RAW_PORT/"
}
serving_header() { echo "== serving; $CONNS connections, $SECS s each; $(nproc) cores shared by servers and load generator"; }
cpu_ticks() { # pid: user + system CPU time so far, in clock ticks
  awk '{print $14 + $15}' "/proc/$1/stat"
}
run() { # name port path|@file [server-pid]: one load run; with a pid, also the server's CPU
  # time per request, which other processes on the shared machine disturb far less than req/s.
  local out before after
  printf '%-36s ' "$1"
  before=$([ -n "${4:-}" ] && cpu_ticks "$4" || echo 0)
  out=$("$REL/examples/rest-load" "127.0.0.1:$2" "$3" "$CONNS" "$MAX_REQ" "$SECS")
  after=$([ -n "${4:-}" ] && cpu_ticks "$4" || echo 0)
  if [ -n "${4:-}" ]; then
    echo "$out, server CPU $(awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" -v n="${out%% *}" \
      'BEGIN { printf "%.1f", t / hz * 1e6 / n }') us/request"
  else
    echo "$out"
  fi
}

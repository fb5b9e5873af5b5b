#!/usr/bin/env bash
# Interop test: builds node-rpc, installs the pinned npm clients, serves the devnet
# under each --compat profile and drives it with run.mjs. Exits non-zero if any check fails.
#
#   interop/run.sh            # both profiles
#   interop/run.sh spec       # one profile
#
# Honors CARGO_TARGET_DIR (default: <repo>/target). Needs node >= 18 and npm.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=(spec avalanchego)

echo "== cargo build -p node-rpc"
(cd "$root" && cargo build -q -p node-rpc)
bin="${CARGO_TARGET_DIR:-$root/target}/debug/node-rpc"
[ -x "$bin" ] || { echo "node-rpc binary not found at $bin" >&2; exit 2; }

echo "== npm ci"
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)

server_pid=""
work=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  server_pid=""
  if [ -n "$work" ]; then rm -rf "$work"; fi
  work=""
}
trap cleanup EXIT INT TERM

status=0
for profile in "${profiles[@]}"; do
  echo "== profile $profile"
  work="$(mktemp -d)"
  "$bin" serve --listen 127.0.0.1:0 --data-dir "$work/data" --compat "$profile" >"$work/server.log" 2>&1 &
  server_pid=$!
  url=""
  for _ in $(seq 1 600); do
    url="$(sed -n 's/^node-rpc: listening on \(http:\/\/[0-9.:]*\).*/\1/p' "$work/server.log" | head -n1)"
    [ -n "$url" ] && break
    if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
    sleep 0.2
  done
  if [ -z "$url" ]; then
    echo "node-rpc did not start (profile $profile):" >&2
    cat "$work/server.log" >&2
    status=1
    cleanup
    continue
  fi
  echo "node-rpc at $url"
  if ! node "$here/run.mjs" "$url" --compat "$profile"; then
    status=1
  fi
  cleanup
done

if [ "$status" -eq 0 ]; then echo "interop: all profiles passed"; else echo "interop: FAILED"; fi
exit "$status"

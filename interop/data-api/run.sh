#!/usr/bin/env bash
# Data API interop with the official SDK (issues #4/#5): builds node-rpc and data-api, installs
# the pinned `@avalanche-sdk/chainkit` (package.json + package-lock.json), serves the devnet with
# node-rpc, has data-api follow it, creates an admin key, and drives data-api with run.mjs, once
# per data-api --compat profile. Exits non-zero if any check fails. docs/interop.md lists them.
#
#   interop/data-api/run.sh            # both profiles: spec, then glacier
#   interop/data-api/run.sh glacier    # one profile
#
# Honors CARGO_TARGET_DIR (default: <repo>/target). Needs node >= 18, npm and curl.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=servers.sh
source "$here/servers.sh"
openapi="${SNOWLINE_OPENAPI:-$root/../shared/reference/openapi/glacier-data-api.json}"
[ -f "$openapi" ] || { echo "OpenAPI not found: $openapi (set SNOWLINE_OPENAPI)" >&2; exit 2; }

build_servers
echo "== npm ci"
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
trap stop_servers EXIT INT TERM
profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=(spec glacier)

status=0
for profile in "${profiles[@]}"; do
  echo "== data-api --compat $profile"
  start_servers --compat "$profile"
  SNOWLINE_COMPAT="$profile" node "$here/run.mjs" "$API_URL" "$NODE_URL" "$API_KEY" "$openapi" || status=1
  stop_servers
done
if [ "$status" -eq 0 ]; then echo "interop data-api: all checks passed (${profiles[*]})"; else echo "interop data-api: FAILED"; fi
exit "$status"

#!/usr/bin/env bash
# Stop the Keystone that start-keystone.sh started (only that process). --purge also deletes
# its state directory (database, keys, passwords).
set -euo pipefail

STATE_DIR="${HAWSER_KEYSTONE_DIR:-$(dirname "$(mktemp -u)")/hawser-keystone}"
PID_FILE="$STATE_DIR/keystone.pid"

if [ -f "$PID_FILE" ]; then
  pid="$(cat "$PID_FILE")"
  # The pid may have been reused since: kill it only if it is still our server.
  if tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'serve-keystone.py'; then
    kill "$pid"
    for _ in $(seq 1 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
    echo "stop-keystone: stopped pid $pid"
  fi
  rm -f "$PID_FILE"
fi
if [ "${1:-}" = "--purge" ]; then
  rm -rf "$STATE_DIR"
  echo "stop-keystone: removed $STATE_DIR"
fi

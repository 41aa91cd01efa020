#!/usr/bin/env bash
# Start a throwaway Keystone (SQLite, fernet tokens) on a free loopback port for Hawser's tests.
#
#   eval "$(tools/keystone/start-keystone.sh | sed 's/^/export /')"
#
# Installs Debian's python3-keystone when missing, keeps all state in one temporary directory
# (HAWSER_KEYSTONE_DIR, default <tmp>/hawser-keystone), and prints KEY=value lines on stdout:
# KEYSTONE_URL and the user names, passwords and projects of an admin, a service user (role
# service, project service), a member and a reader of project demo. Progress goes to stderr.
# Running it again while Keystone runs prints the same lines; stop-keystone.sh stops it.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
STATE_DIR="${HAWSER_KEYSTONE_DIR:-$(dirname "$(mktemp -u)")/hawser-keystone}"
ENV_FILE="$STATE_DIR/keystone.env"
PID_FILE="$STATE_DIR/keystone.pid"
PORT_FILE="$STATE_DIR/keystone.port"
LOG_FILE="$STATE_DIR/keystone.log"

log() { echo "start-keystone: $*" >&2; }
answers() { "$PYTHON" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' "$1" 2>/dev/null; }
running() { [ -f "$PID_FILE" ] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null; }

if ! dpkg-query -W -f='${Status}' python3-keystone 2>/dev/null | grep -q 'install ok installed'; then
  log "installing python3-keystone (Debian)"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-keystone >&2
fi
# The interpreter Debian's keystone-manage runs with (a python3 earlier in PATH may lack keystone).
PYTHON="$(sed -n '1s/^#! *//p' "$(command -v keystone-manage)")"

if running && [ -f "$ENV_FILE" ] && answers "$(sed -n 's/^KEYSTONE_URL=//p' "$ENV_FILE")"; then
  log "already running (pid $(cat "$PID_FILE")), state in $STATE_DIR"
  cat "$ENV_FILE"
  exit 0
fi
if running; then
  log "a previous Keystone (pid $(cat "$PID_FILE")) does not answer; stopping it"
  "$HERE/stop-keystone.sh" >&2
fi

mkdir -p "$STATE_DIR"
chmod 700 "$STATE_DIR"
secret() { "$PYTHON" -c 'import secrets; print(secrets.token_hex(16))'; }
# Passwords survive restarts of the same state directory, so sourced variables stay valid.
if [ -f "$ENV_FILE" ]; then
  # shellcheck disable=SC1090
  set -a; . "$ENV_FILE"; set +a
fi
export KEYSTONE_ADMIN_USERNAME=admin KEYSTONE_ADMIN_PROJECT=admin
export KEYSTONE_SERVICE_USERNAME=hawser KEYSTONE_SERVICE_PROJECT=service
export KEYSTONE_MEMBER_USERNAME=demo-member KEYSTONE_MEMBER_PROJECT=demo
export KEYSTONE_READER_USERNAME=demo-reader KEYSTONE_READER_PROJECT=demo
export KEYSTONE_ADMIN_PASSWORD="${KEYSTONE_ADMIN_PASSWORD:-$(secret)}"
export KEYSTONE_SERVICE_PASSWORD="${KEYSTONE_SERVICE_PASSWORD:-$(secret)}"
export KEYSTONE_MEMBER_PASSWORD="${KEYSTONE_MEMBER_PASSWORD:-$(secret)}"
export KEYSTONE_READER_PASSWORD="${KEYSTONE_READER_PASSWORD:-$(secret)}"

cat >"$STATE_DIR/keystone.conf" <<CONF
[DEFAULT]
log_file = $LOG_FILE
use_stderr = false
[database]
connection = sqlite:///$STATE_DIR/keystone.db
[token]
provider = fernet
[fernet_tokens]
key_repository = $STATE_DIR/fernet-keys
[fernet_receipts]
key_repository = $STATE_DIR/fernet-keys
[credential]
key_repository = $STATE_DIR/credential-keys
[identity]
# Test users only: cheap hashing keeps password authentications fast.
password_hash_rounds = 4
[cache]
enabled = true
backend = oslo_cache.dict
CONF

manage() { keystone-manage --config-file "$STATE_DIR/keystone.conf" "$@" >>"$LOG_FILE" 2>&1; }
owner=(--keystone-user "$(id -un)" --keystone-group "$(id -gn)")
log "preparing the database and keys in $STATE_DIR"
manage db_sync
# In SQLite's default journal mode a reader's open transaction in the server blocks its own
# writes ("database is locked"); write-ahead logging lets readers and one writer coexist.
"$PYTHON" -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute("pragma journal_mode=wal")' \
  "$STATE_DIR/keystone.db"
manage fernet_setup "${owner[@]}"
manage credential_setup "${owner[@]}"

rm -f "$PORT_FILE"
OS_KEYSTONE_CONFIG_DIR="$STATE_DIR" nohup "$PYTHON" "$HERE/serve-keystone.py" "$PORT_FILE" \
  >>"$LOG_FILE" 2>&1 </dev/null &
echo $! >"$PID_FILE"
for _ in $(seq 1 300); do
  [ -s "$PORT_FILE" ] && break
  running || { log "Keystone exited; see $LOG_FILE"; tail -20 "$LOG_FILE" >&2; exit 1; }
  sleep 0.2
done
[ -s "$PORT_FILE" ] || { log "Keystone did not bind a port within 60 s; see $LOG_FILE"; exit 1; }
export KEYSTONE_URL="http://127.0.0.1:$(cat "$PORT_FILE")/v3"
until answers "$KEYSTONE_URL"; do
  running || { log "Keystone exited; see $LOG_FILE"; exit 1; }
  sleep 0.2
done

log "bootstrapping the admin, region and public endpoint, then the test users"
manage bootstrap --bootstrap-password "$KEYSTONE_ADMIN_PASSWORD" \
  --bootstrap-username "$KEYSTONE_ADMIN_USERNAME" \
  --bootstrap-project-name "$KEYSTONE_ADMIN_PROJECT" \
  --bootstrap-role-name admin --bootstrap-region-id RegionOne \
  --bootstrap-public-url "$KEYSTONE_URL"
"$PYTHON" "$HERE/provision-keystone.py"

{
  for name in URL ADMIN_USERNAME ADMIN_PASSWORD ADMIN_PROJECT SERVICE_USERNAME SERVICE_PASSWORD \
    SERVICE_PROJECT MEMBER_USERNAME MEMBER_PASSWORD MEMBER_PROJECT READER_USERNAME \
    READER_PASSWORD READER_PROJECT; do
    var="KEYSTONE_$name"
    echo "$var=${!var}"
  done
  echo "KEYSTONE_USER_DOMAIN=Default"
  echo "KEYSTONE_PROJECT_DOMAIN=Default"
} >"$ENV_FILE"
chmod 600 "$ENV_FILE"
log "Keystone $KEYSTONE_URL (pid $(cat "$PID_FILE")), log $LOG_FILE"
cat "$ENV_FILE"

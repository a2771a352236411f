#!/usr/bin/env bash
# Runs a command on a private session bus with an unlocked gnome-keyring (the Secret Service
# @napi-rs/keyring talks to), in fresh HOME/XDG folders so no real keyring is touched.
# Usage: scripts/with-keyring.sh npm test
set -euo pipefail
if ! command -v dbus-run-session >/dev/null || ! command -v gnome-keyring-daemon >/dev/null; then
  echo "with-keyring: dbus-run-session and gnome-keyring-daemon are needed (Debian: dbus gnome-keyring)" >&2
  exit 2
fi
tmp=$(mktemp -d)
mkdir -p "$tmp/home" "$tmp/data" "$tmp/runtime"
chmod 700 "$tmp/runtime"
export STATION_REAL_HOME="${HOME:-}"
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" XDG_RUNTIME_DIR="$tmp/runtime"
# npm's cache and config stay where they were.
export npm_config_cache="${npm_config_cache:-$STATION_REAL_HOME/.npm}"
export npm_config_userconfig="${npm_config_userconfig:-$STATION_REAL_HOME/.npmrc}"
quoted=$(printf '%q ' "$@")
exec dbus-run-session -- sh -c "printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; $quoted"

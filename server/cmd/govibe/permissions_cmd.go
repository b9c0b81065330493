package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"time"

	"github.com/govibe/govibe/server/internal/gate/allowrules"
)

// govibe permissions list [--json] | add RULE... | revoke RULE...
//
// The user's always-allow rules (allowrules.DefaultPath), shared by the
// editor and headless runs. "add" is for scripts; the editor adds them
// from a confirmation card's "Always allow".
func permissionsCmd(args []string) int {
	const use = "usage: govibe permissions list [--json] | add RULE... | revoke RULE..."
	if len(args) == 0 {
		args = []string{"list"}
	}
	f := allowrules.Open(allowrules.DefaultPath())
	switch args[0] {
	case "list":
		fs := flag.NewFlagSet("permissions list", flag.ContinueOnError)
		fs.SetOutput(stderr)
		asJSON := fs.Bool("json", false, "print JSON")
		if err := fs.Parse(args[1:]); err != nil {
			return 2
		}
		es, err := f.List()
		if err != nil {
			fmt.Fprintln(stderr, "govibe permissions:", err)
			return 1
		}
		if *asJSON {
			if es == nil {
				es = []allowrules.Entry{}
			}
			b, _ := json.MarshalIndent(map[string]any{"file": f.Path(), "rules": es}, "", "  ")
			fmt.Println(string(b))
			return 0
		}
		if len(es) == 0 {
			fmt.Fprintf(stderr, "no always-allow rules (%s)\n", f.Path())
			return 0
		}
		for _, e := range es {
			fmt.Printf("%s\t%s\n", e.Rule, e.Added.Local().Format(time.DateTime))
		}
		return 0
	case "add":
		if len(args) < 2 {
			fmt.Fprintln(stderr, use)
			return 2
		}
		added, err := f.Add(args[1:]...)
		if err != nil {
			fmt.Fprintln(stderr, "govibe permissions:", err)
			return 1
		}
		for _, r := range added {
			fmt.Println("added", r)
		}
		return 0
	case "revoke":
		if len(args) < 2 {
			fmt.Fprintln(stderr, use)
			return 2
		}
		code := 0
		for _, r := range args[1:] {
			if err := f.Revoke(r); err != nil {
				fmt.Fprintln(stderr, "govibe permissions:", err)
				code = 1
				continue
			}
			fmt.Println("revoked", r)
		}
		return code
	case "-h", "--help", "help":
		fmt.Println(use)
		return 0
	}
	fmt.Fprintf(stderr, "govibe permissions: unknown subcommand %q\n%s\n", args[0], use)
	return 2
}

package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/host/logging"
	"github.com/govibe/govibe/server/internal/workspace/snapshot"
)

func openEngine(cf commonFlags) (*engine.Engine, error) {
	log := logging.New(logging.Options{Level: "warn", Stderr: discardUnlessDebug()})
	return engine.New(engine.Options{Roots: []string{cf.workspace}, StateDir: cf.stateDir, Logger: log.Logger, Headless: true})
}

func snapshotCmd(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: govibe snapshot list|diff ID|restore ID [--file PATH] [--workspace DIR] [--state-dir DIR] [--json]")
		return exitUsage
	}
	sub := args[0]
	fs := flag.NewFlagSet("snapshot "+sub, flag.ContinueOnError)
	var cf commonFlags
	cf.register(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	file := fs.String("file", "", "restore only this file (relative to the workspace)")
	if err := fs.Parse(reorder(args[1:])); err != nil {
		return exitUsage
	}
	if err := cf.resolve(); err != nil {
		fmt.Fprintln(stderr, "govibe snapshot:", err)
		return exitUsage
	}
	needID := sub == "diff" || sub == "restore"
	if needID && fs.NArg() != 1 {
		fmt.Fprintf(stderr, "govibe snapshot %s: exactly one snapshot ID is required\n", sub)
		return exitUsage
	}
	eng, err := openEngine(cf)
	if err != nil {
		fmt.Fprintln(stderr, "govibe snapshot:", err)
		return exitError
	}
	defer eng.Close()
	ctx := context.Background()
	switch sub {
	case "list":
		list, _, err := eng.Rollback.Snapshots("")
		if err != nil {
			fmt.Fprintln(stderr, "govibe snapshot list:", err)
			return exitError
		}
		if *asJSON {
			rows := make([]map[string]any, 0, len(list))
			for _, s := range list {
				rows = append(rows, map[string]any{"id": s.ID, "time": s.Time.UTC().Format(time.RFC3339), "sessionId": s.SessionID,
					"turn": s.Turn, "message": s.Message, "changedFiles": s.ChangedFiles})
			}
			printJSON(os.Stdout, rows)
			return exitDone
		}
		tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tTIME\tTURN\tFILES\tMESSAGE")
		for _, s := range list {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\n", s.ID[:12], s.Time.Local().Format("2006-01-02 15:04:05"), s.Turn, s.ChangedFiles, s.Message)
		}
		tw.Flush()
	case "diff":
		changes, err := eng.Rollback.SnapshotDiff(ctx, fs.Arg(0))
		if err != nil {
			fmt.Fprintln(stderr, "govibe snapshot diff:", err)
			return exitError
		}
		printChanges(changes, *asJSON)
	case "restore":
		var res snapshot.RestoreResult
		if *file != "" {
			res, err = eng.Rollback.RestoreFile(ctx, fs.Arg(0), *file)
		} else {
			res, err = eng.Rollback.Restore(ctx, fs.Arg(0))
		}
		if err != nil {
			fmt.Fprintln(stderr, "govibe snapshot restore:", err)
			return exitError
		}
		if *asJSON {
			printJSON(os.Stdout, map[string]any{"undoId": res.Before.ID, "changes": changeRows(res.Changed)})
		} else {
			printChanges(res.Changed, false)
			fmt.Printf("undo with: govibe snapshot restore %s\n", res.Before.ID)
		}
	default:
		fmt.Fprintf(stderr, "govibe snapshot: unknown subcommand %q\n", sub)
		return exitUsage
	}
	return exitDone
}

func changeRows(cs []snapshot.Change) []map[string]string {
	rows := make([]map[string]string, 0, len(cs))
	for _, c := range cs {
		rows = append(rows, map[string]string{"path": c.Path, "kind": string(c.Kind)})
	}
	return rows
}

func printChanges(cs []snapshot.Change, asJSON bool) {
	if asJSON {
		printJSON(os.Stdout, changeRows(cs))
		return
	}
	if len(cs) == 0 {
		fmt.Println("no changes")
	}
	for _, c := range cs {
		fmt.Printf("%-10s %s\n", c.Kind, c.Path)
	}
}

// reorder moves flags before positional arguments so `restore ID --json`
// works like `restore --json ID` (the flag package stops at the first
// positional argument).
func reorder(args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) > 1 && a[0] == '-' {
			flags = append(flags, a)
			if !hasValue(a) && i+1 < len(args) && takesValue(a) {
				flags = append(flags, args[i+1])
				i++
			}
			continue
		}
		pos = append(pos, a)
	}
	return append(flags, pos...)
}

func hasValue(a string) bool {
	for _, c := range a {
		if c == '=' {
			return true
		}
	}
	return false
}

func takesValue(a string) bool {
	switch a {
	case "-workspace", "--workspace", "-state-dir", "--state-dir", "-file", "--file":
		return true
	}
	return false
}

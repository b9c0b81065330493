package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/govibe/govibe/server/internal/storage/store"
)

func sessionCmd(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: govibe session list|show ID|export ID|import FILE [--workspace DIR] [--state-dir DIR] [--json]")
		return exitUsage
	}
	sub := args[0]
	fs := flag.NewFlagSet("session "+sub, flag.ContinueOnError)
	var cf commonFlags
	cf.register(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(reorder(args[1:])); err != nil {
		return exitUsage
	}
	if err := cf.resolve(); err != nil {
		fmt.Fprintln(stderr, "govibe session:", err)
		return exitUsage
	}
	if (sub == "show" || sub == "export" || sub == "import") && fs.NArg() != 1 {
		fmt.Fprintf(stderr, "govibe session %s: exactly one argument (a session ID, or the file to import) is required\n", sub)
		return exitUsage
	}
	eng, err := openEngine(cf)
	if err != nil {
		fmt.Fprintln(stderr, "govibe session:", err)
		return exitError
	}
	defer eng.Close()
	ctx := context.Background()
	switch sub {
	case "list":
		list, err := eng.Sessions.List(ctx, 1000)
		if err != nil {
			fmt.Fprintln(stderr, "govibe session list:", err)
			return exitError
		}
		if *asJSON {
			rows := make([]map[string]any, 0, len(list))
			for _, s := range list {
				rows = append(rows, map[string]any{"id": s.ID, "title": s.Title, "updated": s.Updated, "messageCount": s.MessageCount, "model": s.Model, "cost": s.Cost})
			}
			printJSON(os.Stdout, rows)
			return exitDone
		}
		tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tUPDATED\tMESSAGES\tMODEL\tCOST\tTITLE")
		for _, s := range list {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t$%.4f\t%s\n", s.ID, s.Updated.Local().Format("2006-01-02 15:04"), s.MessageCount, s.Model, s.Cost, s.Title)
		}
		tw.Flush()
	case "show":
		sess, err := eng.Store.GetSession(ctx, fs.Arg(0))
		if err != nil {
			fmt.Fprintln(stderr, "govibe session show:", err)
			return exitError
		}
		var all []store.Message
		before := int64(0)
		for {
			page, err := eng.Store.LoadMessages(ctx, sess.ID, before, 1000)
			if err != nil {
				fmt.Fprintln(stderr, "govibe session show:", err)
				return exitError
			}
			all = append(page.Messages, all...)
			if !page.HasMore {
				break
			}
			before = page.NextBefore
		}
		if *asJSON {
			printJSON(os.Stdout, map[string]any{"session": sess, "messages": all})
			return exitDone
		}
		fmt.Printf("%s — %s\n\n", sess.ID, sess.Title)
		for _, m := range all {
			tag := ""
			if m.SubAgentTag != "" {
				tag = " [" + m.SubAgentTag + "]"
			}
			fmt.Printf("## %s (%s)%s\n%s\n\n", m.Role, m.Status, tag, m.Text())
		}
	case "export":
		doc, err := eng.Store.Export(ctx, fs.Arg(0))
		if err != nil {
			fmt.Fprintln(stderr, "govibe session export:", err)
			return exitError
		}
		os.Stdout.Write(doc)
		fmt.Println()
	case "import":
		// A document written by export (a new session ID is given).
		data, err := os.ReadFile(fs.Arg(0))
		if err != nil {
			fmt.Fprintln(stderr, "govibe session import:", err)
			return exitError
		}
		s, err := eng.Store.Import(ctx, data)
		if err != nil {
			fmt.Fprintln(stderr, "govibe session import:", err)
			return exitError
		}
		fmt.Println(s.ID)
	default:
		fmt.Fprintf(stderr, "govibe session: unknown subcommand %q\n", sub)
		return exitUsage
	}
	return exitDone
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/govibe/govibe/server/internal/host/i18n"
	"github.com/govibe/govibe/server/internal/model/providers"
)

const modelsUsage = `usage: govibe models presets
       govibe models list  --preset ID [--base-url URL] [--api-key-env VAR] [--json]
       govibe models probe --preset ID --model NAME [--base-url URL] [--api-key-env VAR] [--json]

The key is read from the variable named by --api-key-env (default: the
preset's own, e.g. DEEPSEEK_API_KEY); local presets need none.
`

func modelsCmd(args []string) int { return runModels(args, os.Stdout, stderr) }

func runModels(args []string, out, errw io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(errw, modelsUsage)
		return 2
	}
	sub := args[0]
	if sub == "presets" {
		tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tBASE URL\tKEY")
		for _, p := range providers.All() {
			key := p.KeyEnv
			if p.Local {
				key = "(local)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.ID, p.Name, p.BaseURL, key)
		}
		_ = tw.Flush()
		return 0
	}
	if sub != "list" && sub != "probe" {
		fmt.Fprintf(errw, "govibe models: unknown subcommand %q\n\n%s", sub, modelsUsage)
		return 2
	}
	fs := flag.NewFlagSet("models "+sub, flag.ContinueOnError)
	fs.SetOutput(errw)
	presetID := fs.String("preset", "", "provider preset (govibe models presets)")
	baseURL := fs.String("base-url", "", "base URL (default: the preset's)")
	keyEnv := fs.String("api-key-env", "", "environment variable holding the key")
	model := fs.String("model", "", "model to probe")
	asJSON := fs.Bool("json", false, "print JSON")
	timeout := fs.Duration("timeout", 30*time.Second, "request timeout")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if *presetID == "" {
		fmt.Fprintln(errw, "govibe models: --preset is required (govibe models presets lists them)")
		return 2
	}
	p, err := providers.Get(*presetID)
	if err != nil {
		fmt.Fprintln(errw, "govibe models:", err)
		return 2
	}
	env := *keyEnv
	if env == "" {
		env = p.KeyEnv
	}
	key := ""
	if env != "" {
		key = os.Getenv(env)
	}
	if key == "" && !p.Local {
		fmt.Fprintf(errw, "govibe models: no API key: set %s (or name another variable with --api-key-env)\n", env)
		return 2
	}
	ep := providers.Endpoint{Preset: p, BaseURL: *baseURL, APIKey: key}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	lang := i18n.Pick("", os.Getenv("LANG"))
	if sub == "list" {
		models, fromPreset, err := ep.Models(ctx)
		if err != nil {
			return reportProviderErr(errw, lang, err)
		}
		if *asJSON {
			ids := make([]string, 0, len(models))
			for _, m := range models {
				ids = append(ids, m.ID)
			}
			return writeJSON(out, ids)
		}
		if fromPreset {
			fmt.Fprintln(errw, i18n.T(lang, "%s has no model list; these are the models GoVibe knows for it.", p.Name))
		}
		for _, m := range models {
			line := m.ID
			if m.ContextWindow > 0 {
				line += fmt.Sprintf("\twindow %dk", m.ContextWindow/1000)
			}
			if m.PriceInput > 0 || m.PriceOutput > 0 {
				line += fmt.Sprintf("\t$%.3g/$%.3g per M", m.PriceInput, m.PriceOutput)
			}
			fmt.Fprintln(out, line)
		}
		return 0
	}
	if *model == "" {
		fmt.Fprintln(errw, "govibe models probe: --model is required (govibe models list shows the choices)")
		return 2
	}
	res, err := ep.Probe(ctx, *model)
	if err != nil {
		return reportProviderErr(errw, lang, err)
	}
	if *asJSON {
		return writeJSON(out, res)
	}
	yn := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	fmt.Fprintf(out, "model:     %s\nstreaming: %s\ntools:     %s\nusage:     %s\ncache hits reported: %s\nreasoning: %s\n",
		res.Model, yn(res.Streaming), yn(res.Tools), yn(res.Usage), yn(res.Cached), yn(res.Reasoning))
	if res.ToolsError != "" {
		fmt.Fprintf(out, "tools refused: %s\n", res.ToolsError)
	}
	return 0
}

func reportProviderErr(w io.Writer, lang i18n.Lang, err error) int {
	var pe *providers.Error
	if errors.As(err, &pe) {
		fmt.Fprintln(w, "govibe models:", pe.Advice(lang))
		return 1
	}
	fmt.Fprintln(w, "govibe models:", err)
	return 1
}

func writeJSON(w io.Writer, v any) int {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return 1
	}
	return 0
}

package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/host/i18n"
)

// Sources of headless settings, as `govibe config` names them.
const (
	sourceEnv  = "environment"
	sourceFlag = "flags"
)

// loadSettings resolves the headless settings: the user file, then the
// environment, then --set flags, then the dedicated flags in extra (which
// count as flags too). A malformed file or a --set value that does not fit
// its declaration is an error; unknown keys and renamed ones are warnings.
func loadSettings(sets []string, extra config.Values) (config.Resolved, error) {
	path := config.UserFile()
	file, err := config.LoadFile(path)
	if err != nil {
		return config.Resolved{}, err
	}
	flags := config.Values{}
	for _, s := range sets {
		k, v, err := config.ParseAssignment(s)
		if err != nil {
			return config.Resolved{}, err
		}
		if err := config.Validate(k, v); err != nil {
			return config.Resolved{}, fmt.Errorf("--set %s", err)
		}
		flags[k] = v
	}
	for k, v := range extra {
		flags[k] = v
	}
	return config.Resolve(
		config.Layer{Source: config.FileSource(path), Values: file},
		config.Layer{Source: sourceEnv, Values: config.FromEnv()},
		config.Layer{Source: sourceFlag, Values: flags},
	), nil
}

// cliLang is the language of CLI messages: govibe.language, else $LANG.
func cliLang(v config.Values) i18n.Lang {
	return i18n.Pick(config.Typed(v).Language, os.Getenv("LANG"))
}

func printWarnings(w io.Writer, cmd string, r config.Resolved) {
	lang := cliLang(r.Values)
	for _, x := range r.Warnings {
		fmt.Fprintf(w, "govibe %s: warning: %s\n", cmd, x.In(lang))
	}
}

// configCmd prints every effective setting with its value and where it
// came from, like `git config --list --show-origin`. Secrets show as
// set/unset.
func configCmd(args []string) int {
	fs := flag.NewFlagSet("config", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON: {key: {value, source}}, keys without the govibe. prefix")
	keyEnv := fs.String("api-key-env", "GOVIBE_API_KEY", "environment variable holding the API key")
	var sets multiFlag
	fs.Var(&sets, "set", "KEY=VALUE: override a setting, as govibe exec does (repeatable)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: govibe config [--json] [--set KEY=VALUE]...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "govibe config: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	r, err := loadSettings(sets, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "govibe config:", err)
		return exitUsage
	}
	printWarnings(os.Stderr, "config", r)
	entries := r.Entries()
	// The key itself comes from the environment headless, never from Values.
	if os.Getenv(*keyEnv) != "" {
		for i, e := range entries {
			if e.Key == "apiKey" {
				entries[i] = config.SecretEntry("apiKey", true, sourceEnv+" ("+*keyEnv+")")
			}
		}
	}
	if *asJSON {
		type item struct {
			Value  any    `json:"value"`
			Source string `json:"source"`
		}
		out := make(map[string]item, len(entries))
		for _, e := range entries {
			out[e.Key] = item{Value: e.Value, Source: e.Source}
		}
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			fmt.Fprintln(os.Stderr, "govibe config:", err)
			return exitError
		}
		return exitDone
	}
	for _, e := range entries {
		fmt.Printf("%s\t%s=%s\n", e.Source, e.Key, showValue(e.Value))
	}
	return exitDone
}

func showValue(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return strings.TrimSpace(string(b))
}

// settingOrigin words a config source for a person: where to fix a value
// ("" for a default, which nobody wrote).
func settingOrigin(source string, tr func(string, ...any) string) string {
	switch {
	case source == sourceFlag:
		return tr("the --set flags")
	case source == sourceEnv:
		return tr("the environment")
	case strings.HasPrefix(source, "user file "):
		return tr("your settings file %s", strings.TrimPrefix(source, "user file "))
	}
	return ""
}

// Command scriptedmodel serves a scripted OpenAI-compatible model on
// loopback for end-to-end tests.
//
//	scriptedmodel [--addr 127.0.0.1:0] [--script rules.json] [--provider deepseek|openai] [--api-key KEY]
//
// When ready it prints one JSON line, {"url": "http://127.0.0.1:PORT/v1"},
// on stdout, then serves until SIGTERM or SIGINT. GET /_requests returns the
// recorded requests; POST /_script replaces the rules.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "scriptedmodel:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("scriptedmodel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on")
	scriptPath := fs.String("script", "", "rules JSON file (default: echo every prompt)")
	provider := fs.String("provider", "", `enforce a provider's reasoning_content rules: "deepseek" or "openai"`)
	apiKey := fs.String("api-key", "", "require this bearer token (401 otherwise)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	switch *provider {
	case "", "deepseek", "openai":
	default:
		return fmt.Errorf(`--provider must be "deepseek" or "openai", got %q`, *provider)
	}
	var rules *scripted.Rules
	if *scriptPath != "" {
		data, err := os.ReadFile(*scriptPath)
		if err != nil {
			return fmt.Errorf("reading script: %w", err)
		}
		if rules, err = scripted.ParseRules(data); err != nil {
			return fmt.Errorf("%s: %w", *scriptPath, err)
		}
	}

	srv, err := scripted.Listen(*addr)
	if err != nil {
		return err
	}
	defer srv.Close()
	srv.SetConfig(scripted.Config{Provider: *provider, APIKey: *apiKey})
	if rules != nil {
		if err := srv.SetRules(rules); err != nil {
			return err
		}
	}
	line, _ := json.Marshal(map[string]string{"url": srv.URL()})
	if _, err := fmt.Fprintf(stdout, "%s\n", line); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "scriptedmodel: serving %s\n", srv.URL())
	<-ctx.Done()
	fmt.Fprintf(stderr, "scriptedmodel: stopping after %d request(s)\n", len(srv.Requests()))
	return nil
}

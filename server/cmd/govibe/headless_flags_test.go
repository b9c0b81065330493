package main

import (
	"flag"
	"io"
	"os"
	"testing"
)

// The shared flags parse the same way for both commands, set only what
// was given, and take the key out of the environment.
func TestModelFlags(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var mf modelFlags
	mf.register(fs, -1, "cap")
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	if v := mf.extra(); len(v) != 0 {
		t.Fatalf("no flags set %v", v)
	}
	if err := fs.Parse([]string{"--base-url", "http://m", "--model", "p", "--max-turns", "0", "--set", "a=1", "--set", "b=2", "--api-key-env", "EVAL_TEST_KEY"}); err != nil {
		t.Fatal(err)
	}
	v := mf.extra()
	if v["apiBaseUrl"] != "http://m" || v["model"] != "p" || v["maxInteractions"] != float64(0) || len(mf.sets) != 2 {
		t.Fatalf("extra %v, sets %v", v, mf.sets)
	}
	t.Setenv("EVAL_TEST_KEY", "sk-1")
	if keys := mf.takeKey(); keys[""] != "sk-1" {
		t.Fatalf("keys %v", keys)
	}
	if _, ok := os.LookupEnv("EVAL_TEST_KEY"); ok {
		t.Fatal("the key stayed in the environment")
	}
}

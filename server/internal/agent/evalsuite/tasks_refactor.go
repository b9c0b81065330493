package evalsuite

import (
	"os"
	"path/filepath"
)

// refactor: a signature change that ripples through three packages. The
// checker vets the whole module (a caller left behind does not build),
// then adds tests of its own that pin the new signatures and the error.
var refactor = Task{
	Name:        "refactor",
	Description: "change a signature and propagate its error across packages",
	Setup: func(_ *Env, dir string) error {
		return writeFiles(dir, map[string]string{
			"go.mod":              "module kv\n\ngo 1.21\n",
			"store/store.go":      "package store\n\n// Store holds string values by key.\ntype Store struct{ m map[string]string }\n\n// New returns a store holding m.\nfunc New(m map[string]string) *Store { return &Store{m: m} }\n\n// Get returns the value of key, \"\" when it is missing.\nfunc (s *Store) Get(key string) string { return s.m[key] }\n",
			"store/store_test.go": "package store\n\nimport \"testing\"\n\nfunc TestGet(t *testing.T) {\n\tif got := New(map[string]string{\"a\": \"1\"}).Get(\"a\"); got != \"1\" {\n\t\tt.Fatal(got)\n\t}\n}\n",
			"config/config.go":    "package config\n\nimport \"kv/store\"\n\n// Port is the configured port.\nfunc Port(s *store.Store) string { return s.Get(\"port\") }\n",
			"api/api.go":          "package api\n\nimport (\n\t\"kv/config\"\n\t\"kv/store\"\n)\n\n// Describe names the user and the port.\nfunc Describe(s *store.Store) string {\n\treturn \"user=\" + s.Get(\"user\") + \" port=\" + config.Port(s)\n}\n",
			"api/api_test.go":     "package api\n\nimport (\n\t\"testing\"\n\n\t\"kv/store\"\n)\n\nfunc TestDescribe(t *testing.T) {\n\tif got := Describe(store.New(map[string]string{\"user\": \"ann\", \"port\": \"80\"})); got != \"user=ann port=80\" {\n\t\tt.Fatal(got)\n\t}\n}\n",
			"cli/cli.go":          "package cli\n\nimport \"kv/store\"\n\n// Greeting greets the configured user.\nfunc Greeting(s *store.Store) string { return \"hello \" + s.Get(\"user\") }\n",
		})
	},
	Prompt: func(*Env) string {
		return "Refactor this module: Store.Get must return (string, error), with a new exported error store.ErrNotFound for a missing key. " +
			"config.Port, api.Describe and cli.Greeting must return (string, error) as well and pass a missing key's error on, so that errors.Is(err, store.ErrNotFound) holds. " +
			"Update the existing tests to the new signatures; the whole module must build and its tests pass."
	},
	Check: func(c *CheckInput) error {
		if err := goTool(c.Workspace, "vet", "./..."); err != nil {
			return err
		}
		for name, src := range refactorChecks {
			if err := os.WriteFile(filepath.Join(c.Workspace, name), []byte(src), 0o644); err != nil {
				return err
			}
		}
		return goTest(c.Workspace)
	},
}

// refactorChecks are written into the workspace after the run, as
// external test packages so they cannot clash with the run's own tests.
var refactorChecks = map[string]string{
	"store/zz_eval_check_test.go": `package store_test

import (
	"errors"
	"testing"

	"kv/store"
)

func TestEvalGet(t *testing.T) {
	s := store.New(map[string]string{"a": "1"})
	if v, err := s.Get("a"); v != "1" || err != nil {
		t.Fatalf("Get(a) = %q, %v", v, err)
	}
	if _, err := s.Get("b"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Get of a missing key: error %v, want store.ErrNotFound", err)
	}
}
`,
	"api/zz_eval_check_test.go": `package api_test

import (
	"errors"
	"testing"

	"kv/api"
	"kv/cli"
	"kv/config"
	"kv/store"
)

func TestEvalCallers(t *testing.T) {
	full := store.New(map[string]string{"user": "ann", "port": "80"})
	if got, err := api.Describe(full); got != "user=ann port=80" || err != nil {
		t.Fatalf("Describe = %q, %v", got, err)
	}
	if got, err := cli.Greeting(full); got != "hello ann" || err != nil {
		t.Fatalf("Greeting = %q, %v", got, err)
	}
	if got, err := config.Port(full); got != "80" || err != nil {
		t.Fatalf("Port = %q, %v", got, err)
	}
	empty := store.New(map[string]string{})
	for name, f := range map[string]func(*store.Store) (string, error){"Describe": api.Describe, "Greeting": cli.Greeting, "Port": config.Port} {
		if _, err := f(empty); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s of an empty store: error %v, want store.ErrNotFound", name, err)
		}
	}
}
`,
}

package main

// moreSolutions adds the scripts of the plan-first, refactor, search,
// dirty-tree and generated tasks: right ones and the wrong ones their
// checkers must fail.
func moreSolutions(right, wrong map[string][]evalStep) {
	write := func(path, content string) [2]string {
		return call("write_file", `{"filePath":"`+path+`","content":`+jsonString(content)+`}`)
	}
	read := func(path string) [2]string { return call("read_file", `{"filePath":"`+path+`"}`) }

	// Plan mode: read, propose; then the approved plan's agents.
	right["plan-first"] = []evalStep{
		{calls: [][2]string{read("stats_test.go"), read("NOTES.md")}},
		{calls: [][2]string{call("create_todo_list", `{"goal":"Median and Mode pass their tests","items":[`+
			`{"title":"Add Median","acceptance":"go test -run TestMedian passes"},{"title":"Add Mode","acceptance":"go test ./... passes"}]}`)}},
	}
	right["plan-first executor:1"] = []evalStep{{calls: [][2]string{write("median.go", medianGo)}}, {text: "Added Median in median.go."}}
	right["plan-first evaluator:1"] = []evalStep{{calls: [][2]string{call("complete_todo_item", `{"index":1,"summary":"median.go:6 sorts a copy"}`)}}, {text: "Item 1 done."}}
	right["plan-first executor:2"] = []evalStep{{calls: [][2]string{write("mode.go", modeGo)}}, {text: "Added Mode in mode.go."}}
	right["plan-first evaluator:2"] = []evalStep{{calls: [][2]string{call("complete_todo_item", `{"index":2,"summary":"mode.go picks the smallest on a tie"}`)}}, {text: "Item 2 done."}}
	right["plan-first scheduler"] = []evalStep{{text: "Median (median.go) and Mode (mode.go) are in; the tests pass."}}
	// Skips the plan: the write Plan mode refuses, then claims success.
	wrong["plan-first"] = []evalStep{
		{calls: [][2]string{write("median.go", medianGo)}},
		{text: "Done."},
	}

	right["refactor"] = []evalStep{
		{calls: [][2]string{read("store/store.go"), read("config/config.go"), read("api/api.go"), read("cli/cli.go"), read("store/store_test.go"), read("api/api_test.go")}},
		{calls: [][2]string{write("store/store.go", kvStore), write("config/config.go", kvConfig), write("api/api.go", kvAPI), write("cli/cli.go", kvCLI),
			write("store/store_test.go", kvStoreTest), write("api/api_test.go", kvAPITest)}},
		{text: "Store.Get returns (string, error) with store.ErrNotFound (store/store.go:14); Port, Describe and Greeting pass it on."},
	}
	// Changes the store and config, and leaves api and cli behind.
	wrong["refactor"] = []evalStep{
		{calls: [][2]string{read("store/store.go"), read("config/config.go")}},
		{calls: [][2]string{write("store/store.go", kvStore), write("config/config.go", kvConfig)}},
		{text: "Done."},
	}

	right["search"] = []evalStep{
		{calls: [][2]string{call("grep_search", `{"pattern":"export failed"}`)}},
		{calls: [][2]string{call("read_file", `{"filePath":"routes/legacy_billing.go","startLine":8,"endLine":16}`)}},
		{calls: [][2]string{call("edit", `{"filePath":"routes/legacy_billing.go","startLine":12,"endLine":12,"newContent":"\tcase \"csv\":"}`)}},
		{text: "routes/legacy_billing.go:12 matched \"cvs\"; it matches \"csv\" now."},
	}
	// Makes the 500 go away by serving every format.
	wrong["search"] = []evalStep{
		{calls: [][2]string{read("routes/legacy_billing.go")}},
		{calls: [][2]string{call("edit", `{"filePath":"routes/legacy_billing.go","startLine":15,"endLine":15,"newContent":"\treturn 200, \"invoices/export csv\""}`)}},
		{text: "Fixed."},
	}

	right["dirty-tree"] = []evalStep{
		{calls: [][2]string{read("slug.go")}},
		{calls: [][2]string{call("edit", `{"filePath":"slug.go","startLine":7,"endLine":7,"newContent":"\treturn strings.Join(strings.Fields(strings.ToLower(title)), \"-\")"}`)}},
		{text: "slug.go:7 upper-cased; it lower-cases now. The other uncommitted changes are untouched."},
	}
	// Fixes the bug by writing slug.go afresh, dropping the colleague's function.
	wrong["dirty-tree"] = []evalStep{
		{calls: [][2]string{read("slug.go")}},
		{calls: [][2]string{write("slug.go", "package textutil\n\nimport \"strings\"\n\n// Slug makes a URL path segment of a title: lower case, words joined by '-'.\nfunc Slug(title string) string {\n\treturn strings.Join(strings.Fields(strings.ToLower(title)), \"-\")\n}\n")}},
		{text: "Fixed."},
	}

	right["generated"] = []evalStep{
		{calls: [][2]string{read("colors_gen.go"), read("colors.txt")}},
		{calls: [][2]string{call("edit", `{"filePath":"colors.txt","startLine":3,"endLine":3,"newContent":"blue\nteal"}`)}},
		{calls: [][2]string{call("run_shell_command", `{"command":"go generate ./..."}`)}},
		{text: "Added teal to colors.txt and regenerated colors_gen.go."},
	}
	// Edits the generated file by hand.
	wrong["generated"] = []evalStep{
		{calls: [][2]string{read("colors_gen.go")}},
		{calls: [][2]string{call("edit", `{"filePath":"colors_gen.go","startLine":6,"endLine":13,"newContent":"const Count = 4\n\n// Names are the known colors, sorted.\nvar Names = []string{\n\t\"blue\",\n\t\"green\",\n\t\"red\",\n\t\"teal\",\n}"}`)}},
		{text: "Added teal."},
	}
}

const (
	medianGo = "package stats\n\nimport \"sort\"\n\n// Median returns the middle value of xs (the mean of the two middle ones\n// for an even count), 0 for none. xs is not changed.\nfunc Median(xs []float64) float64 {\n\tif len(xs) == 0 {\n\t\treturn 0\n\t}\n\ts := append([]float64(nil), xs...)\n\tsort.Float64s(s)\n\tif len(s)%2 == 1 {\n\t\treturn s[len(s)/2]\n\t}\n\treturn (s[len(s)/2-1] + s[len(s)/2]) / 2\n}\n"
	modeGo   = "package stats\n\n// Mode returns the most frequent value of xs, the smallest on a tie, 0\n// for none.\nfunc Mode(xs []float64) float64 {\n\tcount := map[float64]int{}\n\tbest, n := 0.0, 0\n\tfor _, x := range xs {\n\t\tcount[x]++\n\t\tif c := count[x]; c > n || (c == n && x < best) {\n\t\t\tbest, n = x, c\n\t\t}\n\t}\n\treturn best\n}\n"

	kvStore     = "package store\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n)\n\n// ErrNotFound is Get's error for a missing key.\nvar ErrNotFound = errors.New(\"not found\")\n\n// Store holds string values by key.\ntype Store struct{ m map[string]string }\n\n// New returns a store holding m.\nfunc New(m map[string]string) *Store { return &Store{m: m} }\n\n// Get returns the value of key, ErrNotFound when it is missing.\nfunc (s *Store) Get(key string) (string, error) {\n\tv, ok := s.m[key]\n\tif !ok {\n\t\treturn \"\", fmt.Errorf(\"%q: %w\", key, ErrNotFound)\n\t}\n\treturn v, nil\n}\n"
	kvConfig    = "package config\n\nimport \"kv/store\"\n\n// Port is the configured port.\nfunc Port(s *store.Store) (string, error) { return s.Get(\"port\") }\n"
	kvAPI       = "package api\n\nimport (\n\t\"fmt\"\n\n\t\"kv/config\"\n\t\"kv/store\"\n)\n\n// Describe names the user and the port.\nfunc Describe(s *store.Store) (string, error) {\n\tuser, err := s.Get(\"user\")\n\tif err != nil {\n\t\treturn \"\", fmt.Errorf(\"describe: %w\", err)\n\t}\n\tport, err := config.Port(s)\n\tif err != nil {\n\t\treturn \"\", fmt.Errorf(\"describe: %w\", err)\n\t}\n\treturn \"user=\" + user + \" port=\" + port, nil\n}\n"
	kvCLI       = "package cli\n\nimport \"kv/store\"\n\n// Greeting greets the configured user.\nfunc Greeting(s *store.Store) (string, error) {\n\tuser, err := s.Get(\"user\")\n\tif err != nil {\n\t\treturn \"\", err\n\t}\n\treturn \"hello \" + user, nil\n}\n"
	kvStoreTest = "package store\n\nimport \"testing\"\n\nfunc TestGet(t *testing.T) {\n\tif got, err := New(map[string]string{\"a\": \"1\"}).Get(\"a\"); got != \"1\" || err != nil {\n\t\tt.Fatal(got, err)\n\t}\n}\n"
	kvAPITest   = "package api\n\nimport (\n\t\"testing\"\n\n\t\"kv/store\"\n)\n\nfunc TestDescribe(t *testing.T) {\n\tif got, err := Describe(store.New(map[string]string{\"user\": \"ann\", \"port\": \"80\"})); got != \"user=ann port=80\" || err != nil {\n\t\tt.Fatal(got, err)\n\t}\n}\n"
)

package evalsuite

import (
	"fmt"
	"strings"
)

// searchResources each get a file with a list handler and an export
// handler; invoices' export lives elsewhere (legacy_billing.go), with the
// bug, so only a search for the message or the route finds it.
var searchResources = strings.Fields(`accounts addresses alerts audits backups badges carts catalogs coupons customers
	devices discounts events feeds groups invoices jobs labels ledgers messages notes orders payments plans products
	quotes refunds reports shipments tickets`)

const searchRoutes = `package routes

var table = map[string]func(format string) (int, string){}

func register(path string, h func(format string) (int, string)) { table[path] = h }

// Serve answers a request for path in the given format.
func Serve(path, format string) (int, string) {
	h, ok := table[path]
	if !ok {
		return 404, "not found"
	}
	return h(format)
}
`

func handlerName(res string, export bool) string {
	n := "handle" + strings.ToUpper(res[:1]) + res[1:]
	if export {
		n += "Export"
	}
	return n
}

// searchFile is one resource's file; invoices' export is not in it.
func searchFile(res string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package routes\n\nfunc init() {\n\tregister(\"/v1/%s\", %s)\n", res, handlerName(res, false))
	if res != "invoices" {
		fmt.Fprintf(&b, "\tregister(\"/v1/%s/export\", %s)\n", res, handlerName(res, true))
	}
	fmt.Fprintf(&b, "}\n\n// %s lists %s.\nfunc %s(format string) (int, string) {\n\tif format == \"\" || format == \"json\" {\n\t\treturn 200, \"%s json\"\n\t}\n\treturn 400, \"unsupported format\"\n}\n",
		handlerName(res, false), res, handlerName(res, false), res)
	if res != "invoices" {
		fmt.Fprintf(&b, "\n// %s exports %s as JSON or CSV.\nfunc %s(format string) (int, string) {\n\tswitch format {\n\tcase \"\", \"json\":\n\t\treturn 200, \"%s/export json\"\n\tcase \"csv\":\n\t\treturn 200, \"%s/export csv\"\n\t}\n\treturn 400, \"unsupported format\"\n}\n",
			handlerName(res, true), res, handlerName(res, true), res, res)
	}
	return b.String()
}

const searchLegacy = `package routes

// The billing exports moved here from the old billing service.

func init() { register("/v1/invoices/export", exportInvoices) }

// exportInvoices exports invoices as JSON or CSV.
func exportInvoices(format string) (int, string) {
	switch format {
	case "", "json":
		return 200, "invoices/export json"
	case "cvs":
		return 200, "invoices/export csv"
	}
	return 500, "export failed: unsupported format " + format
}
`

// searchCheckTest asks every route for JSON, CSV and a format nobody
// serves: only the invoices' CSV export changes.
func searchCheckTest() string {
	var b strings.Builder
	b.WriteString("package routes\n\nimport \"testing\"\n\nfunc TestEvalRoutes(t *testing.T) {\n\tfor _, tc := range []struct {\n\t\tpath, format string\n\t\tcode         int\n\t\tbody         string\n\t}{\n")
	for _, res := range searchResources {
		fmt.Fprintf(&b, "\t\t{\"/v1/%s\", \"json\", 200, \"%s json\"},\n\t\t{\"/v1/%s\", \"csv\", 400, \"unsupported format\"},\n", res, res, res)
		fmt.Fprintf(&b, "\t\t{\"/v1/%s/export\", \"csv\", 200, \"%s/export csv\"},\n\t\t{\"/v1/%s/export\", \"\", 200, \"%s/export json\"},\n", res, res, res, res)
		if res != "invoices" {
			fmt.Fprintf(&b, "\t\t{\"/v1/%s/export\", \"xml\", 400, \"unsupported format\"},\n", res)
		}
	}
	b.WriteString("\t} {\n\t\tif code, body := Serve(tc.path, tc.format); code != tc.code || body != tc.body {\n" +
		"\t\t\tt.Errorf(\"%s?format=%s: %d %q, want %d %q\", tc.path, tc.format, code, body, tc.code, tc.body)\n\t\t}\n\t}\n" +
		"\tif code, _ := Serve(\"/v1/invoices/export\", \"xml\"); code == 200 {\n\t\tt.Error(\"/v1/invoices/export serves any format\")\n\t}\n}\n")
	return b.String()
}

var search = Task{
	Name:        "search",
	Description: "find the one file at fault among 32 by searching, and fix only it",
	Setup: func(_ *Env, dir string) error {
		files := map[string]string{"go.mod": "module api\n\ngo 1.21\n", "routes/routes.go": searchRoutes, "routes/legacy_billing.go": searchLegacy}
		for _, res := range searchResources {
			files["routes/"+res+".go"] = searchFile(res)
		}
		return writeFiles(dir, files)
	},
	Prompt: func(*Env) string {
		return "GET /v1/invoices/export?format=csv answers 500 with \"export failed: unsupported format csv\", although CSV export is supported. Find the code responsible and fix it; change nothing else."
	},
	Check: func(c *CheckInput) error {
		files, err := changedFiles(c.Workspace)
		if err != nil {
			return err
		}
		if len(files) != 1 || files[0] != "routes/legacy_billing.go" {
			return fmt.Errorf("want only routes/legacy_billing.go changed, got %v", files)
		}
		if err := writeFiles(c.Workspace, map[string]string{"routes/zz_eval_check_test.go": searchCheckTest()}); err != nil {
			return err
		}
		return goTest(c.Workspace)
	},
}

package shellcheck

// Database clients run shell commands from their own input: psql's \! and
// \o |cmd, mysql's and mariadb's system and \!, sqlite3's and duckdb's
// .shell, .system and .once |cmd, sqlcmd's !!, and mongosh is a JavaScript
// runtime. Whether a given -c string, -f script or piped stdin holds such
// an escape cannot be told from the command line alone (the script is a
// file, stdin is another program's output), so they run code, not merely
// change a database. GTFOBins lists each of these as a shell escape.
var dbClientHandlers = map[string]handler{
	"psql":              runsCodeCmd(dbClientWhy),
	"mysql":             runsCodeCmd(dbClientWhy),
	"mariadb":           runsCodeCmd(dbClientWhy),
	"sqlite3":           runsCodeCmd(dbClientWhy),
	"sqlite":            runsCodeCmd(dbClientWhy),
	"duckdb":            runsCodeCmd(dbClientWhy),
	"sqlcmd":            runsCodeCmd(dbClientWhy),
	"mongosh":           runsCodeCmd("is a JavaScript shell: it runs arbitrary code"),
	"mongo":             runsCodeCmd("is a JavaScript shell: it runs arbitrary code"),
	"clickhouse-client": runsCodeCmd(dbClientWhy),
}

const dbClientWhy = "is a database client: its input can run shell commands (\\!, .shell, system)"

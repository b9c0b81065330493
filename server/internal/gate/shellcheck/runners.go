package shellcheck

// Project runners whose subcommands run the project's code: language
// toolchains, task runners and environment managers. The listed
// subcommands (or any, for "*") are runs-code; the others are mutating
// (they build, install or change configuration).
var projectRunners = map[string]map[string]bool{
	"java":      set("*"),
	"kotlin":    set("*"),
	"scala":     set("*"),
	"groovy":    set("*"),
	"swift":     set("run", "test"),
	"mix":       set("test", "run", "phx.server", "compile"),
	"lein":      set("test", "run", "repl"),
	"sbt":       set("*"),
	"bazel":     set("test", "run", "build"),
	"bazelisk":  set("test", "run", "build"),
	"buck2":     set("test", "run", "build"),
	"ninja":     set("*"),
	"meson":     set("test", "compile"),
	"uv":        set("run", "tool", "test"),
	"uvx":       set("*"),
	"poetry":    set("run", "install", "shell"),
	"pipenv":    set("run", "install", "shell"),
	"pdm":       set("run", "install"),
	"hatch":     set("run", "test", "shell"),
	"rye":       set("run", "test"),
	"pipx":      set("run", "install"),
	"bundle":    set("exec", "install"),
	"rails":     set("*"),
	"composer":  set("test", "run-script", "run", "install", "update", "exec"),
	"zig":       set("build", "run", "test"),
	"flutter":   set("test", "run", "build"),
	"dart":      set("test", "run"),
	"stack":     set("test", "run", "exec", "build"),
	"cabal":     set("test", "run", "exec", "build"),
	"nix":       set("run", "develop", "shell", "build"),
	"nix-shell": set("*"),
	"direnv":    set("exec", "allow"),
	"turbo":     set("run"),
	"nx":        set("run", "test", "build", "run-many", "affected"),
	"lerna":     set("run", "exec"),
	"wrangler":  set("dev"),
	"tsx":       set("*"),
	"ts-node":   set("*"),
	"nodemon":   set("*"),
	"vite":      set("*"),
	"webpack":   set("*"),
	"next":      set("*"),
	"hardhat":   set("*"),
	"forge":     set("test", "script", "build"),
	// Python web and task frameworks import the project's application for
	// any command; CMake runs CMakeLists.txt (execute_process); pre-commit
	// runs the hooks the repository configures.
	"flask":        set("*"),
	"django-admin": set("*"),
	"uvicorn":      set("*"),
	"gunicorn":     set("*"),
	"celery":       set("*"),
	"alembic":      set("*"),
	"cmake":        set("*"),
	"scons":        set("*"),
	"pre-commit":   set("*"),
}

func projectRunnerCmd(a *analyzer, argv []arg, cx *callCtx) {
	name := argv[0].val
	subs := projectRunners[name]
	_, ops := parseArgs(argv[1:], spec{stopAtOperand: true})
	sub := ""
	if len(ops) > 0 && ops[0].lit {
		sub = ops[0].val
	}
	if len(ops) > 0 && !ops[0].lit {
		a.emit(argv, cx, Dangerous, name+" command computed at run time ("+ops[0].val+")")
		return
	}
	if subs["*"] || subs[sub] {
		a.emit(argv, cx, RunsCode, name+" "+sub+" runs the project's code")
		return
	}
	a.emit(argv, cx, Mutating, "")
}

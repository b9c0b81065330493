package shellcheck

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Secrets are files whose content must never reach the model without a
// human deciding: other processes' environments, command lines and memory
// (/proc/PID/environ holds the sidecar's own API key), physical memory, and
// credential files outside the workspace. Reading one is dangerous, whatever
// the command, and however the path is spelt: globs (/proc/*/environ),
// variables (/proc/$PPID/environ), option values (--file=~/.netrc, @file),
// URLs (file:///proc/self/environ) and code in one-liners are all seen.

// procSecret reports whether abs is inside a process's /proc directory
// (/proc/PID, /proc/self, /proc/thread-self, or a name the analysis cannot
// tell from one: /proc/%s, /proc/{}) or is kernel memory. Only the
// system-wide entries below are not.
func procSecret(abs string) bool {
	rel, ok := under(abs, "/proc")
	if !ok || rel == "." {
		return false
	}
	first, _, _ := strings.Cut(rel, "/")
	return !procGlobal[first]
}

// procGlobal are /proc entries that describe the machine, not a process.
var procGlobal = set("cpuinfo", "meminfo", "version", "loadavg", "uptime", "stat", "mounts", "filesystems", "sys",
	"net", "partitions", "devices", "interrupts", "modules", "swaps", "diskstats", "vmstat", "zoneinfo",
	"buddyinfo", "cmdline", "crypto", "misc", "driver", "bus", "fs", "tty", "locks", "cgroups", "consoles",
	"execdomains", "fb", "iomem", "ioports", "key-users", "mdstat", "mtrr", "pagetypeinfo", "schedstat",
	"slabinfo", "softirqs", "sysvipc", "timer_list", "vmallocinfo", "dma", "pressure", "irq", "acpi", "scsi",
	"asound", "sched_debug", "kpageflags", "kpagecount", "kpagecgroup", "config.gz")

var secretDevices = set("/dev/mem", "/dev/kmem", "/dev/port", "/dev/core")

// credentialNames are credential files and directories, relative to any
// home directory; a path containing one outside the workspace is secret.
var credentialNames = []string{
	".ssh", ".aws", ".netrc", ".pgpass", ".my.cnf", ".git-credentials", ".config/gh", ".config/hub",
	".npmrc", ".yarnrc", ".pypirc", ".docker/config.json", ".kube", ".gnupg", ".password-store",
	".config/gcloud", ".azure", ".cargo/credentials", ".cargo/credentials.toml", ".vault-token",
	".boto", ".s3cfg", ".terraform.d/credentials.tfrc.json", ".config/git/credentials",
	".local/share/keyrings", ".bash_history", ".zsh_history", ".psql_history", ".mysql_history",
	".python_history", ".node_repl_history", ".m2/settings.xml", ".gradle/gradle.properties",
	".config/rclone", ".mozilla", ".config/google-chrome", ".config/chromium",
}

var credentialSystem = []string{"/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/ssh", "/root",
	"/run/secrets", "/var/run/secrets", "/etc/security/opasswd", "/etc/master.passwd"}

// secretWhy says why reading the cleaned path p exposes a secret ("" when
// it does not). p is absolute, or "~/..." when no home is known.
func (a *analyzer) secretWhy(p string) string {
	switch {
	case procSecret(p):
		return p + " exposes a process's environment, command line or memory, where secrets such as API keys live"
	case secretDevices[p]:
		return p + " is the machine's memory"
	}
	for _, c := range credentialSystem {
		if atOrBelow(p, c) {
			return p + " holds credentials"
		}
	}
	if a.isCredential(pathInfo{abs: p}) {
		return p + " holds credentials"
	}
	for _, r := range a.roots {
		if _, ok := under(p, r); ok {
			return ""
		}
	}
	for _, c := range credentialNames {
		if hasSegments(p, c) {
			return p + " holds credentials"
		}
	}
	if credentialShape(path.Base(p)) {
		return p + " is named like a credential file"
	}
	return ""
}

// credentialShape reports whether a file outside the workspace is named
// like one that holds credentials, whatever tool keeps it: the list above
// cannot name every tool (~/.gem/credentials, ~/.config/x/token.json,
// /etc/ssl/private/site.key), but such files share their names' shape.
// (/etc/passwd, world-readable and holding no password, is not one.)
func credentialShape(base string) bool {
	low := strings.ToLower(base)
	stem := strings.TrimPrefix(low, ".")
	if ext := path.Ext(stem); ext != "" && ext != stem {
		switch ext {
		case ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".kdbx", ".ppk", ".ovpn":
			return true
		}
		stem = strings.TrimSuffix(stem, ext)
	}
	if strings.HasPrefix(stem, "id_") && strings.Contains("rsa dsa ecdsa ed25519 ecdsa_sk ed25519_sk", stem[3:]) && len(stem) > 3 {
		return true
	}
	for _, w := range strings.FieldsFunc(stem, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		switch w {
		case "credential", "credentials", "creds", "secret", "secrets", "token", "tokens", "password", "passwords",
			"htpasswd", "apikey", "apikeys", "accesstokens", "keyfile", "keyring", "privatekey":
			return true
		}
	}
	return false
}

// secretExamples are paths a glob or a partly computed path is tried
// against: if it could name one of them, it may name a secret.
func (a *analyzer) secretExamples() []string {
	if a.examples != nil {
		return a.examples
	}
	if v, ok := examplesByHome.Load(a.ws.Home); ok {
		a.examples = v.([]string)
		return a.examples
	}
	out := []string{}
	for _, p := range []string{"1", "self", "thread-self"} {
		for _, f := range []string{"environ", "cmdline", "mem", "maps", "smaps", "auxv", "stack", "fd/0", "root/x", "cwd/x", "task/1/environ", "status"} {
			out = append(out, "/proc/"+p+"/"+f)
		}
	}
	out = append(out, "/proc/kcore", "/dev/mem", "/dev/kmem", "/dev/port", "/etc/shadow", "/etc/gshadow",
		"/etc/sudoers", "/etc/ssh/ssh_host_rsa_key", "/root/.ssh/id_rsa", "/run/secrets/x",
		"/var/run/secrets/kubernetes.io/serviceaccount/token")
	homes := []string{"/home/x", "/root", "/Users/x"}
	if a.ws.Home != "" {
		homes = append(homes, a.ws.Home)
	}
	for _, h := range homes {
		for _, c := range credentialNames {
			out = append(out, h+"/"+c, h+"/"+c+"/x")
		}
		out = append(out, h+"/.ssh/id_rsa", h+"/.ssh/id_ed25519", h+"/.aws/credentials", h+"/.kube/config", h+"/.config/gh/hosts.yml")
	}
	a.examples = out
	examplesByHome.Store(a.ws.Home, out)
	return out
}

// examplesByHome caches secretExamples per home directory: building them
// showed up in the benchmark, and a process sees one or two homes.
var examplesByHome sync.Map

// patternWhy checks a path pattern (a glob, or a path with parts computed
// at run time, given as a regexp) against the secret examples.
func (a *analyzer) patternWhy(orig string, re *regexp.Regexp) string {
	for _, ex := range a.secretExamples() {
		if re.MatchString(ex) {
			return orig + " can name " + ex + ": " + a.secretWhy(ex)
		}
	}
	return ""
}

// pathToken is one path-like piece of a word: literal text, with computed
// parts marked.
type pathToken struct {
	text    string // the piece as written, computed parts as "\x00"
	pattern bool   // has glob characters or computed parts
}

const computedMark = "\x00"

// wordPattern is the text of a word with computed parts ($X, $(...)) as
// computedMark; quotes are removed and $HOME is "~".
func (a *analyzer) wordPattern(w *syntax.Word) string {
	var b strings.Builder
	var walk func(parts []syntax.WordPart)
	walk = func(parts []syntax.WordPart) {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.Lit:
				b.WriteString(p.Value)
			case *syntax.SglQuoted:
				b.WriteString(p.Value)
			case *syntax.DblQuoted:
				walk(p.Parts)
			case *syntax.ParamExp:
				if isPlainHome(p) {
					b.WriteString("~")
				} else {
					b.WriteString(computedMark)
				}
			default:
				b.WriteString(computedMark)
			}
		}
	}
	walk(w.Parts)
	return b.String()
}

// tokenSplit separates path-like pieces inside words and code: quotes,
// spaces, assignment and option separators, URL schemes.
var tokenSplit = regexp.MustCompile(`[\s'"(),;=:@<>|` + "`" + `]+`)

// textSecret finds a secret path named anywhere in a text: a word, an
// option value, or a one-liner's code. It returns why, or "".
func (a *analyzer) textSecret(text string) string {
	if !strings.ContainsAny(text, "/~") {
		return ""
	}
	for _, tok := range tokenSplit.Split(text, -1) {
		if why := a.tokenSecret(tok); why != "" {
			return why
		}
		// -f/path: a short option glued to its value.
		if len(tok) > 2 && tok[0] == '-' && tok[1] != '-' {
			if why := a.tokenSecret(tok[2:]); why != "" {
				return why
			}
		}
	}
	return ""
}

func (a *analyzer) tokenSecret(tok string) string {
	if tok == "" || !(tok[0] == '/' || tok[0] == '~' || strings.HasPrefix(tok, computedMark)) {
		return ""
	}
	if strings.HasPrefix(tok, "~") && !strings.HasPrefix(tok, "~/") && tok != "~" {
		// ~user/...: another user's home; try it as /home/user/...
		tok = "/home/" + tok[1:]
	}
	if strings.HasPrefix(tok, "~") && a.ws.Home != "" {
		tok = a.ws.Home + tok[1:]
	}
	hasComputed := strings.Contains(tok, computedMark)
	if !hasComputed && !strings.ContainsAny(tok, "*?[") {
		return a.secretWhy(path.Clean(tok))
	}
	// A computed part alone says nothing; with some literal text around it
	// ("/proc/$PPID/environ", "$D/.ssh/id_rsa") it can be matched.
	literal := strings.ReplaceAll(tok, computedMark, "")
	if hasComputed && len(strings.Trim(literal, "/.*?")) < 3 {
		return ""
	}
	re, err := regexp.Compile("^" + globRegexp(path.Clean(tok)) + "$")
	if err != nil {
		return ""
	}
	return a.patternWhy(strings.ReplaceAll(tok, computedMark, "$…"), re)
}

// globRegexp turns a shell glob, with computedMark for computed parts, into
// a regexp: computed parts match anything, "*" and "?" stay within one path
// component.
func globRegexp(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		switch c := g[i]; c {
		case 0:
			b.WriteString(".*")
		case '*':
			b.WriteString("[^/]*")
		case '?':
			b.WriteString("[^/]")
		case '[':
			j := strings.IndexByte(g[i+1:], ']')
			if j < 0 {
				b.WriteString(`\[`)
				continue
			}
			cls := g[i+1 : i+1+j]
			if strings.HasPrefix(cls, "!") {
				cls = "^" + cls[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(cls, `\`, `\\`) + "]")
			i += j + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// scanSecrets looks at every word of a parsed script for secret paths;
// here-document bodies are text, not words (a shell or interpreter reading
// one has it analysed or scanned where it runs it).
func (a *analyzer) scanSecrets(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Redirect:
			if n.Word != nil {
				a.secretWord(n.Word)
			}
			return false
		case *syntax.Word:
			a.secretWord(n)
			return true
		}
		return true
	})
}

func (a *analyzer) secretWord(w *syntax.Word) {
	if why := a.textSecret(a.wordPattern(w)); why != "" {
		a.reason(Dangerous, "names a secret path: "+why)
	}
}

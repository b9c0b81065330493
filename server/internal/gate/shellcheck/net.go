package shellcheck

import "strings"

// Network clients: fetching is mutating (it reaches outside the machine);
// sending files or computed data is dangerous (workspace exfiltration).
var netHandlers = map[string]handler{
	"curl":  curlCmd,
	"wget":  wgetCmd,
	"rsync": rsyncCmd,
}

var curlSpec = spec{valued: set(
	"-d", "--data", "--data-binary", "--data-raw", "--data-ascii", "--data-urlencode", "--json",
	"-F", "--form", "--form-string", "-T", "--upload-file", "-o", "--output", "--output-dir",
	"-H", "--header", "-X", "--request", "-u", "--user", "-A", "--user-agent", "-e", "--referer",
	"-b", "--cookie", "-c", "--cookie-jar", "-K", "--config", "-x", "--proxy", "-w", "--write-out",
	"-m", "--max-time", "--connect-timeout", "-r", "--range", "-C", "--continue-at", "-E", "--cert",
	"--key", "--cacert", "-D", "--dump-header", "--url", "-U", "--proxy-user", "--retry", "-Y", "-y",
	"-z", "--time-cond", "--resolve", "--connect-to", "--interface", "--limit-rate", "--trace",
	"--trace-ascii", "--stderr", "-Q", "--quote", "--mail-from", "--mail-rcpt", "-t", "--telnet-option",
	"--upload-flags", "--variable", "--expand-data", "--etag-save", "--libcurl", "--hsts", "--alt-svc")}

func curlCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, _ := parseArgs(argv[1:], curlSpec)
	i := a.emit(argv, cx, Mutating, "accesses the network")
	sub := func() *SubCommand { return &a.out.Commands[i] }
	for _, x := range argv[1:] {
		low := strings.ToLower(x.val)
		for _, raw := range []string{"telnet://", "dict://", "gopher://", "ldap://", "ldaps://", "smb://", "smbs://", "tftp://", "mqtt://"} {
			if strings.HasPrefix(low, raw) {
				sub().raise(Dangerous, "curl "+raw+" opens a raw network connection that can carry a shell or local data")
			}
		}
	}
	for _, f := range flags {
		switch f.name {
		case "-d", "--data", "--data-binary", "--data-ascii", "--data-urlencode", "--json", "--expand-data":
			switch {
			case !f.lit:
				sub().raise(Dangerous, "sends data computed at run time over the network ("+f.value+")")
			case strings.HasPrefix(f.value, "@") || (f.name == "--data-urlencode" && strings.Contains(f.value, "@")):
				sub().raise(Dangerous, "sends the file "+strings.TrimPrefix(f.value, "@")+" over the network")
			}
		case "-F", "--form":
			if !f.lit {
				sub().raise(Dangerous, "sends data computed at run time over the network ("+f.value+")")
			} else if strings.Contains(f.value, "=@") || strings.Contains(f.value, "=<") {
				sub().raise(Dangerous, "uploads a file over the network ("+f.value+")")
			}
		case "-T", "--upload-file":
			sub().raise(Dangerous, "uploads "+f.value+" over the network")
		case "-H", "--header":
			if strings.HasPrefix(f.value, "@") {
				sub().raise(Dangerous, "sends the file "+strings.TrimPrefix(f.value, "@")+" as headers over the network")
			}
		case "-K", "--config":
			sub().raise(Dangerous, "reads curl options from "+f.value+", which cannot be checked")
		case "-o", "--output", "-c", "--cookie-jar", "-D", "--dump-header", "--output-dir", "--trace", "--trace-ascii", "--stderr", "--etag-save", "--libcurl", "--hsts", "--alt-svc":
			if f.value != "-" {
				a.checkWrite(i, arg{val: f.value, lit: f.lit})
			}
		case "-O", "--remote-name", "--remote-name-all", "-J":
			a.checkWrite(i, arg{val: ".", lit: true})
		}
	}
}

var wgetSpec = spec{valued: set(
	"-O", "--output-document", "-o", "--output-file", "-a", "--append-output", "-P", "--directory-prefix",
	"-i", "--input-file", "-t", "--tries", "-T", "--timeout", "-w", "--wait", "-U", "--user-agent",
	"--header", "--post-data", "--post-file", "--body-data", "--body-file", "--method", "--user",
	"--password", "-e", "--execute", "-l", "--level", "-A", "-R", "--accept", "--reject", "-D", "--domains",
	"-Q", "--quota", "--load-cookies", "--save-cookies", "--ca-certificate", "--certificate", "--private-key",
	"-B", "--base", "--config", "--limit-rate")}

func wgetCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, _ := parseArgs(argv[1:], wgetSpec)
	i := a.emit(argv, cx, Mutating, "accesses the network")
	toStdout := false
	for _, f := range flags {
		switch f.name {
		case "--post-file", "--body-file":
			a.out.Commands[i].raise(Dangerous, "sends the file "+f.value+" over the network")
		case "--post-data", "--body-data":
			a.out.Commands[i].raise(Dangerous, "wget "+f.name+" sends data over the network ("+f.value+")")
		case "-e", "--execute", "--config":
			a.out.Commands[i].raise(Dangerous, "wget commands given with "+f.name+" cannot be checked")
		case "-O", "--output-document":
			if f.value == "-" {
				toStdout = true
				continue
			}
			toStdout = true // the document goes to this file, not the cwd
			a.checkWrite(i, arg{val: f.value, lit: f.lit})
		case "-o", "--output-file", "-a", "--append-output", "-P", "--directory-prefix", "--save-cookies":
			a.checkWrite(i, arg{val: f.value, lit: f.lit})
		}
	}
	if !toStdout && len(values(flags, "-P", "--directory-prefix")) == 0 {
		a.checkWrite(i, arg{val: ".", lit: true})
	}
}

func rsyncCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec_net_0)
	i := a.emit(argv, cx, Mutating)
	for _, op := range ops {
		if !op.lit || isRemote(op.val) {
			a.out.Commands[i].raise(Dangerous, "copies files to or from another machine ("+op.val+")")
		}
	}
	if has(flags, "-e", "--rsh", "--rsync-path", "-M", "--remote-option") {
		a.out.Commands[i].raise(Dangerous, "runs a remote shell command")
	}
	if len(ops) > 1 {
		a.checkWrite(i, ops[len(ops)-1])
	}
	for _, f := range values(flags, "--log-file", "--backup-dir") {
		a.checkWrite(i, arg{val: f.value, lit: f.lit})
	}
}

// isRemote reports whether an rsync or scp operand names another host
// ("host:path", "user@host:path", "rsync://host/path").
func isRemote(s string) bool {
	if strings.Contains(s, "://") {
		return true
	}
	colon := strings.IndexByte(s, ':')
	slash := strings.IndexByte(s, '/')
	return colon > 0 && (slash < 0 || colon < slash)
}

// Option specs are built once: building their sets per call showed up in
// the benchmark.
var (
	spec_net_0 = spec{valued: set("-e", "--rsh", "--rsync-path", "--exclude", "--include", "--exclude-from", "--include-from", "--files-from", "-f", "--filter", "--log-file", "--backup-dir", "--suffix", "-T", "--temp-dir", "--partial-dir", "--compare-dest", "--copy-dest", "--link-dest", "-B", "--block-size", "--bwlimit", "--timeout", "--port", "--password-file", "--chmod", "--chown", "-M", "--remote-option")}
)

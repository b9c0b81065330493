package shellcheck

import (
	"path"
	"strings"
)

// Some tools print the credentials they keep (gh auth token, aws configure
// get, git credential fill): reading a secret through them is as dangerous
// as reading the file it lives in.

// credentialTool says why argv prints a stored credential ("" when it does
// not).
func credentialTool(argv []arg) string {
	words := make([]string, 0, len(argv))
	for _, x := range argv {
		if x.lit {
			words = append(words, x.val)
		} else {
			words = append(words, "")
		}
	}
	name := path.Base(words[0])
	rest := strings.Join(words[1:], " ")
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(" "+rest+" ", " "+s+" ") {
				return true
			}
		}
		return false
	}
	switch {
	case name == "gh" && (has("auth token") || (has("auth status") && has("--show-token", "-t"))):
	case name == "git" && has("credential fill", "credential get", "credential-store get", "credential-cache get"):
	case name == "aws" && has("configure get", "configure export-credentials", "sts get-session-token", "ecr get-login-password", "codeartifact get-authorization-token"):
	case name == "gcloud" && has("auth print-access-token", "auth print-identity-token", "auth application-default print-access-token"):
	case name == "az" && has("account get-access-token"):
	case name == "kubectl" && has("config view") && has("--raw", "--flatten"):
	case name == "kubectl" && has("create token"):
	case (name == "gpg" || name == "gpg2") && has("--export-secret-keys", "--export-secret-subkeys"):
	case name == "security" && strings.HasPrefix(rest, "find-") && strings.Contains(rest, "password") && (has("-w", "-g") || strings.Contains(rest, "-w")):
	case (name == "pass" || name == "gopass") && (len(words) == 2 || has("show")):
	case name == "op" && has("read", "item get"):
	case name == "vault" && has("read", "kv get", "token lookup", "print token"):
	case (name == "npm" || name == "pnpm" || name == "yarn") && has("token list", "token create", "config get _authToken", "config get //registry.npmjs.org/:_authToken"):
	case name == "heroku" && has("auth:token"):
	case strings.HasPrefix(name, "docker-credential-") && has("get"):
	case name == "secret-tool" && has("lookup"):
	case name == "keyring" && has("get"):
	case name == "ssh-add" && has("-L"):
	default:
		return ""
	}
	return name + " prints stored credentials"
}

// uploadTool says why argv sends local files to the network: publishing
// packages or images, gists, release assets, cloud copies, e-mail ("" when
// it does not). These are uploads of workspace data, as curl -T is.
func uploadTool(argv []arg) string {
	if len(argv) < 2 {
		return ""
	}
	name := path.Base(argv[0].val)
	ops := make([]string, 0, len(argv))
	dry := false
	for _, x := range argv[1:] {
		if x.lit && (x.val == "--dry-run" || x.val == "-n" && name == "git") {
			dry = true
		}
		if x.lit && !strings.HasPrefix(x.val, "-") {
			ops = append(ops, x.val)
		}
	}
	first, second := "", ""
	if len(ops) > 0 {
		first = ops[0]
	}
	if len(ops) > 1 {
		second = ops[1]
	}
	if dry {
		return ""
	}
	switch {
	case (name == "npm" || name == "pnpm" || name == "yarn" || name == "bun" || name == "cargo" || name == "poetry" || name == "gem") && (first == "publish" || first == "push"):
		return name + " " + first + " uploads the package to a registry"
	case name == "twine" && first == "upload", name == "flit" && first == "publish", name == "uv" && first == "publish":
		return name + " uploads the package to a registry"
	case (name == "docker" || name == "podman") && (first == "push" || (first == "image" && second == "push")):
		return name + " push uploads an image to a registry"
	case name == "gh" && ((first == "gist" && second == "create") || (first == "release" && (second == "upload" || second == "create"))):
		return "gh " + first + " " + second + " uploads local files"
	case name == "aws" && first == "s3" && (second == "cp" || second == "sync" || second == "mv"):
		return "aws s3 " + second + " copies files to or from the cloud"
	case (name == "gsutil" || name == "rclone" || name == "azcopy") && (first == "cp" || first == "copy" || first == "sync" || first == "rsync" || first == "mv" || first == "move"):
		return name + " " + first + " copies files to or from the cloud"
	case name == "git" && first == "send-email":
		return "git send-email sends patches by e-mail"
	case name == "git" && first == "push" && isRemote(second):
		return "git push sends the repository to an address given on the command line (" + second + ")"
	case (name == "sendmail" || name == "mail" || name == "mailx" || name == "mutt" || name == "swaks"):
		return name + " sends e-mail"
	case httpClients[name]:
		for _, op := range ops {
			if f := httpFileItem(op); f != "" {
				return name + " sends the file " + f + " over the network"
			}
		}
	}
	return ""
}

// httpClients take request items as operands (HTTPie, xh, curlie): @file
// is the body, field@file and field=@file embed a file, header:@file too.
var httpClients = set("http", "https", "xh", "xhs", "curlie", "httpie")

func httpFileItem(op string) string {
	if strings.HasPrefix(op, "@") {
		return op[1:]
	}
	if strings.Contains(op, "://") {
		return ""
	}
	for _, sep := range []string{":=@", "=@", ":@", "@"} {
		if k, f, ok := strings.Cut(op, sep); ok && k != "" && f != "" && !strings.ContainsAny(k, "/@") {
			return f
		}
	}
	return ""
}

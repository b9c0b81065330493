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

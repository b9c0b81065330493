package osbox

import (
	"fmt"
	"sort"
	"strings"
)

// SeatbeltProfile renders p as a macOS sandbox-exec (Seatbelt) profile:
// the same promises as bubblewrap from the same Policy. It is generated
// and unit-tested here; macOS stays on Mechanism None (every command asks)
// until the profile has been tested on a Mac. Seatbelt can deny a subpath
// inside an allowed one (the last matching rule wins), so secrets and
// protected paths are denials after the grants.
func SeatbeltProfile(p Policy, tmp string) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(deny default)\n")
	b.WriteString("(allow process-exec process-fork signal (target same-sandbox))\n")
	b.WriteString("(allow sysctl-read mach-lookup (global-name \"com.apple.system.opendirectoryd.libinfo\"))\n")
	b.WriteString("(allow file-read*)\n")
	writable := []string{tmp, "/dev/null", "/dev/tty"}
	writable = append(writable, p.Caches...)
	if p.Access == WorkspaceWrite {
		writable = append(writable, p.Roots...)
	}
	for _, w := range writable {
		fmt.Fprintf(&b, "(allow file-write* (subpath %s))\n", quote(w))
	}
	var denyWrite []string
	if p.Access == WorkspaceWrite {
		for _, r := range p.Roots {
			for _, name := range protectedNames {
				if p.GitWrite && name == ".git" {
					continue
				}
				denyWrite = append(denyWrite, r+"/"+name)
			}
		}
	}
	sort.Strings(denyWrite)
	for _, d := range denyWrite {
		fmt.Fprintf(&b, "(deny file-write* (subpath %s))\n", quote(d))
	}
	var masked []string
	for _, rel := range homeSecrets {
		if p.Home != "" {
			masked = append(masked, p.Home+"/"+rel)
		}
	}
	masked = append(masked, p.Mask...)
	sort.Strings(masked)
	for _, m := range masked {
		fmt.Fprintf(&b, "(deny file-read* file-write* (subpath %s))\n", quote(m))
	}
	for _, r := range p.Roots {
		fmt.Fprintf(&b, "(deny file-read* (regex %s))\n", quote("^"+regexpQuote(r)+"/(.*/)?\\.env(\\..*)?$"))
	}
	b.WriteString("(deny network*)\n")
	if p.Network != nil {
		// Only the proxy's socket, after the denial (the last matching
		// rule wins); clients find it through the proxy variables.
		fmt.Fprintf(&b, "(allow network-outbound (remote unix-socket (path-literal %s)))\n", quote(p.Network.Proxy))
	}
	b.WriteString("(deny process-info* (target others))\n")
	return b.String()
}

func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

func regexpQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

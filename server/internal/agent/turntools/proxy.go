package turntools

import (
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/gate/netproxy"
	"github.com/govibe/govibe/server/internal/gate/osbox"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// attachProxy gives a bubblewrap sandbox its only way out: a proxy on a
// Unix socket started for each command. A command granted network may
// reach the user's allowed domains, the package registries (unless the
// user said no) and the domains a person allowed on a card this session;
// one without network gets a proxy that refuses everything, so the denial
// can name the domain it wanted.
func attachProxy(sb *tools.SandboxEnv, cs config.Settings, sessionID string, log func(refused []string)) {
	if sb.Status.Mechanism != osbox.Bubblewrap {
		return
	}
	allowed := func() []string {
		var d []string
		for _, p := range cs.Sandbox.Network.AllowedDomains {
			if netproxy.ValidatePattern(p) == nil {
				d = append(d, p)
			}
		}
		if cs.Sandbox.Network.AllowRegistries {
			d = append(d, netproxy.DefaultRegistries()...)
		}
		return append(d, approval.ApprovedDomains(sessionID)...)
	}
	sb.Domains = allowed
	sb.Proxy = func(allow bool) (string, func() []string, error) {
		decide := func(string) bool { return false }
		if allow {
			decide = netproxy.Domains(allowed()...)
		}
		sock, stop, err := netproxy.Ephemeral(decide)
		if err != nil {
			return "", nil, err
		}
		return sock, func() []string {
			refused := stop()
			if len(refused) > 0 && log != nil {
				log(refused)
			}
			return refused
		}, nil
	}
}

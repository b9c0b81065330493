package protocol_test

import "github.com/govibe/govibe/protocol"

func protocolMethods() []string {
	var out []string
	for _, m := range protocol.Methods {
		out = append(out, m.Name)
	}
	return out
}

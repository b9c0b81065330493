package main

import (
	"fmt"
	"os"

	"github.com/govibe/govibe/server/internal/gate/osbox"
)

// sandboxCmd reports the command sandbox of this machine: `govibe sandbox
// status` prints the mechanism and, when it is not the full sandbox, why
// and how to enable it. Exit status 0 with bubblewrap, 1 otherwise.
func sandboxCmd(args []string) int {
	if len(args) != 1 || args[0] != "status" {
		fmt.Fprintln(os.Stderr, "usage: govibe sandbox status")
		return 2
	}
	st := osbox.Detect()
	fmt.Println("mechanism:", st.Mechanism)
	switch {
	case !st.Available():
		fmt.Println(st.Reason)
		return 1
	case st.Limits() != "":
		fmt.Println(st.Limits())
		return 1
	}
	fmt.Println("every command runs in the sandbox: the system read-only, the workspace writable only when approved, secrets masked, network only through GoVibe's allowlisting proxy")
	return 0
}

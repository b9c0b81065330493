package osbox

import (
	"encoding/binary"
	"os"
	"syscall"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// errnoAction returns errno to the caller instead of running the call.
func errnoAction(e syscall.Errno) seccomp.Action {
	return seccomp.ActionErrno | seccomp.Action(uint32(e))
}

// deniedSyscalls are refused in every sandbox: inspecting or writing other
// processes (ptrace, process_vm_*), kernel attack surface a build never
// needs (bpf, perf, keyrings, io_uring, module and mount calls), and new
// namespaces (bubblewrap's --disable-userns covers user namespaces; this
// covers the Landlock fallback too).
var deniedSyscalls = []string{
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
	"perf_event_open", "bpf", "userfaultfd", "keyctl", "add_key", "request_key",
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	"mount", "umount2", "pivot_root", "move_mount", "open_tree", "fsopen", "fsmount", "fsconfig",
	"unshare", "setns", "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
	"open_by_handle_at", "name_to_handle_at", "iopl", "ioperm", "swapon", "swapoff", "reboot",
	"acct", "quotactl", "syslog", "lookup_dcookie",
}

// Address families for socket(2) (linux/socket.h).
const (
	afUnix  = 1
	afInet  = 2
	afInet6 = 10
)

// filter is the seccomp policy for a command. socket(AF_UNIX) is refused
// because a read-only mount does not stop connect() on a socket file:
// docker.sock, an ssh-agent or the editor's IPC would otherwise be reached
// (socketpair, which pipes between a program's own processes, still works).
// clone3 answers ENOSYS, so libc falls back to clone, whose flags the
// filter can read; new namespaces are refused there. Without a network
// namespace (the Landlock fallback) Internet sockets are refused as well.
func filter(denyInet bool) seccomp.Filter {
	groups := []seccomp.SyscallGroup{
		{Action: errnoAction(syscall.EPERM), Names: deniedSyscalls},
		{Action: errnoAction(syscall.ENOSYS), Names: []string{"clone3"}},
		{Action: errnoAction(syscall.EPERM), NamesWithCondtions: []seccomp.NameWithConditions{
			{Name: "clone", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.BitsSet, Value: syscall.CLONE_NEWUSER}}},
			{Name: "clone", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.BitsSet, Value: syscall.CLONE_NEWNS}}},
			{Name: "clone", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.BitsSet, Value: syscall.CLONE_NEWNET}}},
			{Name: "socket", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.Equal, Value: afUnix}}},
		}},
	}
	if denyInet {
		groups = append(groups, seccomp.SyscallGroup{Action: errnoAction(syscall.EACCES), NamesWithCondtions: []seccomp.NameWithConditions{
			{Name: "socket", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.Equal, Value: afInet}}},
			{Name: "socket", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.Equal, Value: afInet6}}},
		}})
	}
	return seccomp.Filter{
		NoNewPrivs: true,
		Flag:       seccomp.FilterFlagTSync,
		Policy:     seccomp.Policy{DefaultAction: seccomp.ActionAllow, Syscalls: groups},
	}
}

func loadFilter(denyInet bool) error { return seccomp.LoadFilter(filter(denyInet)) }

// filterFile returns the filter compiled to the kernel's sock_filter
// array in a memfd, for bubblewrap's --seccomp: bwrap installs it (with
// no_new_privs) right before it execs the command, so the common path
// needs no helper process of ours.
func filterFile(denyInet bool) (*os.File, error) {
	f := filter(denyInet)
	insns, err := f.Policy.Assemble()
	if err != nil {
		return nil, err
	}
	raw, err := bpf.Assemble(insns)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, 0, 8*len(raw))
	for _, r := range raw {
		buf = binary.LittleEndian.AppendUint16(buf, r.Op)
		buf = append(buf, r.Jt, r.Jf)
		buf = binary.LittleEndian.AppendUint32(buf, r.K)
	}
	fd, err := unix.MemfdCreate("govibe-seccomp", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, err
	}
	file := os.NewFile(uintptr(fd), "govibe-seccomp")
	if _, err := file.Write(buf); err != nil {
		file.Close()
		return nil, err
	}
	if _, err := file.Seek(0, 0); err != nil {
		file.Close()
		return nil, err
	}
	return file, nil
}

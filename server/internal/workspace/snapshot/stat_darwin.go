//go:build darwin

package snapshot

import "syscall"

type syscallStat = syscall.Stat_t

func syscallCtime(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }

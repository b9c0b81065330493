// Package cputime reads the benchmark process's own CPU time. The
// benchmarks judge work done in their own goroutines on CPU time rather
// than wall time: unlike wall time it barely depends on how many other
// processes share the machine.
package cputime

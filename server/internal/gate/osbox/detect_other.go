//go:build !linux

package osbox

func landlockWorks() string { return "Landlock is a Linux feature" }

//go:build unix && !linux

package localcluster

import "syscall"

// groupAttr makes a child the leader of a new process group.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

package localcluster

import "syscall"

// groupAttr makes a child the leader of a new process group, killed by the kernel when
// labtui's thread that started it dies.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

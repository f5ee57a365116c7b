//go:build unix

package testkit

import (
	"syscall"
	"time"
)

// CPUTime returns the CPU time, user and system over every thread, this process has used
// so far. On a machine shared with other work a benchmark's wall clock swings with the
// load; the CPU time it takes much less.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

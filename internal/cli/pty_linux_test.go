package cli

import (
	"fmt"
	"os"
	"syscall"
	"testing"
	"unsafe"
)

// openPty opens a pseudo-terminal of cols by rows: the master the test reads and
// types into, the slave a child uses as its terminal.
func openPty(t *testing.T, cols, rows int) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	// The ioctls go through SyscallConn, never m.Fd(): Fd puts the master in blocking
	// mode, and then Close waits for the reader's blocked Read to return, so the hangup
	// (which the close delivers) would wait until the TUI next draws something.
	rc, err := m.SyscallConn()
	if err != nil {
		m.Close()
		t.Skipf("pseudo-terminal without a raw connection: %v", err)
	}
	ioctl := func(req uintptr, arg unsafe.Pointer) {
		var e syscall.Errno
		rc.Control(func(fd uintptr) {
			_, _, e = syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(arg))
		})
		if e != 0 {
			m.Close()
			t.Skipf("pseudo-terminal ioctl %#x: %v", req, e)
		}
	}
	var unlock int32
	ioctl(syscall.TIOCSPTLCK, unsafe.Pointer(&unlock))
	var n uint32
	ioctl(syscall.TIOCGPTN, unsafe.Pointer(&n))
	ws := [4]uint16{uint16(rows), uint16(cols), 0, 0}
	ioctl(syscall.TIOCSWINSZ, unsafe.Pointer(&ws))
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("open the pseudo-terminal's slave: %v", err)
	}
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

// startTUI starts the bare labtui command on a pseudo-terminal of its own, as a
// terminal window would: it is the session leader, the terminal its controlling one,
// so closing the master hangs it up (SIGHUP). What it draws is collected as its stdout.
func startTUI(t *testing.T, home string, args ...string) (*proc, *os.File) {
	t.Helper()
	master, slave := openPty(t, 160, 48)
	p := &proc{cmd: labtuiCmd(t, home, args...), done: make(chan struct{})}
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = slave, slave, slave
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	p.start(t)
	slave.Close()
	go func() {
		buf := make([]byte, 32<<10)
		w := lockedBuf{p, &p.stdout}
		for {
			n, err := master.Read(buf)
			w.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	return p, master
}

package regularfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestAFifoIsRefusedWithoutWaitingForAWriter(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "lab-04.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Read(fifo, 1<<20); done <- err }()
	select {
	case err := <-done:
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.Kind != "a named pipe" {
			t.Errorf("Read(fifo) = %v, want a named pipe refused", err)
		}
	case <-time.After(60 * time.Second): // the refusal comes at once; the open never ends
		t.Fatal("Read of a FIFO with no writer still waits after 60 s")
	}
}

func TestDevZeroIsRefusedNotReadUntilMemoryRunsOut(t *testing.T) {
	_, err := Read("/dev/zero", 1<<20)
	var nr *NotRegularError
	if !errors.As(err, &nr) || nr.Kind != "a device" {
		t.Errorf("Read(/dev/zero) = %v, want a device refused", err)
	}
}

func TestAFileLargerThanTheLimitIsRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big")
	os.WriteFile(p, make([]byte, 101), 0o600)
	_, err := Read(p, 100)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 101 {
		t.Errorf("Read of 101 bytes with limit 100 = %v", err)
	}
	if data, err := Read(p, 101); err != nil || len(data) != 101 {
		t.Errorf("Read at the limit = %d bytes, %v", len(data), err)
	}
}

func TestAMissingFileIsNotExist(t *testing.T) {
	if _, err := Read(filepath.Join(t.TempDir(), "none"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Read(missing) = %v", err)
	}
}

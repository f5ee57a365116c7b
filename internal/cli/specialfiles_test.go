package cli

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAConfigThatIsAFifoOrADeviceIsRefusedAtOnce: --config naming a FIFO blocked the
// start until something wrote to it, and /dev/zero was read until memory ran out.
func TestAConfigThatIsAFifoOrADeviceIsRefusedAtOnce(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "config.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	for path, kind := range map[string]string{fifo: "a named pipe", "/dev/zero": "a device"} {
		done := make(chan struct{})
		var code int
		var stderr string
		go func() {
			defer close(done)
			_, code, stderr, _ = settleCLI(t, nil, "", "--config", path, "export")
		}()
		select {
		case <-done:
		case <-time.After(hangBound): // the refusal comes at once; a read never ends
			t.Fatalf("--config %s still reading after %v", path, hangBound)
		}
		want := "config file " + path + " is " + kind + ", not a file: give --config or LABTUI_CONFIG a YAML file"
		if code == 0 || !strings.Contains(stderr, want) {
			t.Errorf("--config %s: exit %d, stderr %q; want %q", path, code, stderr, want)
		}
	}
}

// TestExportOfAStateFileThatIsAFifoIsRefusedAtOnce: export and headless hung on a FIFO
// as the state file, ignoring SIGINT and SIGTERM.
func TestExportOfAStateFileThatIsAFifoIsRefusedAtOnce(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "lab-04.json"), 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan struct{})
	var code int
	var stderr string
	go func() {
		defer close(done)
		code, _, stderr = runCLI(t, "export", "--state-dir", dir, "--export-dir", t.TempDir())
	}()
	select {
	case <-done:
	case <-time.After(hangBound): // the refusal comes at once; a read never ends
		t.Fatalf("export still reading a FIFO state file after %v", hangBound)
	}
	if code == 0 || !strings.Contains(stderr, "is a named pipe, not a file") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

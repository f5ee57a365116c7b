package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labtui/labtui/tui"
)

// TestHeadlessSaysWhenEachHiccupEnds runs the lab headless with two hiccups on gw-1, the
// second inside the first: the log says the second joined the first, and when the one
// hold ended.
func TestHeadlessSaysWhenEachHiccupEnds(t *testing.T) {
	code, _, errOut := runCLI(t, "run", "--headless", "--duration", "4s", "--rate", "5", "--broker-addr", "127.0.0.1:0",
		"--hiccup", "gw-1@1s+2s", "--hiccup", "gw-1@1500ms+500ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"# hiccup on gw-1 for 2s, until ",
		"# hiccup on gw-1 for 500ms joins the one on since ",
		"# hiccup ended on gw-1 at ",
		" (held 2s): its producer reconnects and sends what it held\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Count(errOut, "hiccup ended on") != 1 {
		t.Errorf("one hold, one end; stderr:\n%s", errOut)
	}
}

// TestAnUnwritableCacheLeavesTheRecordingInTheTemporaryFolder: with the cache folder
// impossible to write, the recorded hour is copied to the temporary folder and the
// warning names the cache folder, why, and XDG_CACHE_HOME; with that impossible too, no
// recording and a warning that says r and t have nothing to replay. Neither is an error.
func TestAnUnwritableCacheLeavesTheRecordingInTheTemporaryFolder(t *testing.T) {
	t.Chdir(t.TempDir()) // not the repository: its copy of the hour is not there
	file := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(file, nil, 0o644)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(file, "cache"))
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	a := &app{}
	path, warning := a.recording(tui.DefaultRecording)
	want := "cannot save the recorded hour in " + filepath.Join(file, "cache", "labtui") + " (not a directory): set XDG_CACHE_HOME to a folder you can write; meanwhile r and t replay a copy in "
	if !strings.HasPrefix(path, tmp) || !strings.HasPrefix(warning, want) {
		t.Fatalf("path %q, warning %q", path, warning)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the copy is not there: %v", err)
	}
	t.Setenv("TMPDIR", filepath.Join(file, "tmp"))
	path, warning = a.recording(tui.DefaultRecording)
	if path != "" || !strings.Contains(warning, "until then r and t have nothing to replay") {
		t.Fatalf("path %q, warning %q", path, warning)
	}
}

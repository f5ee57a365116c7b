package tui

import (
	"os/exec"
	"strings"
	"testing"
)

// TestTheTUIImportsNoEngineReplayOrRecording keeps the layering: the TUI renders what the
// session and the backend report, and needs none of the packages that run the job or read
// recordings (the session gets its re-enactments from cli).
func TestTheTUIImportsNoEngineReplayOrRecording(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on the PATH")
	}
	out, err := exec.Command(goTool, "list", "-deps", "github.com/labtui/labtui/tui/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"internal/engine", "internal/reenact", "internal/recording", "internal/enginejob", "internal/livejob"} {
			if dep == "github.com/labtui/labtui/"+banned {
				t.Errorf("the TUI depends on %s", dep)
			}
		}
	}
}

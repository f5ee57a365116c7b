package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/export"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/state"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

// TestExportQuitContinueExportWritesTheSameSheet: both replays, an answer and an export;
// then quit, start again on the saved state with a new live run under way, y to
// continue, and export again. The sheet is the same, byte for byte: the evidence, the
// picture the first export drew and the run each names (issue 22: the picture became the
// new run's, labelled 4.1, and 4.4's diff and moved requests changed).
func TestExportQuitContinueExportWritesTheSameSheet(t *testing.T) {
	dir, store := t.TempDir(), state.NewStore(t.TempDir())
	fb := replayingBackend(t)
	tm := start(t, fb, Config{Recording: seedBurst, ExportDir: dir, Store: store}, 120, 40)
	waitFor(t, tm, "running", "10:01:09.000")
	press(tm, "r")
	waitFor(t, tm, "replay done: 12 records with completed_ts")
	press(tm, "t")
	waitFor(t, tm, "replay done: 12 records with started_ts")
	press(tm, "d")
	press(tm, "left")
	waitFor(t, tm, "changed minute")
	press(tm, "esc")
	press(tm, "tab")
	for range 3 {
		press(tm, "down")
	}
	press(tm, "enter")
	tm.Type("They match but for the late records.")
	press(tm, "esc")
	press(tm, "e")
	waitFor(t, tm, "exported")
	first, err := os.ReadFile(filepath.Join(dir, export.MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	press(tm, "q")
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))

	saved, found, err := store.Load()
	if err != nil || !found {
		t.Fatalf("load: %v %v", found, err)
	}
	if saved.Evidence.Picture == nil {
		t.Fatal("the saved state does not name the picture the export wrote")
	}
	// The next session's live run is under way, with a traced record of its own and no
	// minute closed yet.
	trace := meter.Result{Kind: meter.TraceResult, Record: meter.RecordTrace{RequestID: "r-900", TenantID: "acme", Timestamp: at("30:02"),
		Arrival: at("30:02"), EventWindowEnd: at("31:00"), USD: 0.1}}
	fb2 := fakebackend.New(backend.Update{Restarted: &backend.Restart{Run: 4, Cause: backend.CauseStart, Reason: "started", At: at("30:00")}},
		backend.Update{Results: []meter.Result{trace}, Status: status(at("30:10"), at("30:09"))})
	tm2 := start(t, fb2, Config{Recording: seedBurst, ExportDir: dir, Store: store, Saved: &saved}, 120, 40)
	waitFor(t, tm2, "Continue with the answers")
	press(tm2, "y")
	waitFor(t, tm2, "restored 1 answer")
	press(tm2, "e")
	waitFor(t, tm2, "exported")
	finalView(t, tm2)
	second, err := os.ReadFile(filepath.Join(dir, export.MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, second) {
		t.Errorf("the sheets differ.\nfirst:\n%s\nsecond:\n%s", first, second)
	}
	if !bytes.Contains(second, []byte("(lab-04-skew.svg)")) {
		t.Errorf("the second sheet does not show the picture:\n%s", second)
	}
}

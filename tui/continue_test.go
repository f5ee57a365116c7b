package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/export"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/state"
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
	tm.FinalModel(t, teatest.WithFinalTimeout(60*time.Second))

	saved, found, err := store.Load()
	if err != nil || !found {
		t.Fatalf("load: %v %v", found, err)
	}
	if saved.Evidence.Picture == nil {
		t.Fatal("the saved state does not name the picture the export wrote")
	}
	// The next session's live run is under way, with a traced record of its own and no
	// minute closed yet.
	trace := jobspec.Result{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{RequestID: "r-900", TenantID: "acme", Timestamp: at("30:02"),
		Arrival: at("30:02"), EventWindowEnd: at("31:00"), USD: 0.1}}
	fb2 := fakebackend.New(backend.Update{Restarted: &backend.Restart{Run: 4, Cause: backend.CauseStart, Reason: "started", At: at("30:00")}},
		backend.Update{Results: []jobspec.Result{trace}, Status: status(at("30:10"), at("30:09"))})
	cfg2 := Config{Recording: seedBurst, ExportDir: dir, Store: store, Saved: &saved}
	log2 := logTo(&cfg2)
	tm2 := start(t, fb2, cfg2, 120, 40)
	waitFor(t, tm2, "Continue with the answers")
	waitLogged(t, log2, "lab is running", "the job restarted") // or either can hide "restored"
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

// TestTheRunsLineNamesTheRunBehindTheStepWhenItIsNoLongerKept: continued from a saved
// 4.2 pinned to run 1 of the earlier session, the lab panel's runs line names run 1
// first, as the one behind the step, beside this session's runs (issue 22, item 8: the
// runs line omitted the run that backs the step).
func TestTheRunsLineNamesTheRunBehindTheStepWhenItIsNoLongerKept(t *testing.T) {
	store := state.NewStore(t.TempDir())
	old := state.New()
	old.Revision, old.LastRun = 3, 1
	old.Answers["4.2a"] = "No: dropped as late."
	old.Steps["4.2"] = state.Step{Done: true, At: at("01:30")}
	old.Evidence.Findings = map[string]*state.Finding{"4.2": {Run: state.RunRef{ID: 1, Kind: "start", Timestamp: "completed_ts", StartedAt: at("-00:05")},
		Met: true, Pinned: true, Hiccup: &state.HiccupFacts{Instance: "gw-1", From: at("00:40"), To: at("01:15"), Late: 2, USD: 0.2,
			FirstArrival: at("01:17"), LastArrival: at("01:19"), Example: state.Late{RequestID: "r-103", Timestamp: at("00:44"), Watermark: at("01:08.999")}}}}
	if _, err := store.Save(old); err != nil {
		t.Fatal(err)
	}
	saved, _, _ := store.Load()
	fb := fakebackend.New(backend.Update{Restarted: &backend.Restart{Run: 2, Cause: backend.CauseStart, Reason: "started", At: at("30:00")}},
		backend.Update{Status: status(at("30:10"), at("30:09"))})
	cfg := Config{Store: store, Saved: &saved}
	log := logTo(&cfg)
	tm := start(t, fb, cfg, 120, 40)
	waitFor(t, tm, "Continue with the answers")
	waitLogged(t, log, "lab is running", "the job restarted") // or either can hide "restored"
	press(tm, "y")
	waitFor(t, tm, "restored 1 answer")
	press(tm, "tab")
	press(tm, "down")
	waitFor(t, tm, "runs  ▸run 1 start (not kept: p picks a kept run), your pick · run 2 start ✗")
	finalView(t, tm)
}

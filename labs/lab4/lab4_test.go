package lab4

import (
	"testing"

	"github.com/labtui/labtui/internal/state"
)

// A run is named by how it began in words: "run 2 (kill, …)" did not say whether run 2
// was the one killed or the one after the kill. The saved kind stays the one word, and a
// kind that is already words (start, replay, a backend's reason) is shown as it is.
func TestRunNamesSayHowTheRunBeganInWords(t *testing.T) {
	for kind, want := range map[string]string{
		"kill":                           "run 2 (restarted after a kill, completed_ts)",
		"failure":                        "run 2 (restarted after a failure, completed_ts)",
		"strategy":                       "run 2 (restarted with other watermarks, completed_ts)",
		"timestamp":                      "run 2 (restarted with the other timestamp field, completed_ts)",
		"live":                           "run 2 (back on the live topic, completed_ts)",
		"start":                          "run 2 (start, completed_ts)",
		"job restarted with empty state": "run 2 (job restarted with empty state, completed_ts)",
	} {
		if got := RunName(state.RunRef{ID: 2, Kind: kind, Timestamp: "completed_ts"}); got != want {
			t.Errorf("kind %q: %q, want %q", kind, got, want)
		}
	}
	replay := state.RunRef{ID: 3, Kind: "replay", Timestamp: "started_ts", Recording: "recorded-hour.jsonl.gz"}
	if got, want := RunName(replay), "run 3 (replay of recorded-hour.jsonl.gz, started_ts)"; got != want {
		t.Errorf("a replay: %q, want %q", got, want)
	}
}

package export

import (
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/state"
)

var update = flag.Bool("update", false, "rewrite the export's golden files")

// twoSessions is a state saved over sessions: 4.1 was found in run 1 of the session of
// 29 Nov 10:00 and 4.2 in run 1 of 30 Nov 09:59, both by a version that numbered each
// session's runs from 1 (the sheet tells them apart by their start); the session after
// numbered on, replayed three times (after the parse, per partition at the source, and
// one that stopped) and pinned run 6 to 4.3. Run 2's replay was saved by the first.
func twoSessions() state.State {
	st := sample()
	st.LastRun = 6
	day := int64(86400)
	ref := func(id int, kind, wm string, at int64) state.RunRef {
		r := state.RunRef{ID: id, Kind: kind, Timestamp: "completed_ts", Watermarks: wm, StartedAt: ms(at)}
		if kind == "replay" {
			r.Recording = "recorded-hour.jsonl.gz"
		}
		return r
	}
	mono, source := "for_monotonous_timestamps()", "for_monotonous_timestamps() per partition at the source"
	st.Evidence.Findings = map[string]*state.Finding{
		"4.1": {Run: ref(1, "start", mono, -5), Met: true, Saved: "In run 1 (start, completed_ts), the 5 minutes agree."},
		"4.2": {Run: ref(1, "start", mono, day-60), Met: true, Saved: "In run 1, gw-1 was held 10:00:40–10:01:15."},
		"4.3": {Run: ref(6, "replay", source, day+600), Met: true, Pinned: true, Saved: "Run 6 dropped no record as late."},
	}
	st.Evidence.Replayed = []state.ReplayRun{
		{Run: ref(2, "replay", mono, 900), Records: 143400, LateCount: 832, LateUSD: 24.1234, Lead: &state.Lead{Ahead: 2, ByMS: 240000}},
		{Run: ref(5, "replay", mono, day+300), Records: 143400, LateCount: 499, LateUSD: 14.5, Lead: &state.Lead{Ahead: 1, Behind: 2, ByMS: 61300}},
		{Run: ref(6, "replay", source, day+600), Records: 143400, Lead: &state.Lead{Ahead: 2, Behind: 1, ByMS: 3500}},
		{Run: ref(7, "replay", mono, day+900), Records: 5120, Error: "the broker closed the connection"},
	}
	return st
}

func TestTheSheetOfTwoSessionsNamesEachRunOnceAndEveryReplay(t *testing.T) {
	got := Markdown(Build(twoSessions(), time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)))
	const file = "testdata/two-sessions.golden"
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the sheet differs from %s (go test ./export -run TwoSessions -update rewrites it):\n%s", file, got)
	}
	if n := strings.Count(got, "\n"); n > maxLines {
		t.Errorf("%d lines, more than %d", n, maxLines)
	}
}

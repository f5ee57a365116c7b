package session

import (
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/export"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/internal/watermark"
)

// TestTheSheetListsEveryReplayWithItsStrategyLateRecordsAndLead restores a replay saved
// by an earlier session, then replays twice, after the parse and per partition at the
// source, and pins the second to 4.3: 4.3's section lists all three, a line each.
func TestTheSheetListsEveryReplayWithItsStrategyLateRecordsAndLead(t *testing.T) {
	saved := state.New()
	saved.LastRun = 3
	saved.Evidence.Replayed = []state.ReplayRun{{Run: state.RunRef{ID: 2, Kind: "replay", Timestamp: "completed_ts",
		Watermarks: "for_monotonous_timestamps()", Recording: "hour.jsonl.gz", StartedAt: t0 - 86400000}, Records: 143400, LateCount: 832,
		LateUSD: 24.5, Lead: &state.Lead{Ahead: 2, Behind: 0, ByMS: 240000}}}
	l := newLabWith(Config{Reenact: hourReference, RunsBefore: saved.RunsBefore()})
	l.started()
	l.h.Restore(saved)
	l.minute(0, 0.2, 0.2)
	unevenReplay(l, watermark.Strategy{}, &jobspec.Reads{Late: 2, AheadLate: 1, Max: jobspec.Lead{Ahead: 2, Behind: 0, By: 41300}})
	unevenReplayAt(l, 1, watermark.Strategy{At: watermark.Source}, &jobspec.Reads{Max: jobspec.Lead{Ahead: 1, Behind: 2, By: 2500}})
	if err := l.h.pin("4.3", 6); err != nil {
		t.Fatal(err)
	}
	md := export.Markdown(export.Build(l.h.Snapshot(map[string]string{"4.3a": "run 5 dropped 2"}, 1), time.Unix(0, 0)))
	want := "Every replay you ran, oldest first (3; labtui keeps the latest 16), and the exercise each backs:\n\n" +
		"| run | watermarks | records | late records | late USD | largest partition lead | backs |\n" +
		"|---|---|---|---|---|---|---|\n" +
		"| run 2: replay of hour.jsonl.gz, completed_ts | for_monotonous_timestamps() | 143,400 | 832 | $24.5000 | " +
		"partition 2, 240.0 s ahead of partition 0 | — |\n" +
		"| run 5: replay of hour.jsonl.gz, completed_ts | for_monotonous_timestamps() | 12 | 2 | $0.2000 | partition 2, 41.3 s ahead of partition 0 | — |\n" +
		"| run 6: replay of hour.jsonl.gz, completed_ts | for_monotonous_timestamps() per partition at the source | 12 | 2 | $0.2000 | " +
		"partition 1, 2.5 s ahead of partition 2 | 4.3 (your pick) |\n\n## 4.4\n"
	i := strings.Index(md, "Every replay you ran")
	if i < 0 || !strings.HasPrefix(md[i:], want) {
		t.Errorf("4.3's replays read\n%s\nwant\n%s", md[max(i, 0):], want)
	}
}

package export

import (
	"fmt"

	"github.com/labtui/labtui/internal/thousands"

	"github.com/labtui/labtui/state"
)

// writeReplayed writes every replay the learner ran, a line each, with which exercise
// each backs: 4.3 is answered by the replays together (one after the parse, one with
// watermarks per partition at the source), and an answer may quote one that no longer
// backs the step.
func writeReplayed(b *sheet, lines []state.ReplayRun, doc Document) {
	if len(lines) == 0 {
		return
	}
	b.line("")
	b.line(fmt.Sprintf("Every replay you ran, oldest first (%d; labtui keeps the latest %d), and the exercise each backs:", len(lines), state.MaxReplayed))
	b.line("")
	b.line("| run | watermarks | records | late records | late USD | largest partition lead | backs |")
	b.line("|---|---|---|---|---|---|---|")
	for _, l := range lines {
		r := l.Run
		what := r.Kind
		if r.Recording != "" {
			what += " of " + md(r.Recording)
		}
		records := thousands.Format(l.Records)
		if l.Error != "" {
			records += " (stopped: " + md(l.Error) + ")"
		}
		b.line(fmt.Sprintf("| %s: %s | %s | %s | %s | $%.4f | %s | %s |", b.runName(r), joinSet(what, r.Timestamp), r.Watermarks, records,
			thousands.Format(int64(l.LateCount)), l.LateUSD, leadOf(l.Lead), backs(r, doc)))
	}
}

// leadOf is "partition 2, 241.3 s ahead of partition 0", or what is known of it.
func leadOf(l *state.Lead) string {
	if l == nil {
		return "none reported"
	}
	return fmt.Sprintf("partition %d, %.1f s ahead of partition %d", l.Ahead, float64(l.ByMS)/1000, l.Behind)
}

// backs lists the exercises whose finding run r backs, "—" for none.
func backs(r state.RunRef, doc Document) string {
	out := ""
	for _, e := range doc.Exercises {
		f := e.Finding
		if f == nil || f.Run.ID != r.ID || f.Run.StartedAt != r.StartedAt {
			continue
		}
		if out != "" {
			out += ", "
		}
		out += e.ID
		if f.Pinned {
			out += " (your pick)"
		}
	}
	if out == "" {
		return "—"
	}
	return out
}

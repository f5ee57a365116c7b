package session

import (
	"fmt"
	"strconv"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/internal/thousands"
	"github.com/labtui/labtui/internal/watermark"
	"github.com/labtui/labtui/labs/lab4"
)

// LateWhy says, for a replay run that dropped records as late, why a replay of the same
// hour can differ from its reference and from another replay, with the run's own
// numbers when its backend reported how it read the partitions (Run.Reads): which
// partition ran ahead of which and by how much, how many late records only that lead
// made late, and the option that removes them. For a replay with no late record in which
// a partition ran ahead, it says that the bound of for_bounded_out_of_orderness kept them
// when it is at least the lead, or else that none was late only by where the periodic
// watermarks fell, and what real Flink did; otherwise it is "" for a run with no late record.
//
// A record is late only because of the lead when its window was still open by its own
// partition's events: watermarks per partition at the source never run ahead of that,
// so with them none of these records is late, whatever order the partitions are read
// in (a partition is always read in its own order). With started_ts the count is a
// lower bound: it is worked out on the events' timestamps, which run ahead of started_ts.
func LateWhy(run *Run) string {
	if run == nil {
		return ""
	}
	return lab4.LateWhy(lateFacts(run))
}

// lateFacts are what explains run's late records, as the finding it backs keeps them.
func lateFacts(run *Run) state.LateFacts {
	l := state.LateFacts{Run: run.ID, Restart: backlogRestart(run), Recording: run.ReadsRecording(), Late: run.LateCount, USD: run.LateUSD,
		Source: run.Watermarks.At == watermark.Source, BoundMS: run.Watermarks.OutOfOrderness.Milliseconds(),
		IntervalMS: run.Watermarks.Period().Milliseconds(), StartedTS: run.Timestamp == jobspec.StartedTS, Forgotten: run.Forgotten}
	if r := run.Reads; r != nil {
		l.Reads = &state.ReadsFacts{Ahead: r.Max.Ahead, Behind: r.Max.Behind, ByMS: r.Max.By, Late: r.Late, AheadLate: r.AheadLate}
	}
	return l
}

// LateLead is LateWhy in a few words, for a title: "16,499 only because partition 1 ran
// 53 min ahead of 2"; "" when no record was late only because of a lead, or the backend
// did not say.
func LateLead(run *Run) string {
	if run == nil || !run.ReadsRecording() && !backlogRestart(run) || run.Reads == nil || run.Reads.AheadLate == 0 ||
		run.Watermarks.At == watermark.Source {
		return ""
	}
	r := run.Reads
	n := Count(r.AheadLate)
	if run.Timestamp == jobspec.StartedTS {
		n = "≥" + n
	}
	by := secs(r.Max.By)
	if r.Max.By >= 120000 {
		by = strconv.FormatInt(r.Max.By/60000, 10) + " min"
	}
	return fmt.Sprintf("%s only because partition %d ran %s ahead of %d", n, r.Max.Ahead, by, r.Max.Behind)
}

// halves is n request halves in words: "1 request half", "150 request halves".
func halves(n int64) string {
	if n == 1 {
		return "1 request half"
	}
	return Count(n) + " request halves"
}

// secs is ms as seconds to a tenth: "41.3 s", "2,285.8 s (38 min)".
func secs(ms int64) string {
	s := Count(ms/1000) + "." + strconv.FormatInt(ms%1000/100, 10) + " s"
	if ms >= 120000 {
		s += " (" + strconv.FormatInt(ms/60000, 10) + " min)"
	}
	return s
}

// Count writes n with thousands separated by commas: 16,499.
func Count(n int64) string { return thousands.Format(n) }

// backlogRestart reports whether run is the live job started again (w, t, x, a failure)
// that dropped records as late only because one partition ran ahead of another while it
// read the topic's backlog again from the oldest record kept, at full speed, with its
// watermarks generated after the source: the replay's effect, on the live topic.
func backlogRestart(run *Run) bool {
	return liveRestart(run) && run.Reads != nil && run.Reads.AheadLate > 0 && run.Watermarks.At != watermark.Source
}

// liveRestart reports whether run is the live job started again (w, t, x, a failure):
// with empty state, from the topic's oldest record kept, so it re-reads the backlog at
// full speed.
func liveRestart(run *Run) bool {
	if run == nil || run.ReadsRecording() {
		return false
	}
	switch run.Cause {
	case backend.CauseKill, backend.CauseStrategy, backend.CauseTimestamp, backend.CauseFailure:
		return true
	}
	return false
}

// CatchUpNote says in a line, for the status line, that a restart of the live job dropped
// records as late while it re-read the topic (see backlogRestart); "" for any other run.
func CatchUpNote(run *Run) string {
	if !backlogRestart(run) {
		return ""
	}
	return fmt.Sprintf("run %d re-reads the topic at full speed: one partition runs ahead, the watermark follows it, and "+
		"the records behind it go late (l; per partition on the source: w, p, enter)", run.ID)
}

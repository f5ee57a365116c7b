package session

import (
	"strconv"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/keyhash"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/labs/lab4"
)

// replayRows is how many rows of a replay's table the evidence keeps.
const replayRows = 1000

// replayFinished records a replay that ended, ticks 4.3 (completed_ts) or 4.4
// (started_ts) when it succeeded, and diffs its event-time output with an earlier run.
func (t *tracker) replayFinished(s *Session, p backend.ReplayProgress) {
	run := s.Current()
	field := run.Timestamp
	if t.pendingReplay != nil {
		field = t.pendingReplay.field
		if p.Path == "" {
			p.Path = t.pendingReplay.path
		}
	}
	t.pendingReplay = nil
	at := s.Now()
	ev := state.Replay{Path: p.Path, Timestamp: field.String(), Records: p.Records, Done: p.Done && p.Err == nil, At: at}
	line := state.ReplayRun{Run: s.runRef(run), Records: p.Records, Error: ev.Error}
	if p.Err != nil {
		ev.Error = p.Err.Error()
		line.Error = ev.Error
		t.addReplay(ev)
		t.addReplayed(line, run)
		t.changed = true
		return
	}
	step, base := lab4.Replay, t.liveRun(s, run)
	if field == jobspec.StartedTS {
		step, base = lab4.Moved, t.completedReplay(s, run)
	}
	_ = step
	t.addReplay(ev)
	t.addReplayed(line, run)
	t.watch(s, run, at+2*60000, func() {
		t.addReplayed(line, run)
		r := t.findReplay(at, ev.Timestamp)
		if r == nil {
			return
		}
		rows, omitted := run.Table.Copy(0, replayRows, s.ClocksFor(run))
		r.Table = *labelled(rows, omitted, run, s.Now())
		if base != nil {
			d := tableDiff(run.Table, base.Table)
			d.Against = "run " + itoa(int64(base.ID))
			if base.Replay {
				d.Against += " (replay, " + base.Timestamp.String() + ")"
			} else {
				d.Against += " (live)"
			}
			r.Diff = &d
		}
	})
}

// addReplay appends a replay to the evidence, keeping the latest state.MaxReplays.
func (t *tracker) addReplay(r state.Replay) {
	rs := append(t.evidence.Replays, r)
	if len(rs) > state.MaxReplays {
		rs = append([]state.Replay(nil), rs[len(rs)-state.MaxReplays:]...)
	}
	t.evidence.Replays = rs
}

// addReplayed notes replay run's line, with its late records and partition lead as
// they stand, replacing the line it noted before; it keeps the latest
// state.MaxReplayed.
func (t *tracker) addReplayed(line state.ReplayRun, run *Run) {
	line.LateCount, line.LateUSD = run.LateCount, run.LateUSD
	if r := run.Reads; r != nil && r.Max.By > 0 {
		line.Lead = &state.Lead{Ahead: r.Max.Ahead, Behind: r.Max.Behind, ByMS: r.Max.By}
	}
	for i, old := range t.evidence.Replayed {
		if old.Run.ID == line.Run.ID && old.Run.StartedAt == line.Run.StartedAt {
			t.evidence.Replayed[i] = line
			return
		}
	}
	t.evidence.Replayed = lastOf(append(t.evidence.Replayed, line), state.MaxReplayed)
}

// lastOf is the latest n of rs, in a slice of their own when any were let go.
func lastOf(rs []state.ReplayRun, n int) []state.ReplayRun {
	if len(rs) <= n {
		return rs
	}
	return append([]state.ReplayRun(nil), rs[len(rs)-n:]...)
}

// findReplay returns the replay evidence that finished at at with field, or nil when it
// was let go.
func (t *tracker) findReplay(at int64, field string) *state.Replay {
	for i := range t.evidence.Replays {
		if r := &t.evidence.Replays[i]; r.At == at && r.Timestamp == field {
			return r
		}
	}
	return nil
}

// liveRun is the latest run before cur that was not a replay.
func (t *tracker) liveRun(s *Session, cur *Run) *Run {
	runs := s.Runs()
	for i := len(runs) - 1; i >= 0; i-- {
		if r := runs[i]; r != cur && !r.Replay {
			return r
		}
	}
	return nil
}

// completedReplay is the latest replay before cur that read completed_ts, or else the
// live run.
func (t *tracker) completedReplay(s *Session, cur *Run) *Run {
	runs := s.Runs()
	for i := len(runs) - 1; i >= 0; i-- {
		if r := runs[i]; r != cur && r.Replay && r.Timestamp == jobspec.CompletedTS {
			return r
		}
	}
	return t.liveRun(s, cur)
}

// maxDiffExamples is how many differing rows a Diff lists.
const maxDiffExamples = 10

// tableDiff compares the event-time cells of here and there.
func tableDiff(here, there *minutes.Table) state.Diff {
	var d state.Diff
	seen := make(map[rowKey]bool)
	other := make(map[rowKey]minutes.Cell, there.Len())
	for i := range there.Len() {
		r := there.Row(i)
		if !r.IsMark() && r.Cells[minutes.Event].Present() {
			other[rowKey{r.WindowStart, r.Tenant}] = r.Cells[minutes.Event]
		}
	}
	for i := range here.Len() {
		r := here.Row(i)
		c := r.Cells[minutes.Event]
		if r.IsMark() || !c.Present() {
			continue
		}
		k := rowKey{r.WindowStart, r.Tenant}
		seen[k] = true
		o, ok := other[k]
		switch {
		case !ok:
			d.OnlyHere++
		case minutes.Equal(c, o):
			d.Compared++
			d.Same++
		default:
			d.Compared++
			d.Different++
			if len(d.Examples) < maxDiffExamples {
				d.Examples = append(d.Examples, state.DiffRow{WindowStart: r.WindowStart, Tenant: r.Tenant,
					Here: &minutes.Cell{USD: c.USD, Requests: c.Requests, Fired: 1}, There: &minutes.Cell{USD: o.USD, Requests: o.Requests, Fired: 1}})
			}
		}
	}
	for k := range other {
		if !seen[k] {
			d.OnlyThere++
		}
	}
	return d
}

type rowKey struct {
	start  int64
	tenant string
}

// movedIndexLimit is how many requests' completed_ts minutes the tracker remembers to
// find the requests that move minutes under started_ts.
const movedIndexLimit = 100000

// maxMovedNoted is how many moved requests noted record by record the evidence keeps.
const maxMovedNoted = 20

// trace remembers each record's event-time minute under completed_ts and, under
// started_ts, notes the records whose minute moved.
func (t *tracker) trace(run *Run, r jobspec.RecordTrace) {
	if t.evidence.MovedSummary != nil || len(t.evidence.Moved) >= maxMovedNoted {
		// The moved requests are found: the index has nothing left to do.
		if len(t.moved.order) > 0 {
			t.moved = newMovedIndex(movedIndexLimit)
		}
		return
	}
	if run.Timestamp == jobspec.CompletedTS {
		t.moved.put(r.RequestID, r.EventWindowEnd)
		return
	}
	end, ok := t.moved.get(r.RequestID)
	if !ok || end == r.EventWindowEnd {
		return
	}
	for _, m := range t.evidence.Moved {
		if m.RequestID == r.RequestID {
			return
		}
	}
	t.evidence.Moved = append(t.evidence.Moved, state.Moved{RequestID: r.RequestID, Tenant: r.TenantID,
		CompletedMinute: end - 60000, StartedMinute: r.EventWindowEnd - 60000, StartedTS: r.Timestamp, USD: r.USD})
	t.changed = true
}

// movedIndex maps request IDs, by their 64-bit hash (keyhash.String, the one the parser
// and the key tables share; two of the recorded hour's 71,700 ids share one with a chance
// of about one in 10^10), to event-window ends, forgetting the oldest past its limit.
// Hashes, not the ids, are kept: a string key would hold every id's bytes, and the trace
// it came from, for as long as the index remembers it.
type movedIndex struct {
	limit int
	ends  map[uint64]int64
	order []uint64
	next  int
}

func newMovedIndex(limit int) *movedIndex {
	return &movedIndex{limit: limit, ends: make(map[uint64]int64), order: make([]uint64, 0, min(limit, 1024))}
}

func (m *movedIndex) put(id string, end int64) {
	h := keyhash.String(id)
	if _, ok := m.ends[h]; !ok {
		if len(m.order) < m.limit {
			m.order = append(m.order, h)
		} else {
			delete(m.ends, m.order[m.next])
			m.order[m.next] = h
			m.next = (m.next + 1) % len(m.order)
		}
	}
	m.ends[h] = end
}

func (m *movedIndex) get(id string) (int64, bool) {
	e, ok := m.ends[keyhash.String(id)]
	return e, ok
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

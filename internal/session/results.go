package session

import "github.com/labtui/labtui/internal/jobspec"

// defaultResults is how many results a run keeps unless told otherwise: a third more than
// a replay of the recorded hour writes (a trace per request, 71,700, and the windows it
// fired), or about 80 minutes of the live generator at its default 20 requests/s. A run
// keeps one result a record, 176 bytes: at this limit a run holds at most about 20 MB.
const defaultResults = 100_000

// Results is everything the job wrote in one run, in order: fired and late results and a
// trace per record, as the diff and the skew picture need them. It is bounded: when it
// is full, the oldest half of its traces is let go and counted (the fired windows and
// the late records stay: they are few, and the run's output), so a live run that goes on
// for hours keeps every window and the traces of its latest stretch.
type Results struct {
	items []jobspec.Result
	// lent is how far into items' array an Output reaches: the open windows it put past
	// the results, which a push must not write over.
	lent int
	// after holds, in order, the results that arrived while the room past items was lent
	// (a replay's last windows fire while its comparison reads its output); reclaim moves
	// them to items once nothing holds the output, so the results are never copied to a
	// new array at a replay's peak (13 MB for the recorded hour).
	after    []jobspec.Result
	limit    int
	dropped  int
	released bool
	// reserved says reserve made room once: a run reserves at most once.
	reserved bool
}

func newResults(limit int) *Results { return &Results{limit: limit} }

// push adds one result. A full buffer moves what it keeps to a new array, so a
// Snapshot taken earlier is never written to; while the room past the results is lent
// to a comparison under way, the result waits in after.
func (r *Results) push(x jobspec.Result) {
	if r.limit <= 0 {
		r.dropped++
		return
	}
	if r.Len() >= r.limit {
		r.letGo()
	}
	if r.lent > len(r.items) {
		r.after = append(r.after, x)
		return
	}
	r.items = append(r.items, x)
}

// appendAll appends every result kept to dst, oldest first.
func (r *Results) appendAll(dst []jobspec.Result) []jobspec.Result {
	return append(append(dst, r.items...), r.after...)
}

// reserve makes room for n results (at most the limit) and a little more for the open
// windows an Output puts past them, when there is less and it did not reserve before;
// it is for a run that has just begun and knows how many results to expect.
func (r *Results) reserve(n int) {
	n = min(n, r.limit)
	if n <= 0 || r.reserved || cap(r.items) >= n {
		return
	}
	r.reserved = true
	r.items = r.appendAll(make([]jobspec.Result, 0, n+n/64+16))
	r.after, r.lent = nil, 0
}

// trim gives back the room past the results that a finished replay's run no longer
// needs: its run reserved a quarter more than the newest replay wrote (expectedResults),
// about 3 MB of the recorded hour's 16 MB, which every replay kept would hold for as
// long as it is kept. It keeps room for the processing-time windows that fire after a
// replay is read. A Snapshot taken before keeps the old array.
func (r *Results) trim() {
	n := r.Len()
	spare := n/64 + 64
	if r.lent > 0 || cap(r.items)-n <= 2*spare {
		return
	}
	r.items, r.after = r.appendAll(make([]jobspec.Result, 0, n+spare)), nil
}

// letGo lets go of the oldest half of the traces, keeping every other result in order;
// when traces are less than half of what is kept, of the oldest half of everything.
func (r *Results) letGo() {
	all := r.Snapshot()
	traces := 0
	for i := range all {
		if all[i].Kind == jobspec.TraceResult {
			traces++
		}
	}
	kept := make([]jobspec.Result, 0, r.limit)
	if traces < len(all)/2 {
		half := len(all) / 2
		kept = append(kept, all[half:]...)
		r.dropped += half
	} else {
		drop := traces / 2
		for _, x := range all {
			if x.Kind == jobspec.TraceResult && drop > 0 {
				drop--
				r.dropped++
				continue
			}
			kept = append(kept, x)
		}
	}
	r.items, r.after, r.lent = kept, nil, 0
}

// OldestTrace is the arrival of the oldest trace kept, when one is.
func (r *Results) OldestTrace() (int64, bool) {
	for _, part := range [][]jobspec.Result{r.items, r.after} {
		for i := range part {
			if part[i].Kind == jobspec.TraceResult {
				return part[i].Record.Arrival, true
			}
		}
	}
	return 0, false
}

// traced reports whether a trace is among the results kept.
func (r *Results) traced() bool { return traced(r.after) || traced(r.items) }

// output is the results kept followed by open, the whole output of a run, sharing the
// results' array rather than copying it (for the recorded hour it is 13 MB, and the
// diff holds it for as long as it is shown): open goes into the room past the results,
// which is then lent, so no push writes there. Where there is no room, or it is lent
// already, the output is a copy.
func (r *Results) output(open []jobspec.Result) []jobspec.Result {
	n := len(r.items)
	if len(open) == 0 {
		return r.Snapshot()
	}
	if r.lent > n || len(r.after) > 0 || cap(r.items)-n < len(open) {
		return append(r.appendAll(make([]jobspec.Result, 0, r.Len()+len(open))), open...)
	}
	out := append(r.items[:n:cap(r.items)], open...)
	r.lent = len(out)
	return out[:len(out):len(out)]
}

// reclaim takes back the room an output lent, once nothing holds an output of the run
// any more (see Run.lendOutput): the results that waited in after go there, and the next
// output puts its open windows past them instead of copying every result (13 MB for the
// recorded hour, at a replay's peak).
func (r *Results) reclaim() {
	r.lent = 0
	r.items = append(r.items, r.after...)
	r.after = nil
}

// Snapshot returns the results kept, oldest first. The slice is read-only and stays as
// it is while more results arrive (they go past its end, or to a new array), so it may be
// handed to a command running in another goroutine. While results wait in after (a
// comparison holds the room past the others) it is a copy.
func (r *Results) Snapshot() []jobspec.Result {
	if len(r.after) > 0 {
		return r.appendAll(make([]jobspec.Result, 0, r.Len()))
	}
	return r.items[:len(r.items):len(r.items)]
}

// Len is the number of results kept.
func (r *Results) Len() int { return len(r.items) + len(r.after) }

// Dropped counts the results let go to stay within the limit.
func (r *Results) Dropped() int { return r.dropped }

// complete reports whether every result of the run is kept.
func (r *Results) complete() bool { return r.dropped == 0 }

// release forgets every result (an old run's), counting them as dropped.
func (r *Results) release() {
	r.dropped += r.Len()
	r.items, r.after, r.lent, r.limit, r.released = nil, nil, 0, 0, true
}

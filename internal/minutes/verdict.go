package minutes

// Clocks say how far each window's clock has come, so a missing cell can be told apart
// from one that is still to come.
type Clocks struct {
	// Now is the processing time, ms since the epoch.
	Now int64
	// Watermark is the event-time window's watermark.
	Watermark int64
	// Ended says the run is over: every window that was going to fire has.
	Ended bool
}

// grace is how long after its clock passes a window's end labtui waits for the window's
// result before it calls the window missing: results and the status that shows the
// clocks arrive separately.
const grace = 1000

// Verdict is how a row's two cells compare.
type Verdict uint8

const (
	// waiting means a cell is still to come.
	waiting Verdict = iota
	// Agree means both windows wrote the same USD and requests.
	Agree
	// Differs means the windows wrote different values, or one wrote nothing although
	// its clock passed the minute.
	Differs
)

// Closed reports whether side's clock has passed the row's minute (with Grace).
func (c Clocks) Closed(side Side, r *Row) bool {
	if c.Ended {
		return true
	}
	if side == Processing {
		return c.Now >= r.WindowEnd+grace
	}
	return c.Watermark >= r.WindowEnd-1+grace
}

// Verdict compares the row's cells under the clocks. A mark line is Waiting.
func (r *Row) Verdict(c Clocks) Verdict {
	if r.IsMark() {
		return waiting
	}
	p, e := r.Cells[Processing], r.Cells[Event]
	switch {
	case p.Present() && e.Present():
		if Equal(p, e) {
			return Agree
		}
		return Differs
	case p.Present() && c.Closed(Event, r), e.Present() && c.Closed(Processing, r):
		return Differs
	}
	return waiting
}

package skew

import (
	"cmp"
	"slices"

	"github.com/labtui/labtui/internal/jobspec"
)

// Model is everything the picture shows, in milliseconds since the epoch.
type Model struct {
	// X and Y are the ranges of the axes: event time across, processing time up. Both
	// are whole windows; when the run's event and processing times overlap, both axes
	// span the same range, so the diagonal is at 45 degrees.
	X, Y Range
	// Points are the records, in arrival order.
	Points []Point
	// Watermark is the event-time window's watermark as records met it: a step each time
	// it moved, in arrival order.
	Watermark []Step
	// EventWindows are the event-time windows, summed over tenants, by start.
	EventWindows []Strip
	// ProcessingWindows are the processing-time windows, summed over tenants, by start.
	ProcessingWindows []Band
	// Held is the gateway whose records are coloured apart ("" for none).
	Held string
	// Marks are moments of processing time to draw across the picture: a hiccup's start
	// and its flush.
	Marks []Mark
	// WindowSize is the windows' length.
	WindowSize int64
}

// Range is [From, To) in milliseconds.
type Range struct{ From, To int64 }

// len returns the range's length.
func (r Range) len() int64 { return r.To - r.From }

// has says whether t is in the range.
func (r Range) has(t int64) bool { return t >= r.From && t < r.To }

// Point is one record: where it sits in the picture and what colours it.
type Point struct {
	RequestID string
	Gateway   string
	// Event is its event timestamp (x), Processing its arrival at the windows (y).
	Event, Processing int64
	USD               float64
	// Late says the event-time window dropped it; Held that its gateway is Model.Held and
	// it arrived more than the model's far after its timestamp (a hiccup held it).
	Late, Held bool
}

// Step is the watermark a record met (Watermark) at its arrival (Processing).
type Step struct{ Processing, Watermark int64 }

// Strip is an event-time window: [Start, End) of event time, and Closed, the processing
// time at which it fired (0 if it never did), with the sums it fired (or, open, holds).
type Strip struct {
	Start, End int64
	Closed     int64
	USD        float64
	Requests   int64
}

// Band is a processing-time window: [Start, End) of processing time, with its sums;
// Open says it had not fired when the run ended.
type Band struct {
	Start, End int64
	USD        float64
	Requests   int64
	Open       bool
}

// Mark is a labelled moment of processing time.
type Mark struct {
	Label string
	At    int64
}

// Options say what to single out.
type Options struct {
	// Held is the gateway to colour apart; "" picks the gateway with the most records
	// that arrived more than Far after their timestamp (none if no record did).
	Held string
	// Far is how far behind its timestamp a record must arrive to count as held; zero
	// means 5 seconds.
	Far int64
	// Hiccup and Flush, when not zero, are the processing times a hiccup held a gateway
	// and let it go, drawn as marks.
	Hiccup, Flush int64
	// Span, when not empty, is the stretch of time both axes show (to zoom on a hiccup
	// in an hour, say); records outside it are left out.
	Span Range
}

// DefaultFar is how late a record must arrive to count towards picking the held gateway.
const DefaultFar int64 = 5000

// Build makes the picture of one run from its results: traces for the dots and the
// watermark, event-time and processing-time results (fired or pending) for the strips
// and bands. A fired event-time window closes at its result's At when the run set it
// (a replay does; an output file does not), else at the first arrival whose record met a
// watermark past the window's end.
func Build(results []jobspec.Result, opts Options) Model {
	m := Model{WindowSize: jobspec.Minute}
	for _, r := range results {
		if k := r.Kind; (k == jobspec.EventTimeResult || k == jobspec.ProcessingTimeResult || k == jobspec.PendingResult) && r.Minute.WindowEnd > r.Minute.WindowStart {
			m.WindowSize = r.Minute.WindowEnd - r.Minute.WindowStart
			break
		}
	}
	strips := make(map[int64]*Strip)
	bands := make(map[int64]*Band)
	for _, r := range results {
		switch r.Kind {
		case jobspec.TraceResult:
			t := r.Record
			m.Points = append(m.Points, Point{RequestID: t.RequestID, Gateway: t.Gateway, Event: t.Timestamp,
				Processing: t.Arrival, USD: t.USD, Late: t.Late})
		case jobspec.EventTimeResult:
			s := strip(strips, r.Minute.WindowStart, r.Minute.WindowEnd)
			s.USD, s.Requests = s.USD+r.Minute.USD, s.Requests+r.Minute.Requests
			if r.At != 0 && (s.Closed == 0 || r.At < s.Closed) {
				s.Closed = r.At
			}
		case jobspec.ProcessingTimeResult:
			b := band(bands, r.Minute.WindowStart, r.Minute.WindowEnd)
			b.USD, b.Requests = b.USD+r.Minute.USD, b.Requests+r.Minute.Requests
		case jobspec.PendingResult:
			if r.Window == jobspec.EventTimeResult {
				s := strip(strips, r.Minute.WindowStart, r.Minute.WindowEnd)
				s.USD, s.Requests = s.USD+r.Minute.USD, s.Requests+r.Minute.Requests
			} else {
				b := band(bands, r.Minute.WindowStart, r.Minute.WindowEnd)
				b.USD, b.Requests, b.Open = b.USD+r.Minute.USD, b.Requests+r.Minute.Requests, true
			}
		}
	}
	slices.SortStableFunc(m.Points, func(a, b Point) int { return cmp.Compare(a.Processing, b.Processing) })
	m.Watermark = watermarkSteps(results)
	for _, s := range strips {
		m.EventWindows = append(m.EventWindows, *s)
	}
	slices.SortFunc(m.EventWindows, func(a, b Strip) int { return cmp.Compare(a.Start, b.Start) })
	for _, b := range bands {
		m.ProcessingWindows = append(m.ProcessingWindows, *b)
	}
	slices.SortFunc(m.ProcessingWindows, func(a, b Band) int { return cmp.Compare(a.Start, b.Start) })
	// A window an output file reports fired closes where the watermark the records met
	// first passed its end.
	if fired := firedEventWindows(results); len(fired) > 0 {
		for i := range m.EventWindows {
			s := &m.EventWindows[i]
			if s.Closed != 0 || !fired[s.Start] {
				continue
			}
			for _, st := range m.Watermark {
				if st.Watermark >= s.End-1 {
					s.Closed = st.Processing
					break
				}
			}
		}
	}
	m.Held = opts.Held
	if m.Held == "" {
		m.Held = HeldGateway(results, cmp.Or(opts.Far, DefaultFar))
	}
	// A held record is one of the held gateway's that arrived far after its timestamp:
	// the gateway's other records went through at once and are not counted as held.
	far := cmp.Or(opts.Far, DefaultFar)
	for i := range m.Points {
		p := &m.Points[i]
		p.Held = m.Held != "" && p.Gateway == m.Held && p.Processing-p.Event > far
	}
	if opts.Hiccup != 0 {
		m.Marks = append(m.Marks, Mark{Label: "hiccup", At: opts.Hiccup})
	}
	if opts.Flush != 0 {
		m.Marks = append(m.Marks, Mark{Label: "flush", At: opts.Flush})
	}
	m.X, m.Y = m.axes()
	if opts.Span.len() > 0 {
		m.X, m.Y = opts.Span, opts.Span
		m.Points = slices.DeleteFunc(m.Points, func(p Point) bool { return !m.X.has(p.Event) || !m.Y.has(p.Processing) })
		// The watermark from where it stood when the span began to where it stood at its end.
		var steps []Step
		for i, st := range m.Watermark {
			switch {
			case st.Processing < m.Y.From && (i+1 == len(m.Watermark) || m.Watermark[i+1].Processing >= m.Y.From) && st.Watermark >= m.X.From:
				steps = append(steps, Step{Processing: m.Y.From, Watermark: st.Watermark})
			case m.Y.has(st.Processing):
				steps = append(steps, st)
			}
		}
		m.Watermark = steps
	}
	return m
}

func strip(at map[int64]*Strip, start, end int64) *Strip {
	s, ok := at[start]
	if !ok {
		s = &Strip{Start: start, End: end}
		at[start] = s
	}
	return s
}

func band(at map[int64]*Band, start, end int64) *Band {
	b, ok := at[start]
	if !ok {
		b = &Band{Start: start, End: end}
		at[start] = b
	}
	return b
}

func firedEventWindows(results []jobspec.Result) map[int64]bool {
	fired := make(map[int64]bool)
	for _, r := range results {
		if r.Kind == jobspec.EventTimeResult {
			fired[r.Minute.WindowStart] = true
		}
	}
	return fired
}

// watermarkSteps returns the watermark as traced records met it, one step each time it
// moved, in arrival order; the watermark before the first (jobspec.MinWatermark) is not a
// time and is left out.
func watermarkSteps(results []jobspec.Result) []Step {
	var tr []jobspec.RecordTrace
	for _, r := range results {
		if r.Kind == jobspec.TraceResult && r.Record.Watermark != jobspec.MinWatermark {
			tr = append(tr, r.Record)
		}
	}
	slices.SortStableFunc(tr, func(a, b jobspec.RecordTrace) int { return cmp.Compare(a.Arrival, b.Arrival) })
	var steps []Step
	for _, t := range tr {
		if n := len(steps); n == 0 || t.Watermark > steps[n-1].Watermark {
			steps = append(steps, Step{Processing: t.Arrival, Watermark: t.Watermark})
		}
	}
	return steps
}

// HeldGateway returns the gateway with the most traced records that arrived more than
// far after their timestamp, the first by name on a tie, or "" when no record did.
func HeldGateway(results []jobspec.Result, far int64) string {
	n := make(map[string]int)
	for i := range results {
		if t := &results[i].Record; results[i].Kind == jobspec.TraceResult && t.Arrival-t.Timestamp > far {
			n[t.Gateway]++
		}
	}
	best := ""
	for gw, c := range n {
		if c > n[best] || c == n[best] && gw < best {
			best = gw
		}
	}
	return best
}

// axes returns the ranges of the picture, in whole windows: event time across
// everything traced and every window; processing time likewise; the union of the two
// when they overlap.
func (m *Model) axes() (x, y Range) {
	x, y = Range{From: 1<<63 - 1, To: -1 << 63}, Range{From: 1<<63 - 1, To: -1 << 63}
	for _, p := range m.Points {
		x.From, x.To = min(x.From, p.Event), max(x.To, p.Event+1)
		y.From, y.To = min(y.From, p.Processing), max(y.To, p.Processing+1)
	}
	for _, s := range m.EventWindows {
		x.From, x.To = min(x.From, s.Start), max(x.To, s.End)
	}
	for _, b := range m.ProcessingWindows {
		y.From, y.To = min(y.From, b.Start), max(y.To, b.End)
	}
	for _, mk := range m.Marks {
		y.From, y.To = min(y.From, mk.At), max(y.To, mk.At+1)
	}
	if x.From > x.To {
		x = Range{0, m.WindowSize}
	}
	if y.From > y.To {
		y = x
	}
	x, y = m.whole(x), m.whole(y)
	if x.From < y.To && y.From < x.To {
		u := Range{min(x.From, y.From), max(x.To, y.To)}
		return u, u
	}
	return x, y
}

// whole widens r to whole windows.
func (m *Model) whole(r Range) Range {
	w := m.WindowSize
	r.From -= ((r.From % w) + w) % w
	if rem := ((r.To % w) + w) % w; rem != 0 {
		r.To += w - rem
	}
	return r
}

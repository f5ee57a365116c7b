package diff

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/thousands"
)

// Move is a request whose event-time window changed between two runs: in exercise 4.4,
// A stamps records with completed_ts and B with started_ts.
type Move struct {
	RequestID string
	TenantID  string
	Gateway   string
	// USD is the request's cost (as A priced it).
	USD float64
	// A and B are the request's traces in each run: its timestamp there, its event-time
	// window (EventWindowEnd), the watermark it met and whether it was dropped as late.
	A, B jobspec.RecordTrace
}

// Moves is the moved-requests list of two runs.
type Moves struct {
	// Moves are the requests whose event-time window differs, by A's timestamp, then id.
	Moves []Move
	// Both counts the requests traced in both runs; OnlyA and OnlyB those traced in one.
	Both, OnlyA, OnlyB int
	// WindowSize is the event-time window length: a minute for the lab's job.
	WindowSize int64
}

// errNoTrace is returned by Moved when a run's output has no trace lines.
var errNoTrace = errors.New("no trace lines: write the output with `labtui replay --format jsonl --trace`")

// Moved lists the requests whose event-time window differs between runs a and b, from
// their traces (one per assembled record); a run without any is ErrNoTrace.
func Moved(a, b []jobspec.Result) (*Moves, error) {
	ta, tb := traces(a), traces(b)
	switch {
	case len(ta) == 0:
		return nil, fmt.Errorf("run A: %w", errNoTrace)
	case len(tb) == 0:
		return nil, fmt.Errorf("run B: %w", errNoTrace)
	}
	m := &Moves{WindowSize: windowSize(a, b)}
	for id, x := range ta {
		y, ok := tb[id]
		if !ok {
			m.OnlyA++
			continue
		}
		m.Both++
		if x.EventWindowEnd != y.EventWindowEnd {
			m.Moves = append(m.Moves, Move{RequestID: id, TenantID: x.TenantID, Gateway: x.Gateway, USD: x.USD, A: *x, B: *y})
		}
	}
	m.OnlyB = len(tb) - m.Both
	slices.SortFunc(m.Moves, func(x, y Move) int {
		return cmp.Or(cmp.Compare(x.A.Timestamp, y.A.Timestamp), cmp.Compare(x.RequestID, y.RequestID))
	})
	return m, nil
}

func traces(rs []jobspec.Result) map[string]*jobspec.RecordTrace {
	out := make(map[string]*jobspec.RecordTrace)
	for i := range rs {
		if rs[i].Kind == jobspec.TraceResult {
			out[rs[i].Record.RequestID] = &rs[i].Record
		}
	}
	return out
}

// windowSize returns the length of the first event-time window either run wrote, or a
// minute.
func windowSize(runs ...[]jobspec.Result) int64 {
	for _, rs := range runs {
		for _, r := range rs {
			if r.Kind == jobspec.EventTimeResult || r.Kind == jobspec.PendingResult {
				if d := r.Minute.WindowEnd - r.Minute.WindowStart; d > 0 {
					return d
				}
			}
		}
	}
	return jobspec.Minute
}

// WindowStart returns the start of the event-time window the request was in on side s.
func (m *Moves) WindowStart(mv *Move, s Side) int64 {
	if s == B {
		return mv.B.EventWindowEnd - m.WindowSize
	}
	return mv.A.EventWindowEnd - m.WindowSize
}

// Late counts the moved requests dropped as late on side s, and their USD.
func (m *Moves) Late(s Side) (n int, usd float64) {
	for _, mv := range m.Moves {
		t := mv.A
		if s == B {
			t = mv.B
		}
		if t.Late {
			n++
			usd += mv.USD
		}
	}
	return n, usd
}

// USD returns the cost of every moved request.
func (m *Moves) USD() float64 {
	var s float64
	for _, mv := range m.Moves {
		s += mv.USD
	}
	return s
}

// Summary says in one sentence what moved: "71,641 requests in both runs; 1,207 changed
// minute ($61.23); 840 of them ($40.10) dropped as late in B".
func (m *Moves) Summary(names Names) string {
	names = names.orDefault()
	s := fmt.Sprintf("%s requests in both runs; %s changed %s (%s)", thousands.Format(int64(m.Both)), thousands.Format(int64(len(m.Moves))),
		m.word(), usd(m.USD()))
	for _, side := range []Side{A, B} {
		if n, u := m.Late(side); n > 0 {
			s += fmt.Sprintf("; %s of them (%s) dropped as late in %s", thousands.Format(int64(n)), usd(u), names.of(side))
		}
	}
	if m.OnlyA > 0 || m.OnlyB > 0 {
		s += fmt.Sprintf("; %d traced only in %s, %d only in %s", m.OnlyA, names.A, m.OnlyB, names.B)
	}
	return s
}

func (m *Moves) word() string {
	if m.WindowSize == jobspec.Minute {
		return "minute"
	}
	return "window"
}

// WriteText writes the summary and a table of the moved requests, at most limit rows
// (all when limit is negative).
func (m *Moves) WriteText(w io.Writer, names Names, limit int) error {
	names = names.orDefault()
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, m.Summary(names))
	if len(m.Moves) > 0 {
		fmt.Fprintf(bw, "%-18s %-10s %-7s %-10s %-25s %-25s %s\n", "request", "tenant", "gateway", "usd",
			names.A+" "+m.word()+" (ts)", names.B+" "+m.word()+" (ts)", "dropped as late")
	}
	for i := range m.Moves {
		if limit >= 0 && i == limit {
			fmt.Fprintf(bw, "… %s more\n", thousands.Format(int64(len(m.Moves)-limit)))
			break
		}
		mv := &m.Moves[i]
		late := "no"
		switch {
		case mv.A.Late && mv.B.Late:
			late = "in both"
		case mv.A.Late:
			late = fmt.Sprintf("in %s (watermark %s)", names.A, jobspec.Clock(mv.A.Watermark))
		case mv.B.Late:
			late = fmt.Sprintf("in %s (watermark %s)", names.B, jobspec.Clock(mv.B.Watermark))
		}
		fmt.Fprintf(bw, "%-18s %-10s %-7s %-10s %-25s %-25s %s\n", mv.RequestID, mv.TenantID, mv.Gateway, usd(mv.USD),
			m.minute(m.WindowStart(mv, A), mv.A.Timestamp), m.minute(m.WindowStart(mv, B), mv.B.Timestamp), late)
	}
	return bw.Flush()
}

func (m *Moves) minute(start, ts int64) string {
	label := jobspec.Clock(start)
	if m.WindowSize == jobspec.Minute {
		label = label[:5]
	}
	return label + " (" + jobspec.Clock(ts) + ")"
}

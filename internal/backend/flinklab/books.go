package flinklab

import (
	"cmp"
	"slices"

	"github.com/labtui/labtui/internal/jobspec"
)

// maxOpen bounds the open windows books keeps; past it, new windows are not tracked.
const maxOpen = 10_000

// books keeps, from the job's print-sink lines alone, what the embedded lab reads off
// its engine: the counts of jobspec.Stats, the event-time watermark, and the windows not
// yet fired. The PyFlink job prints no snapshot of its state, so these are estimates,
// reset when the job restarts:
//
//   - Watermark is the highest watermark the job's lines prove: one a trace line carried
//     (the trace operator sees the same watermarks as the event-time window, a moment
//     earlier or later), one a late record met at the event-time window, and, for each
//     event-time window that fired, its last millisecond (Flink fires a window once the
//     watermark reaches its maxTimestamp). The last two matter at the end of a replay:
//     a Python operator's trace carries the watermark it had at its bundle's start, so
//     after the last records no trace line carries the watermark that closed the hour.
//   - Forgotten is not known (ForgottenUncounted): the job prints nothing when its
//     RequestAssembler lets a half go.
//   - Records counts trace lines; Late and LateUSD the late side output; the Fired and
//     USD counts the two window sinks. Events is not known and stays zero; Malformed
//     counts the malformed side output.
//   - Open holds, per tenant, the traced records no window has counted yet. An
//     event-time window is named by the trace's event_window_end (unless the trace says
//     the record was late); it leaves Open when its result is printed, or a minute after
//     the watermark passed its end without one. Which processing-time window a record
//     lands in is not in its trace: the window operator assigns it when the record
//     reaches it, which under backpressure is minutes after the trace was printed, and
//     the log is read later still. So the traced records that no printed
//     processing-time result has counted yet are shown as one window per tenant, the
//     current minute's, the only one that can still fire; each printed result takes its
//     records out. Every traced record is thus in exactly one place, a fired window or
//     the open one, and the two never add up to more than the job traced. USD is summed
//     from the traces' usd, which the lab's job prints with each trace.
type books struct {
	stats     jobspec.Stats
	watermark int64
	open      map[openKey]*jobspec.Result
	// unfired is, per tenant, what its traces counted less what its printed
	// processing-time results counted. It goes below zero for a moment when a result's
	// line is read before the trace lines of its records.
	unfired   map[string]*unfired
	untracked int
}

// unfired is one tenant's traced records not yet in a printed processing-time result.
type unfired struct {
	usd      float64
	requests int64
}

// openKey names one open event-time window of one tenant.
type openKey struct {
	tenant string
	end    int64
}

func newBooks() books {
	return books{watermark: jobspec.MinWatermark, open: make(map[openKey]*jobspec.Result),
		unfired: make(map[string]*unfired), stats: jobspec.Stats{ForgottenUncounted: true}}
}

// add counts one result.
func (b *books) add(r *jobspec.Result) {
	switch r.Kind {
	case jobspec.TraceResult:
		t := &r.Record
		b.stats.Records++
		b.stats.RecordsUSD += t.USD
		b.watermark = max(b.watermark, t.Watermark)
		if !t.Late && t.EventWindowEnd != 0 {
			b.openEvent(t.TenantID, t.EventWindowEnd, t.USD)
		}
		if u := b.unfiredOf(t.TenantID); u != nil {
			u.usd += t.USD
			u.requests++
		}
	case jobspec.LateResult:
		b.stats.Late++
		b.stats.LateUSD += r.Record.USD
		b.watermark = max(b.watermark, r.Record.Watermark)
	case jobspec.ProcessingTimeResult:
		b.stats.ProcessingFired++
		b.stats.ProcessingUSD += r.Minute.USD
		if u := b.unfiredOf(r.Minute.TenantID); u != nil {
			u.usd -= r.Minute.USD
			u.requests -= r.Minute.Requests
		}
	case jobspec.EventTimeResult:
		b.watermark = max(b.watermark, r.Minute.WindowEnd-1)
		b.stats.EventFired++
		b.stats.EventUSD += r.Minute.USD
		delete(b.open, openKey{r.Minute.TenantID, r.Minute.WindowEnd})
	}
}

// unfiredOf is tenant's unfired tally, made on first use; nil past maxOpen tenants.
func (b *books) unfiredOf(tenant string) *unfired {
	u := b.unfired[tenant]
	if u == nil {
		if len(b.unfired) >= maxOpen {
			b.untracked++
			return nil
		}
		u = &unfired{}
		b.unfired[tenant] = u
	}
	return u
}

// openEvent counts a traced record in its event-time window.
func (b *books) openEvent(tenant string, end int64, usd float64) {
	k := openKey{tenant, end}
	w := b.open[k]
	if w == nil {
		if len(b.open) >= maxOpen {
			b.untracked++
			return
		}
		w = &jobspec.Result{Kind: jobspec.PendingResult, Window: jobspec.EventTimeResult}
		w.Minute.TenantID, w.Minute.WindowStart, w.Minute.WindowEnd = tenant, end-jobspec.Minute, end
		b.open[k] = w
	}
	w.Minute.USD += usd
	w.Minute.Requests++
}

// prune forgets event-time windows a minute past the watermark that never printed a
// result.
func (b *books) prune() {
	for k := range b.open {
		if b.watermark != jobspec.MinWatermark && k.end+jobspec.Minute <= b.watermark {
			delete(b.open, k)
		}
	}
}

// openWindows prunes, then returns the open windows, processing time first (each
// tenant's unfired records, in the minute that holds now), then by window end and
// tenant, as the embedded engine orders them.
func (b *books) openWindows(now int64) []jobspec.Result {
	b.prune()
	if len(b.open)+len(b.unfired) == 0 {
		return nil
	}
	out := make([]jobspec.Result, 0, len(b.open)+len(b.unfired))
	end := minuteEnd(now)
	for tenant, u := range b.unfired {
		if u.requests <= 0 {
			continue
		}
		w := jobspec.Result{Kind: jobspec.PendingResult, Window: jobspec.ProcessingTimeResult}
		w.Minute.TenantID, w.Minute.WindowStart, w.Minute.WindowEnd = tenant, end-jobspec.Minute, end
		w.Minute.USD, w.Minute.Requests = max(u.usd, 0), u.requests
		out = append(out, w)
	}
	for _, w := range b.open {
		out = append(out, *w)
	}
	if len(out) == 0 {
		return nil
	}
	slices.SortFunc(out, func(x, y jobspec.Result) int {
		return cmp.Or(cmp.Compare(x.Window, y.Window), cmp.Compare(x.Minute.WindowEnd, y.Minute.WindowEnd),
			cmp.Compare(x.Minute.TenantID, y.Minute.TenantID))
	})
	return out
}

// minuteEnd is the end of the epoch-aligned minute that holds ms (TumblingEventTimeWindows
// of one minute, as the lab's job windows), before the epoch too: Go's % truncates.
func minuteEnd(ms int64) int64 {
	start := ms - ms%jobspec.Minute
	if ms%jobspec.Minute < 0 {
		start -= jobspec.Minute
	}
	return start + jobspec.Minute
}

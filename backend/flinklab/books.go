package flinklab

import (
	"cmp"
	"slices"

	"github.com/labtui/labtui/meter"
)

// maxOpen bounds the open windows books keeps; past it, new windows are not tracked.
const maxOpen = 10_000

// books keeps, from the job's print-sink lines alone, what the embedded lab reads off
// its engine: the counts of meter.Stats, the event-time watermark, and the windows not
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
//   - Open holds, per window and tenant, the traced records whose window has not fired
//     yet: an event-time window from the trace's event_window_end (unless the trace
//     says the record was late), a processing-time window from the minute the line was
//     read in (or the trace's processing_window_end, if the job prints one). A window
//     leaves Open when its result is printed, or a minute after the watermark (event
//     time) or the clock (processing time) passed its end without one. USD is summed
//     from the traces' usd, which the lab's job prints with each trace.
type books struct {
	stats     meter.Stats
	watermark int64
	open      map[openKey]*meter.Result
	untracked int
}

// openKey names one open window of one tenant.
type openKey struct {
	window meter.Kind
	tenant string
	end    int64
}

func newBooks() books {
	return books{watermark: meter.MinWatermark, open: make(map[openKey]*meter.Result),
		stats: meter.Stats{ForgottenUncounted: true}}
}

// add counts one result.
func (b *books) add(r *meter.Result) {
	switch r.Kind {
	case meter.TraceResult:
		t := &r.Record
		b.stats.Records++
		b.stats.RecordsUSD += t.USD
		b.watermark = max(b.watermark, t.Watermark)
		if !t.Late && t.EventWindowEnd != 0 {
			b.openAdd(meter.EventTimeResult, t.TenantID, t.EventWindowEnd, t.USD)
		}
		end := t.ProcessingWindowEnd
		if end == 0 {
			end = minuteEnd(t.Arrival)
		}
		b.openAdd(meter.ProcessingTimeResult, t.TenantID, end, t.USD)
	case meter.LateResult:
		b.stats.Late++
		b.stats.LateUSD += r.Record.USD
		b.watermark = max(b.watermark, r.Record.Watermark)
	case meter.ProcessingTimeResult:
		b.stats.ProcessingFired++
		b.stats.ProcessingUSD += r.Minute.USD
		delete(b.open, openKey{meter.ProcessingTimeResult, r.Minute.TenantID, r.Minute.WindowEnd})
	case meter.EventTimeResult:
		b.watermark = max(b.watermark, r.Minute.WindowEnd-1)
		b.stats.EventFired++
		b.stats.EventUSD += r.Minute.USD
		delete(b.open, openKey{meter.EventTimeResult, r.Minute.TenantID, r.Minute.WindowEnd})
	}
}

func (b *books) openAdd(window meter.Kind, tenant string, end int64, usd float64) {
	k := openKey{window, tenant, end}
	w := b.open[k]
	if w == nil {
		if len(b.open) >= maxOpen {
			b.untracked++
			return
		}
		w = &meter.Result{Kind: meter.PendingResult, Window: window}
		w.Minute.TenantID, w.Minute.WindowStart, w.Minute.WindowEnd = tenant, end-meter.Minute, end
		b.open[k] = w
	}
	w.Minute.USD += usd
	w.Minute.Requests++
}

// prune forgets windows a minute past due that never printed a result.
func (b *books) prune(now int64) {
	for k := range b.open {
		if k.window == meter.EventTimeResult && b.watermark != meter.MinWatermark && k.end+meter.Minute <= b.watermark ||
			k.window == meter.ProcessingTimeResult && k.end+meter.Minute <= now {
			delete(b.open, k)
		}
	}
}

// openWindows prunes, then returns the open windows, processing time first, then by
// window end and tenant, as the embedded engine orders them.
func (b *books) openWindows(now int64) []meter.Result {
	b.prune(now)
	if len(b.open) == 0 {
		return nil
	}
	out := make([]meter.Result, 0, len(b.open))
	for _, w := range b.open {
		out = append(out, *w)
	}
	slices.SortFunc(out, func(x, y meter.Result) int {
		return cmp.Or(cmp.Compare(x.Window, y.Window), cmp.Compare(x.Minute.WindowEnd, y.Minute.WindowEnd),
			cmp.Compare(x.Minute.TenantID, y.Minute.TenantID))
	})
	return out
}

// minuteEnd is the end of the epoch-aligned minute that holds ms (TumblingEventTimeWindows
// of one minute, as the lab's job windows), before the epoch too: Go's % truncates.
func minuteEnd(ms int64) int64 {
	start := ms - ms%meter.Minute
	if ms%meter.Minute < 0 {
		start -= meter.Minute
	}
	return start + meter.Minute
}

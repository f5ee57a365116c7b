package enginejob

import (
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/watermark"

	"github.com/labtui/labtui/internal/engine"
	"github.com/labtui/labtui/internal/gateway"
)

// Job is GatewayMeter on the embedded engine. Feed it with ProcessValue or ProcessEvent
// after moving processing time with Advance; it writes every Result to its sink as it
// happens. A Job is driven from one goroutine.
type Job struct {
	opts     jobspec.Options
	rt       *engine.Runtime
	sink     func(jobspec.Result)
	parser   gateway.Parser
	stats    jobspec.Stats
	assign   *engine.TimestampAssigner[sourceEvent] // watermarks after the parse, or nil
	atSource *engine.SourceAssigner[sourceEvent]    // watermarks on the source, or nil
	assemble *engine.KeyedProcess[pendingHalf, sourceEvent, Request]
	procWin  *windowOp
	eventWin *windowOp
	source   engine.Record[sourceEvent] // the record ProcessEvent lends to the chain
}

type windowOp = engine.WindowOperator[Request, costAcc, costAcc, gateway.TenantCostMinute]

// New wires a Job on rt. sink receives every Result, synchronously, in the order the
// job produces them.
func New(rt *engine.Runtime, opts jobspec.Options, sink func(jobspec.Result)) (*Job, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	opts = opts.WithDefaults()
	j := &Job{opts: opts, rt: rt, sink: sink}
	var err error
	j.procWin, err = engine.NewWindowOperator(rt, engine.Tumbling{Domain: engine.ProcessingTime, Size: opts.WindowSize},
		tenantOf, engine.AggregateFunction[Request, costAcc, costAcc](&tenantCost{}), emitTenantCostMinute,
		engine.Output[gateway.TenantCostMinute](windowSink{j, jobspec.ProcessingTimeResult}), nil)
	if err != nil {
		return nil, err
	}
	j.procWin.NumberedBy(tenantNo)
	j.eventWin, err = engine.NewWindowOperator(rt, engine.Tumbling{Domain: engine.EventTime, Size: opts.WindowSize},
		tenantOf, engine.AggregateFunction[Request, costAcc, costAcc](&tenantCost{}), emitTenantCostMinute,
		engine.Output[gateway.TenantCostMinute](windowSink{j, jobspec.EventTimeResult}), j.onLate)
	if err != nil {
		return nil, err
	}
	j.eventWin.NumberedBy(tenantNo)
	var records engine.Output[Request] = &windowsOf{j.procWin, j.eventWin}
	if opts.Trace {
		records = &tap{j: j, out: records}
	}
	if opts.Timestamp == jobspec.StartedTS {
		records = engine.NewTimestampAssigner(rt, opts.Watermarks, startedTS, records)
	}
	asm := &requestAssembler{prices: priceCache{table: opts.Prices}, forgetAfter: opts.ForgetAfter.Or(jobspec.DefaultForgetAfter), stats: &j.stats,
		maxPending: jobspec.MaxPendingHalves}
	j.assemble = engine.NewKeyedProcess(requestID, engine.KeyedProcessFunction[pendingHalf, sourceEvent, Request](asm), records).
		HashedBy(requestIDHash)
	if opts.Watermarks.At == watermark.Source {
		j.atSource = engine.NewSourceAssigner(rt, opts.Watermarks, eventTS, engine.Output[sourceEvent](j.assemble))
	} else {
		j.assign = engine.NewTimestampAssigner(rt, opts.Watermarks, eventTS, engine.Output[sourceEvent](j.assemble))
	}
	return j, nil
}

func eventTS(e *sourceEvent, _ int64) int64 { return e.TS }
func startedTS(r *Request, _ int64) int64   { return r.StartedTS }

// Options returns the options the job runs with, defaults filled in.
func (j *Job) Options() jobspec.Options { return j.opts }

// Advance moves processing time to now, firing every timer due before it.
func (j *Job) Advance(now int64) { j.rt.AdvanceTo(now) }

// Runtime returns the job's processing-time service, for a driver that sleeps until the
// next timer is due.
func (j *Job) Runtime() *engine.Runtime { return j.rt }

// Now returns the job's processing time.
func (j *Job) Now() int64 { return j.rt.Now() }

// ProcessValue parses one record value and processes it. A malformed value, an event for
// a model the price table does not know, or one whose ts has no window a long holds
// (gateway.CheckWindow), is counted and returned as an error wrapping
// gateway.ErrMalformed; the job goes on.
func (j *Job) ProcessValue(partition int32, value []byte, kafkaTimestamp int64) error {
	ev, err := j.parser.Parse(value)
	return j.ProcessParsed(partition, &ev, err, kafkaTimestamp)
}

// ProcessParsed processes an event parsed elsewhere (a source thread parsing ahead of
// the job, say) with the parse error, if any: it does what ProcessValue does after
// parsing, counting and returning a malformed event's error.
//
// A malformed value is dropped before any watermark generator sees it, at the source too
// (the deserializer skips it): it is no activity of its partition.
func (j *Job) ProcessParsed(partition int32, ev *gateway.Event, parseErr error, kafkaTimestamp int64) error {
	err := parseErr
	if err == nil {
		err = j.checkPriced(ev)
	}
	if err == nil {
		err = gateway.CheckWindow(ev.TS, j.opts.WindowSize)
	}
	if err != nil {
		j.stats.Malformed++
		return err
	}
	j.ProcessEvent(partition, ev, kafkaTimestamp)
	return nil
}

func (j *Job) checkPriced(ev *gateway.Event) error {
	return j.opts.Prices.Check(ev.Model)
}

// ProcessEvent processes one parsed event of a partition whose model is priced. The job
// copies what it keeps of ev. The partition only matters with watermarks at the source.
func (j *Job) ProcessEvent(partition int32, ev *gateway.Event, kafkaTimestamp int64) {
	j.stats.Events++
	j.source.Value.Event, j.source.Value.KafkaTimestamp, j.source.Timestamp = ev, kafkaTimestamp, kafkaTimestamp
	if j.atSource != nil {
		j.atSource.CollectFrom(partition, &j.source)
		return
	}
	j.assign.Collect(&j.source)
}

// Drain emits the maximum watermark, as a finished bounded source or `flink stop --drain`
// does: every event-time window fires.
func (j *Job) Drain() {
	if j.atSource != nil {
		j.atSource.EmitWatermark(engine.MaxWatermark)
		return
	}
	j.assign.EmitWatermark(engine.MaxWatermark)
}

// Partitions returns, with watermarks at the source, every partition's own watermark and
// whether it is idle, in partition order: which one holds the source's minimum back. It is
// nil with watermarks after the parse.
func (j *Job) Partitions() []jobspec.PartitionWatermark {
	if j.atSource == nil {
		return nil
	}
	var ps []jobspec.PartitionWatermark
	for _, s := range j.atSource.Splits() {
		ps = append(ps, jobspec.PartitionWatermark{Partition: s.Split, Watermark: s.Watermark, Records: s.Records, Idle: s.Idle})
	}
	return ps
}

// Watermark returns the event-time window's current watermark.
func (j *Job) Watermark() int64 { return j.eventWin.Watermark() }

// Stats returns the counters so far.
func (j *Job) Stats() jobspec.Stats { return j.stats }

// PendingRequests returns how many requests wait for their other half.
func (j *Job) PendingRequests() int { return j.assemble.Keys() }

// OpenWindows returns every window not yet fired, with its running total, as
// PendingResults sorted by window, then tenant, processing time first.
func (j *Job) OpenWindows() []jobspec.Result {
	var rs []jobspec.Result
	for _, w := range []struct {
		op   *windowOp
		kind jobspec.Kind
	}{{j.procWin, jobspec.ProcessingTimeResult}, {j.eventWin, jobspec.EventTimeResult}} {
		for _, ow := range w.op.OpenWindows() {
			rs = append(rs, jobspec.Result{Kind: jobspec.PendingResult, At: j.rt.Now(), Window: w.kind,
				Minute: emitTenantCostMinute(ow.Key, ow.Window, ow.Result)})
		}
	}
	sortPending(rs)
	return rs
}

func (j *Job) onLate(rec *engine.Record[Request], wm int64) {
	j.stats.Late++
	j.stats.LateUSD += rec.Value.USD
	j.sink(jobspec.Result{Kind: jobspec.LateResult, At: j.rt.Now(), Record: jobspec.RecordTrace{
		RequestID: rec.Value.RequestID, TenantID: rec.Value.TenantID, Gateway: rec.Value.Gateway,
		Timestamp: rec.Timestamp, KafkaTimestamp: rec.Value.KafkaTimestamp, Arrival: j.rt.Now(),
		Watermark: wm, EventWindowEnd: j.eventWin.WindowFor(rec.Timestamp).End,
		ProcessingWindowEnd: j.procWin.WindowFor(rec.Timestamp).End, Late: true, USD: rec.Value.USD,
	}})
}

// windowSink turns a window's output into Results of one kind.
type windowSink struct {
	j    *Job
	kind jobspec.Kind
}

func (s windowSink) Collect(rec *engine.Record[gateway.TenantCostMinute]) {
	if s.kind == jobspec.ProcessingTimeResult {
		s.j.stats.ProcessingFired++
		s.j.stats.ProcessingUSD += rec.Value.USD
	} else {
		s.j.stats.EventFired++
		s.j.stats.EventUSD += rec.Value.USD
	}
	s.j.sink(jobspec.Result{Kind: s.kind, At: s.j.rt.Now(), Minute: rec.Value})
}

func (windowSink) EmitWatermark(int64) {}

// windowsOf hands every record and watermark to both windows, processing time first:
// the records stream consumed by two window operators.
type windowsOf [2]*windowOp

func (w *windowsOf) Collect(rec *engine.Record[Request]) {
	w[0].Collect(rec)
	w[1].Collect(rec)
}

func (w *windowsOf) EmitWatermark(wm int64) {
	w[0].EmitWatermark(wm)
	w[1].EmitWatermark(wm)
}

// tap, when the job traces, sits where the records stream splits into the two windows
// and writes a trace of each record as both windows are about to see it.
type tap struct {
	j   *Job
	out engine.Output[Request]
}

func (t *tap) Collect(rec *engine.Record[Request]) {
	j := t.j
	j.sink(jobspec.Result{Kind: jobspec.TraceResult, At: j.rt.Now(), Record: jobspec.RecordTrace{
		RequestID: rec.Value.RequestID, TenantID: rec.Value.TenantID, Gateway: rec.Value.Gateway,
		Timestamp: rec.Timestamp, KafkaTimestamp: rec.Value.KafkaTimestamp, Arrival: j.rt.Now(),
		Watermark: j.eventWin.Watermark(), EventWindowEnd: j.eventWin.WindowFor(rec.Timestamp).End,
		ProcessingWindowEnd: j.procWin.WindowFor(rec.Timestamp).End, Late: j.eventWin.IsLate(rec.Timestamp),
		USD: rec.Value.USD,
	}})
	t.out.Collect(rec)
}

func (t *tap) EmitWatermark(wm int64) { t.out.EmitWatermark(wm) }

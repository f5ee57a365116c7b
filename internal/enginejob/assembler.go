package enginejob

import (
	"github.com/labtui/labtui/internal/jobspec"
	"math"

	"github.com/labtui/labtui/internal/engine"
	"github.com/labtui/labtui/internal/gateway"
)

// sourceEvent is a parsed event with the Kafka record timestamp it arrived with. The
// event is the caller's, lent for the call as the record is: whatever keeps it copies it.
type sourceEvent struct {
	*gateway.Event
	KafkaTimestamp int64
}

// Request is an assembled RequestRecord as it flows to the windows: with its cost, priced
// once, and the Kafka timestamp of the event that completed it.
type Request struct {
	gateway.RequestRecord
	USD            float64
	KafkaTimestamp int64
	// TenantNo and ModelNo are the events' numbers for the tenant and the model
	// (gateway.NameNo), or zero.
	TenantNo, ModelNo gateway.NameNo
}

// pendingHalf is the RequestAssembler's state for one request_id: the half that came
// first and the forget timer registered for it.
type pendingHalf struct {
	half  gateway.Event
	timer int64
}

// requestAssembler is the lab's RequestAssembler, a KeyedProcessFunction keyed by
// request_id. The first half of a request is kept, with an event-time timer at its
// timestamp plus forgetAfter; the other half, in either order, completes it: the record
// is emitted with the timestamp of the completing event, the state cleared and the timer
// deleted. A second copy of the half already kept is ignored. When the timer fires with
// the half still kept, the request is forgotten, so state stays bounded in event time.
//
// The timer bounds only halves spread out in event time: ten million request ids that
// never complete, all within a minute, would all be kept (about 600 bytes each). So at
// most maxPending halves are kept at once; a first half that arrives when that many
// are kept is dropped and counted in Stats.Overflowed (its other half, when it comes,
// is then a first half itself). Flink keeps them all, in state that spills to disk.
type requestAssembler struct {
	prices      priceCache
	forgetAfter int64
	stats       *jobspec.Stats
	// pending is how many halves are kept, maxPending the most that may be.
	pending, maxPending int
}

func (a *requestAssembler) ProcessElement(ctx *engine.KeyedContext[pendingHalf, Request], e *sourceEvent) {
	p, ok := ctx.Value()
	if !ok {
		if a.pending >= a.maxPending {
			a.stats.Overflowed++
			return
		}
		a.pending++
		timer := ctx.Timestamp() + a.forgetAfter
		if ctx.Timestamp() > math.MaxInt64-a.forgetAfter {
			timer = math.MaxInt64
		}
		p = ctx.Set()
		p.half, p.timer = *e.Event, timer
		ctx.RegisterEventTimeTimer(timer)
		return
	}
	if p.half.Type == e.Type {
		a.stats.Duplicates++
		return
	}
	// The record is built in place where the context emits it from; the state it is
	// built from is cleared only after.
	r := ctx.Next()
	started := join(&r.RequestRecord, &p.half, e.Event)
	r.TenantNo, r.ModelNo = started.TenantNo, started.ModelNo
	r.USD = a.prices.cost(&r.RequestRecord, r.ModelNo) // both halves' models were priced at parse time
	r.KafkaTimestamp = e.KafkaTimestamp
	ctx.DeleteEventTimeTimer(p.timer)
	ctx.Clear()
	a.pending--
	a.stats.Records++
	a.stats.RecordsUSD += r.USD
	ctx.Emit()
}

// join is gateway.Join of two halves known to be one RequestStarted and one
// RequestCompleted of the same request, written into r without copying either half. It
// returns the RequestStarted, whose tenant and model the record takes.
func join(r *gateway.RequestRecord, a, b *gateway.Event) *gateway.Event {
	started, completed := a, b
	if a.Type == gateway.RequestCompleted {
		started, completed = b, a
	}
	*r = gateway.RequestRecord{
		RequestID:        started.RequestID,
		TenantID:         started.TenantID,
		Model:            started.Model,
		Gateway:          started.Gateway,
		StartedTS:        started.TS,
		CompletedTS:      completed.TS,
		PromptTokens:     started.PromptTokens,
		CompletionTokens: completed.CompletionTokens,
	}
	return started
}

func (a *requestAssembler) OnTimer(ctx *engine.KeyedContext[pendingHalf, Request], ts int64) {
	if p, ok := ctx.Value(); ok && p.timer == ts {
		ctx.Clear()
		a.pending--
		a.stats.Forgotten++
	}
}

// tenantCost is the course's TenantCost AggregateFunction: accumulator (usd, requests).
type tenantCost struct{}

type costAcc struct {
	usd      float64
	requests int64
}

func (*tenantCost) CreateAccumulator() costAcc { return costAcc{} }
func (*tenantCost) Add(r *Request, acc costAcc) costAcc {
	return costAcc{acc.usd + r.USD, acc.requests + 1}
}
func (*tenantCost) GetResult(acc costAcc) costAcc { return acc }
func (*tenantCost) Merge(a, b costAcc) costAcc {
	return costAcc{a.usd + b.usd, a.requests + b.requests}
}

// emitTenantCostMinute is EmitTenantCostMinute: it stamps tenant and window on the result.
func emitTenantCostMinute(tenant string, w engine.TimeWindow, acc costAcc) gateway.TenantCostMinute {
	return gateway.TenantCostMinute{TenantID: tenant, WindowStart: w.Start, WindowEnd: w.End, USD: acc.usd, Requests: acc.requests}
}

func requestID(e *sourceEvent) string               { return e.RequestID }
func requestIDHash(e *sourceEvent) (string, uint64) { return e.RequestID, e.IDHash }
func tenantOf(r *Request) string                    { return r.TenantID }
func tenantNo(r *Request) (string, uint32)          { return r.TenantID, uint32(r.TenantNo) }

package generator

import (
	"context"
	"time"

	"github.com/labtui/labtui/internal/gateway"
	"github.com/twmb/franz-go/pkg/kgo"
)

// instance is one gateway: its producer, its counts, and what its release loop reuses.
type instance struct {
	client     *kgo.Client
	topic      string
	produceCtx context.Context
	counters   counters
	promise    func(*kgo.Record, error)
	// encoder and arena belong to the release loop.
	encoder *encoder
	arena   arena
	// stall is the fleet's stalled partition; skipped holds the requests it kept from
	// starting whose RequestCompleted has not come yet, so that half is not made either.
	stall   *stallState
	skipped map[string]struct{}
	// observe, if set, sees each event produced (WithObserver).
	observe func(gateway.Event)
	// behind, if set, hears when the loop falls behind and catches up (WithBehind);
	// late says it is behind now.
	behind func(behind bool, lag time.Duration)
	late   bool
}

func newInstance(cl *kgo.Client, topic string, produceCtx context.Context) *instance {
	in := &instance{client: cl, topic: topic, produceCtx: produceCtx}
	in.promise = func(_ *kgo.Record, err error) { in.counters.settle(err) }
	return in
}

// release produces the stream's events, each when the clock reaches its ts, until ctx
// is done or, if untilMs is not zero, the next event is due at untilMs or later.
func (in *instance) release(ctx context.Context, clock Clock, s *stream, untilMs int64) {
	stop := ctx.Done()
	in.encoder = newEncoder(s.kinds())
	for {
		select {
		case <-stop:
			return
		default:
		}
		ev, kind := s.next()
		if untilMs != 0 && ev.TS >= untilMs {
			return
		}
		now, due := clock.Now(), time.UnixMilli(ev.TS)
		if due.After(now) {
			if in.late {
				in.late = false
				in.behind(false, 0)
			}
			if clock.SleepUntil(ctx, due) != nil {
				return
			}
		} else if lag := now.Sub(due); lag > behindAfter && !in.late && in.behind != nil {
			in.late = true
			in.behind(true, lag)
		}
		if in.stalls(ev) {
			continue
		}
		in.produce(ev, kind)
	}
}

// stalls reports whether ev is not to be made: a RequestStarted whose partition is
// stalled when it is due, or the RequestCompleted of a request kept from starting so.
func (in *instance) stalls(ev gateway.Event) bool {
	if ev.Type == gateway.RequestCompleted {
		if _, ok := in.skipped[ev.RequestID]; ok {
			delete(in.skipped, ev.RequestID)
			return true
		}
		return false
	}
	if in.stall == nil || !in.stall.skips(ev.RequestID, []byte(ev.RequestID)) {
		return false
	}
	if in.skipped == nil {
		in.skipped = make(map[string]struct{})
	}
	in.skipped[ev.RequestID] = struct{}{}
	in.counters.stalled.Add(1)
	return true
}

// produce hands one event to the producer. Its record, value and key are carved from
// the loop's arena.
func (in *instance) produce(ev gateway.Event, kind int) {
	c := &in.counters
	if ev.Type == gateway.RequestStarted {
		c.requests.Add(1)
	}
	r := in.arena.record()
	dst := in.arena.free()
	buf := in.encoder.appendEvent(dst, ev, kind)
	n := len(buf)
	buf = append(buf, ev.RequestID...)
	in.arena.used(dst, buf)
	r.Topic = in.topic
	r.Key = buf[n:len(buf):len(buf)]
	r.Value = buf[:n:n]
	r.Timestamp = time.UnixMilli(ev.TS)
	c.produced.Add(1)
	in.client.Produce(in.produceCtx, r, in.promise)
	if in.observe != nil {
		in.observe(ev)
	}
}

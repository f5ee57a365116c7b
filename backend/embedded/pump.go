package embedded

import (
	"context"
	"time"

	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/engine"
	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"
)

// pump sends, every StatusEvery, the results collected since the last update with a
// fresh status. It never blocks the job: when the reader falls behind, results are
// dropped and counted.
func (l *Lab) pump(ctx context.Context) {
	defer close(l.pumpDone)
	backend.Pump(ctx, l.cfg.StatusEvery, l.flush)
}

func (l *Lab) flush() {
	l.mu.Lock()
	u := backend.Update{Run: l.runs, Results: l.batch, Dropped: l.dropped}
	l.batch, l.dropped = nil, 0
	logs := l.logs
	l.logs = nil
	l.mu.Unlock()
	st := l.Status()
	u.Status = &st
	for _, line := range logs {
		l.send(backend.Update{Log: line})
	}
	if !l.send(u) {
		l.mu.Lock()
		l.dropped += len(u.Results)
		l.mu.Unlock()
	}
}

// send delivers u unless the reader is a full channel behind.
func (l *Lab) send(u backend.Update) bool {
	select {
	case l.updates <- u:
		return true
	default:
		return false
	}
}

// Status is a snapshot of the lab.
func (l *Lab) Status() backend.Status {
	l.mu.Lock()
	job, gen, field := l.job, l.gen, l.cfg.Job.Timestamp
	l.mu.Unlock()
	st := backend.Status{Now: time.Now().UnixMilli(), Backend: "embedded", Watermark: engine.MinWatermark,
		Generator: gen != nil, Timestamp: field}
	if l.broker != nil {
		st.Broker = l.broker.Addr()
	}
	if job != nil {
		s := job.Snapshot()
		st.Watermark, st.Job, st.Open = s.Watermark, s.Stats, s.Open
	}
	totals := l.ledger.totals()
	var states []inject.State
	if l.injector != nil {
		if gen != nil {
			states = l.injector.State(gen)
		} else {
			states = l.injector.State(nil)
		}
	}
	n := l.cfg.Generator.Instances
	for i := 0; i < n; i++ {
		in := backend.Instance{Name: generator.InstanceName(i)}
		if gen != nil {
			in.Rate = l.cfg.Generator.Rate / float64(n)
		}
		if i < len(totals.Instances) {
			in.Produced, in.Acked = totals.Instances[i].Produced, totals.Instances[i].Acked
		}
		if i < len(states) {
			in.Hiccup, in.HiccupLeft, in.Held = states[i].On, states[i].Left, int(states[i].Held)
		}
		st.Instances = append(st.Instances, in)
	}
	return st
}

package labrt

import (
	"context"
	"time"
)

// StartPump starts the one goroutine that sends updates: every StatusEvery, what is
// queued, then the results collected since the last update with a fresh status. A
// backend starts it first thing in its Start, so its progress flows meanwhile; Close
// stops it. A second call does nothing.
func (rt *Runtime) StartPump() {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.pumpDone != nil || rt.closed {
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	rt.pumpStop, rt.pumpDone = stop, make(chan struct{})
	go func(done chan struct{}) {
		defer close(done)
		t := time.NewTicker(rt.cfg.StatusEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				rt.logHiccupEnds()
				st := rt.Status()
				rt.out.flush(&st)
			}
		}
	}(rt.pumpDone)
}

package labrt

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"
	"github.com/labtui/labtui/internal/backend"
)

// errNoBroker is SetGenerator before the backend said where Kafka is.
var errNoBroker = errors.New("the lab has no broker yet: start it first")

// SetGenerator starts (true) or stops (false) the gateway fleet. A fleet started again
// starts a new schedule (the seed bumped by one each start, so new request ids) from
// now. After a replay, starting it first sends the job back to the live topic, from its
// latest offsets (a CauseLive restart). Stopping waits up to a minute for what the
// instances hold and adds their counts to the totals.
func (rt *Runtime) SetGenerator(on bool) error {
	if err := rt.Ready(); err != nil && on {
		return err
	}
	rt.genMu.Lock()
	defer rt.genMu.Unlock()
	if !on {
		return rt.stopGenerator()
	}
	rt.mu.Lock()
	running, spec, live, brokers := rt.gen != nil, rt.spec, rt.live, rt.brokers
	rt.mu.Unlock()
	switch {
	case running:
		return nil
	case len(brokers) == 0:
		return errNoBroker
	}
	if spec.Topic != live {
		spec.Topic, spec.StartAt = live, Latest
		ctx, cancel := rt.bound(context.Background())
		err := rt.Restart(ctx, backend.Restart{Cause: backend.CauseLive, Reason: "back to the live topic"}, spec)
		cancel()
		if err != nil {
			return err
		}
	}
	cfg := rt.cfg.Generator
	cfg.Brokers, cfg.Topic = brokers, live
	rt.mu.Lock()
	cfg.Seed += int64(rt.genRuns)
	rt.genRuns++
	rt.mu.Unlock()
	g, err := generator.New(cfg, generator.WithObserver(rt.ledger.observe), generator.WithDialer(rt.injector.Dialer),
		generator.WithBehind(func(i int, behind bool, lag time.Duration) {
			if behind {
				rt.Logf("generator: %s is %s behind its schedule: this machine does not keep up with %.0f requests/s; its events still come, in order, late",
					generator.InstanceName(i), lag.Round(100*time.Millisecond), cfg.Rate)
			} else {
				rt.Logf("generator: %s is on schedule again", generator.InstanceName(i))
			}
		}))
	if err != nil {
		return fmt.Errorf("start the generator: %w", err)
	}
	if err := g.Start(context.Background()); err != nil {
		g.Stop(context.Background())
		return fmt.Errorf("start the generator: %w", err)
	}
	rt.mu.Lock()
	closed := rt.closed
	if !closed {
		rt.gen = g
		rt.ledger.attach(g)
	}
	rt.mu.Unlock()
	if closed {
		g.Stop(context.Background())
		return ErrClosed
	}
	rt.Logf("generator on: %d instances, %.0f requests/s, to %s at %s", cfg.Instances, cfg.Rate, live, brokers[0])
	return nil
}

// stopGenerator stops the fleet and retires its counts; its caller holds genMu.
func (rt *Runtime) stopGenerator() error {
	rt.mu.Lock()
	g := rt.gen
	rt.gen = nil
	rt.mu.Unlock()
	if g == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := g.Stop(ctx)
	rt.ledger.retire(g)
	rt.Logf("generator stopped")
	if err != nil {
		return fmt.Errorf("stop the generator: %w", err)
	}
	return nil
}

// Inject holds one gateway instance's produce requests for d: its connections to Kafka
// drop and its dials are refused, as in a broker hiccup.
func (rt *Runtime) Inject(instance string, d time.Duration) error {
	hold, err := rt.injector.StartNamed(instance, d)
	if err != nil {
		return err
	}
	rt.Logf("%s", hold)
	return nil
}

// logHiccupEnds says which hiccups have ended since it was last called, by hand or on
// schedule.
func (rt *Runtime) logHiccupEnds() {
	for _, e := range rt.injector.Ended() {
		rt.Logf("%s", e)
	}
}

// startPlan checks the configured hiccups and runs them from now, logging each.
func (rt *Runtime) startPlan() error {
	plan := rt.cfg.Hiccups
	if err := rt.injector.Check(plan); err != nil {
		return err
	}
	if err := rt.checkStalls(); err != nil {
		return err
	}
	if len(plan) == 0 && len(rt.cfg.Stalls) == 0 {
		return nil
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	rt.mu.Lock()
	rt.planStop, rt.planDone = stop, done
	rt.mu.Unlock()
	start := rt.cfg.Now()
	go func() {
		defer close(done)
		stalls := make(chan struct{})
		go func() { defer close(stalls); rt.startStalls(ctx, start) }()
		// Check passed above, so the plan ends only when it is done or cancelled.
		rt.injector.Run(ctx, start, plan, func(_ inject.Hiccup, hold inject.Hold) { rt.Logf("%s", hold) })
		<-stalls
	}()
	for _, h := range plan {
		at := h.StartsAt(start)
		rt.Logf("hiccup scheduled: %s (at %s, %s after start, for %s, until %s)", h,
			at.Format("15:04:05"), at.Sub(start).Round(time.Second), h.For, at.Add(h.For).Format("15:04:05"))
	}
	return nil
}

// StopFleet ends the hiccup schedule and every hiccup, then stops the generator,
// waiting for what its instances hold: the first step of a backend's Close.
func (rt *Runtime) StopFleet() error {
	rt.mu.Lock()
	stop, done := rt.planStop, rt.planDone
	rt.planStop = nil
	rt.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
	rt.injector.StopAll()
	rt.logHiccupEnds()
	rt.genMu.Lock()
	defer rt.genMu.Unlock()
	return rt.stopGenerator()
}

// Totals is what the fleet generated, over every start of the generator.
func (rt *Runtime) Totals() Totals { return rt.ledger.totals() }

// instances is the fleet's part of a status.
func (rt *Runtime) instances() []backend.Instance {
	rt.mu.Lock()
	gen := rt.gen
	rt.mu.Unlock()
	totals := rt.ledger.totals()
	var states []inject.State
	if gen != nil {
		states = rt.injector.State(gen)
	} else {
		states = rt.injector.State(nil)
	}
	n := rt.cfg.Generator.Instances
	out := make([]backend.Instance, 0, n)
	for i := range n {
		in := backend.Instance{Name: generator.InstanceName(i)}
		if gen != nil {
			in.Rate = rt.cfg.Generator.Rate / float64(n)
		}
		if i < len(totals.Instances) {
			in.Produced, in.Acked = totals.Instances[i].Produced, totals.Instances[i].Acked
		}
		if i < len(states) {
			in.Hiccup, in.HiccupLeft, in.Held = states[i].On, states[i].Left, int(states[i].Held)
		}
		out = append(out, in)
	}
	return out
}

package compose

import (
	"context"
	"fmt"
	"time"

	"github.com/labtui/labtui/backend"
	cluster "github.com/labtui/labtui/compose"
	"github.com/labtui/labtui/generator"
)

// SetGenerator starts (true) or stops (false) labtui's gateway fleet, producing to the
// cluster's Kafka on Broker through the hiccup injector. A fleet started again starts a
// new schedule (new request ids) from now. After a replay, starting it first points the
// job back at the live topic, from its latest offsets.
func (l *Lab) SetGenerator(on bool) error {
	if !on {
		return l.stopGenerator()
	}
	if err := l.ready(); err != nil {
		return err
	}
	l.genMu.Lock()
	defer l.genMu.Unlock()
	l.mu.Lock()
	running, replaying, field := l.gen != nil, l.topic != cluster.Topic, l.field
	l.mu.Unlock()
	if running {
		return nil
	}
	if replaying {
		ctx, cancel := l.bound(context.Background())
		defer cancel()
		if err := l.restartJob(ctx, l.jobRun(cluster.Topic, "latest", field), backend.Restart{Cause: backend.CauseLive, Reason: "back to the live topic"}); err != nil {
			return err
		}
	}
	cfg := l.cfg.Generator
	l.mu.Lock()
	cfg.Seed += int64(l.genRuns)
	l.genRuns++
	l.mu.Unlock()
	g, err := generator.New(cfg, generator.WithDialer(l.injector.Dialer))
	if err != nil {
		return fmt.Errorf("start the generator: %w", err)
	}
	if err := g.Start(context.Background()); err != nil {
		g.Stop(context.Background())
		return fmt.Errorf("start the generator: %w", err)
	}
	l.mu.Lock()
	closed := l.closed
	if !closed {
		l.gen = g
	}
	l.mu.Unlock()
	if closed {
		g.Stop(context.Background())
		return errClosed
	}
	l.logf("generator started: %d instances, %.0f requests/s, producing to %s topic %s", cfg.Instances, cfg.Rate, l.cfg.Broker, cluster.Topic)
	return nil
}

// stopGenerator stops the fleet, waiting up to a minute for what it holds, and adds its
// counts to the retired totals.
func (l *Lab) stopGenerator() error {
	l.genMu.Lock()
	defer l.genMu.Unlock()
	l.mu.Lock()
	g := l.gen
	l.gen = nil
	l.mu.Unlock()
	if g == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := g.Stop(ctx)
	stats := g.Stats()
	l.mu.Lock()
	for i := range min(len(stats), len(l.retired)) {
		l.retired[i].Produced += stats[i].Produced
		l.retired[i].Acked += stats[i].Acked
	}
	l.mu.Unlock()
	l.logf("generator stopped")
	if err != nil {
		return fmt.Errorf("stop the generator: %w", err)
	}
	return nil
}

// Inject holds one gateway instance's produce requests for d: its connections to
// Kafka drop and its dials are refused, as in a broker hiccup.
func (l *Lab) Inject(instance string, d time.Duration) error {
	if err := l.injector.StartNamed(instance, d); err != nil {
		return err
	}
	l.logf("hiccup on %s for %s", instance, d)
	return nil
}

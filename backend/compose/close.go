package compose

import (
	"context"
	"errors"
	"fmt"
	"time"

	cluster "github.com/labtui/labtui/compose"
)

// Close stops a Start still running, the hiccups, the generator (waiting for what it
// holds), the log follower and the job watcher, then takes the cluster down with
// `docker compose down`, unless KeepCluster is set or `up` never ran, and closes
// Updates. A second Close does nothing.
func (l *Lab) Close() error {
	if !l.Closing() {
		return nil
	}
	l.end()
	l.startMu.Lock()
	defer l.startMu.Unlock()
	var errs []error
	errs = append(errs, l.StopFleet())
	l.bg.Wait()
	l.flink.http.CloseIdleConnections()
	l.mu.Lock()
	upRan := l.upRan
	l.mu.Unlock()
	switch {
	case !upRan:
	case l.cfg.KeepCluster:
		l.logf("the cluster keeps running (keep-cluster): `docker compose -p %s down` stops it", cluster.ProjectName)
	default:
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		p := &progress{logf: l.logf}
		if err := l.docker.stream(ctx, p.line, "down"); err != nil {
			errs = append(errs, fmt.Errorf("take the cluster down: %w", err))
		}
		cancel()
	}
	l.Runtime.Close()
	return errors.Join(errs...)
}

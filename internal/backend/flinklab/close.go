package flinklab

import (
	"context"
	"errors"
	"time"

	"github.com/labtui/labtui/internal/localcluster"
)

// Close stops a Start still running, the hiccups, the generator (waiting for what it
// holds), the output follower and the job watcher; on a shared cluster it cancels the
// job it submitted; then it stops what Up started (Platform.Down: for compose `docker
// compose down`, unless KeepCluster is set), unless Up never ran, and closes Updates.
// A second Close does nothing.
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
	l.mu.Lock()
	upRan, ep, rest, id, pos := l.upRan, l.ep, l.flink, l.jobID, l.pos
	l.mu.Unlock()
	pos.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if ep.Shared && id != "" {
		if err := localcluster.CancelJob(ctx, rest, id, l.logf); err != nil {
			errs = append(errs, err)
		}
	}
	if rest != nil {
		rest.CloseIdleConnections()
	}
	if upRan {
		if err := l.platform.Down(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	l.Runtime.Close()
	return errors.Join(errs...)
}

package backend

import (
	"context"
	"time"
)

// Pump calls flush every interval, and once more when ctx ends, then returns: how a
// backend sends its updates, the results and status gathered since the last one.
func Pump(ctx context.Context, every time.Duration, flush func()) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			flush()
			return
		case <-t.C:
			flush()
		}
	}
}

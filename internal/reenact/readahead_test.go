package reenact

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
)

// TestAnInterruptedReplayLeavesNothingReading: a replay whose context is done while it
// reads ahead returns ctx's error and counts the records it read, and the goroutines that
// read and parse for it are gone when it returns, at both paces.
func TestAnInterruptedReplayLeavesNothingReading(t *testing.T) {
	var b strings.Builder
	for i := range 200_000 {
		ts := clock(0, 0, 0) + int64(i)*10
		fmt.Fprintf(&b, `{"partition":%d,"offset":%d,"timestamp":%d,"arrival":%d,"key":"k","value":%s}`+"\n", i%3, i/3, ts, ts,
			fmt.Sprintf(`{"type":"%s","request_id":"r-%d","tenant_id":"acme","model":"flat-10c","gateway":"gw-1","ts":%d,"%s":1}`,
				[]string{"RequestStarted", "RequestCompleted"}[i%2], i/2, ts, []string{"prompt_tokens", "completion_tokens"}[i%2]))
	}
	for _, pace := range []Pace{Fast, Recorded} {
		before := runtime.NumGoroutine()
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		bad := func(int, error) {}
		cfg := Config{Pace: pace, Job: jobspec.Options{Trace: true}}
		var src Source = recording.NewReader(strings.NewReader(b.String()), nil)
		if pace == Recorded {
			// A recorded replay holds its output back until the end of the file: cancel
			// while it reads, after its job has started.
			src = &cancelAfter{src, 50, cancel}
		}
		sum, err := Run(ctx, src, cfg, func(jobspec.Result) {
			if n++; n == 10 {
				cancel()
			}
		}, bad)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%s pace: the replay ended with %v", pace, err)
		}
		if sum.Entries == 0 { // what `labtui replay` says it was interrupted after
			t.Fatalf("%s pace: an interrupted replay counts no record read", pace)
		}
		for deadline := time.Now().Add(time.Second); runtime.NumGoroutine() > before && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		if got := runtime.NumGoroutine(); got > before {
			t.Fatalf("%s pace: %d goroutines after the replay, %d before", pace, got, before)
		}
		cancel()
	}
}

// cancelAfter is a source that calls cancel once it has been read n times.
type cancelAfter struct {
	Source
	n      int
	cancel func()
}

func (c *cancelAfter) ReadLines(l *recording.Lines, maxLines, maxBytes int) error {
	if c.n--; c.n == 0 {
		c.cancel()
	}
	return c.Source.ReadLines(l, maxLines, maxBytes)
}

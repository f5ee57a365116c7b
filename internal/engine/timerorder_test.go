package engine

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// timerOp is an element that registers or deletes one event-time timer of its key.
type timerOp struct {
	key    string
	at     int64
	delete bool
}

func keyOfTimerOp(o *timerOp) string { return o.key }

// timerFn registers or deletes the element's timer and emits each firing.
type timerFn struct{}

func (timerFn) ProcessElement(ctx *KeyedContext[struct{}, string], o *timerOp) {
	if o.delete {
		ctx.DeleteEventTimeTimer(o.at)
		return
	}
	ctx.RegisterEventTimeTimer(o.at)
}

func (timerFn) OnTimer(ctx *KeyedContext[struct{}, string], ts int64) {
	ctx.Collect(fmt.Sprintf("%s@%d", ctx.Key(), ts))
}

// TestKeyedTimersFireOnceInTimeOrderThroughCompactions runs tens of thousands of timer
// registrations and deletions on a few hundred keys (registered again and again for the
// same times, most deleted, many out of time order, keys coming and going so their
// entries are reused), enough for the queue to drop its deleted timers many times, with
// watermarks in between; it checks every firing against a model of Flink's timer
// service: each live (key, time) fires exactly once, at the first watermark at or above
// its time, in time order, and no deleted timer fires.
func TestKeyedTimersFireOnceInTimeOrderThroughCompactions(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	out := &collector[string]{}
	op := NewKeyedProcess(keyOfTimerOp, KeyedProcessFunction[struct{}, timerOp, string](timerFn{}), Output[string](out))
	live := map[string]map[int64]bool{}
	wm := int64(0)
	fired, compactions := 0, 0
	for step := range 60_000 {
		key := fmt.Sprintf("k%d", rng.IntN(300))
		at := int64(step)*10 + rng.Int64N(300) // mostly in time order, as timeouts are
		if rng.IntN(20) == 0 {
			at = wm + 1 + rng.Int64N(50_000) // far out of order
		}
		if rng.IntN(10) == 0 {
			at = wm - rng.Int64N(100) // behind the watermark: fires at the next one
		}
		del := rng.IntN(3) > 0 && len(live[key]) > 0
		if del && rng.IntN(4) > 0 {
			for ts := range live[key] { // one it has, or else any time
				at = ts
				break
			}
		}
		before := op.PendingTimers()
		op.Collect(&Record[timerOp]{timerOp{key, at, del}, at})
		if op.PendingTimers() < before {
			compactions++ // deleted timers were dropped from the queue
		}
		if live[key] == nil {
			live[key] = map[int64]bool{}
		}
		if del {
			delete(live[key], at)
		} else {
			live[key][at] = true
		}
		if step%500 == 499 {
			wm = max(wm, int64(step)*10-20_000+rng.Int64N(3_000))
			if step == 59_999 {
				wm = MaxWatermark
			}
			op.EmitWatermark(wm)
			got := out.take()
			if got[len(got)-1] != fmt.Sprintf("WM(%d)", wm) {
				t.Fatalf("step %d: the watermark is not last: %q", step, got)
			}
			got = got[:len(got)-1]
			var want []string
			var due []struct {
				key string
				at  int64
			}
			for k, ts := range live {
				for at := range ts {
					if at <= wm {
						due = append(due, struct {
							key string
							at  int64
						}{k, at})
						delete(ts, at)
					}
				}
			}
			slices.SortFunc(due, func(a, b struct {
				key string
				at  int64
			}) int {
				return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.key, b.key))
			})
			for _, d := range due {
				want = append(want, fmt.Sprintf("%s@%d@%d", d.key, d.at, d.at))
			}
			// Flink orders timers by time; those due at the same time may come in any
			// order, so the firings are compared sorted, and checked to be in time order.
			last := MinWatermark
			for _, g := range got {
				if at := firingTime(g); at < last {
					t.Fatalf("step %d: %q fired after a timer at %d", step, g, last)
				} else {
					last = at
				}
			}
			sorted := slices.Clone(got)
			slices.SortFunc(sorted, func(a, b string) int { return cmp.Compare(firingKey(a), firingKey(b)) })
			if !slices.Equal(sorted, want) {
				t.Fatalf("step %d, WM(%d):\n got  %q\n want %q", step, wm, sorted, want)
			}
			fired += len(got)
		}
	}
	if fired < 3_000 || compactions < 10 || op.Keys() != 0 || op.PendingTimers() != 0 {
		t.Fatalf("%d fired, %d compactions (want 10 or more); left %d keys, %d timers", fired, compactions, op.Keys(), op.PendingTimers())
	}
}

// firingTime is the time of a firing "key@at@ts".
func firingTime(s string) int64 {
	var at int64
	fmt.Sscanf(s[strings.IndexByte(s, '@')+1:], "%d", &at)
	return at
}

// firingKey orders a firing "key@at@ts" by time, then key, as the model sorts them.
func firingKey(s string) string {
	return fmt.Sprintf("%020d %s", firingTime(s)+1<<62, s[:strings.IndexByte(s, '@')])
}

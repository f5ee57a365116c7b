package engine

import (
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/keyhash"
)

// TestKeyedProcessWithCollidingHashesKeepsKeysApart runs the timeout function with a hash
// under which every key collides, and with the keys' own hashes given by the element:
// the output is the one the operator gives hashing the keys itself.
func TestKeyedProcessWithCollidingHashesKeepsKeysApart(t *testing.T) {
	run := func(hashOf func(*kv) uint64) []string {
		out := &collector[string]{}
		op := NewKeyedProcess(keyOfKV, KeyedProcessFunction[timeoutState, kv, string](timeoutFn{gap: 100}), Output[string](out))
		if hashOf != nil {
			op.HashedBy(func(e *kv) (string, uint64) { return e.k, hashOf(e) })
		}
		for i, k := range []string{"a", "b", "c", "a", "d", "b"} {
			op.Collect(&Record[kv]{kv{k, int64(i + 1)}, int64(10 * i)})
		}
		op.EmitWatermark(125) // a's first timer was moved; b's (110) fires, c's (120) fires
		op.Collect(&Record[kv]{kv{"c", 9}, 130})
		op.EmitWatermark(1_000)
		if op.Keys() != 0 || op.PendingTimers() != 0 {
			t.Fatalf("state left: %d keys, %d timers", op.Keys(), op.PendingTimers())
		}
		return out.take()
	}
	want := run(nil)
	expect(t, "all collide", run(func(*kv) uint64 { return 42 }), want...)
	expect(t, "the keys' own hashes", run(func(e *kv) uint64 { return keyhash.String(e.k) }), want...)
	expect(t, "zero: the operator hashes", run(func(*kv) uint64 { return 0 }), want...)
	if !strings.HasPrefix(want[len(want)-2], "timeout c last=9") {
		t.Fatalf("unexpected reference output %q", want)
	}
}

// TestWindowNumbersAreOnlyHints runs the same elements through an event-time window with
// key numbers right, missing, all alike and out of bounds, with keys in shared strings and
// in strings of their own, and a key that leaves and comes back: every run gives the same
// output.
func TestWindowNumbersAreOnlyHints(t *testing.T) {
	for name, numberOf := range map[string]func(string) uint32{
		"none":          func(string) uint32 { return 0 },
		"one each":      func(k string) uint32 { return uint32(k[0]-'a') + 1 },
		"all the same":  func(string) uint32 { return 7 },
		"beyond bounds": func(k string) uint32 { return maxKeyNumber + uint32(k[0]) },
	} {
		t.Run(name, func(t *testing.T) {
			h := newWindowHarness(t, Tumbling{Domain: EventTime, Size: minute}, 0)
			nos := map[*kv]uint32{}
			h.op.NumberedBy(func(e *kv) (string, uint32) { return e.k, nos[e] })
			collect := func(k string, v, ts int64) {
				e := kv{k, v}
				if v%2 == 1 {
					e.k = strings.Clone(k)
				}
				rec := &Record[kv]{e, ts}
				nos[&rec.Value] = numberOf(k)
				h.op.Collect(rec)
			}
			collect("a", 1, 1_000)
			collect("b", 2, 2_000)
			collect("a", 4, 3_000)
			collect("c", 3, 4_000)
			collect("b", 6, 5_000)
			h.op.EmitWatermark(59_999)
			expect(t, "the first minute", h.out.take(),
				"a[0,60000)=5/2@59999", "b[0,60000)=8/2@59999", "c[0,60000)=3/1@59999", "WM(59999)")
			collect("a", 8, 61_000) // a's state was removed when its window fired: a new one
			collect("c", 5, 62_000)
			collect("a", 1, 63_000)
			h.op.EmitWatermark(MaxWatermark)
			expect(t, "the second minute", h.out.take(),
				"a[60000,120000)=9/2@119999", "c[60000,120000)=5/1@119999", "WM(9223372036854775807)")
			if len(h.op.OpenWindows()) != 0 {
				t.Fatalf("windows left: %v", h.op.OpenWindows())
			}
		})
	}
}

package engine

import (
	"fmt"
	"reflect"
	"testing"
)

// collector is an Output that writes down everything it receives, in order, the way
// Flink's operator test harnesses collect an operator's output queue.
type collector[T any] struct{ got []string }

func (c *collector[T]) Collect(rec *Record[T]) {
	c.got = append(c.got, fmt.Sprintf("%v@%d", rec.Value, rec.Timestamp))
}

func (c *collector[T]) EmitWatermark(wm int64) {
	c.got = append(c.got, fmt.Sprintf("WM(%d)", wm))
}

func (c *collector[T]) take() []string {
	got := c.got
	c.got = nil
	return got
}

func expect(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got  %q\n want %q", what, got, want)
	}
}

// kv is a keyed element for window tests.
type kv struct {
	k string
	v int64
}

func keyOfKV(e *kv) string { return e.k }

// sumAgg sums values and counts elements.
type sumAgg struct{}

type sumAcc struct{ sum, n int64 }

func (sumAgg) CreateAccumulator() sumAcc  { return sumAcc{} }
func (sumAgg) Add(e *kv, a sumAcc) sumAcc { return sumAcc{a.sum + e.v, a.n + 1} }
func (sumAgg) GetResult(a sumAcc) sumAcc  { return a }
func (sumAgg) Merge(a, b sumAcc) sumAcc   { return sumAcc{a.sum + b.sum, a.n + b.n} }
func emitSum(k string, w TimeWindow, a sumAcc) string {
	return fmt.Sprintf("%s[%d,%d)=%d/%d", k, w.Start, w.End, a.sum, a.n)
}

// windowHarness is a window operator over kv elements with a collector on its main and
// late outputs.
type windowHarness struct {
	rt   *Runtime
	op   *WindowOperator[kv, sumAcc, sumAcc, string]
	out  *collector[string]
	late []string
}

func newWindowHarness(t *testing.T, tw Tumbling, start int64) *windowHarness {
	t.Helper()
	h := &windowHarness{rt: NewRuntime(start), out: &collector[string]{}}
	op, err := NewWindowOperator(h.rt, tw, keyOfKV, AggregateFunction[kv, sumAcc, sumAcc](sumAgg{}), emitSum, Output[string](h.out),
		func(rec *Record[kv], wm int64) {
			h.late = append(h.late, fmt.Sprintf("%s:%d@%d<=WM(%d)", rec.Value.k, rec.Value.v, rec.Timestamp, wm))
		})
	if err != nil {
		t.Fatal(err)
	}
	h.op = op
	return h
}

func (h *windowHarness) element(k string, v, ts int64) { h.op.Collect(&Record[kv]{kv{k, v}, ts}) }

func (h *windowHarness) takeLate() []string {
	l := h.late
	h.late = nil
	return l
}

package timeheap

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestItemsComeOutByTimeThenByTheOrderGiven(t *testing.T) {
	var h Heap[string]
	for i, at := range []int64{30, 10, 20, 10, 30, 5} {
		h.Push(Item[string]{At: at, Seq: uint64(i), Value: string(rune('a' + i))})
	}
	if it, ok := h.Peek(); !ok || it.Value != "f" {
		t.Fatalf("Peek = %+v, %v", it, ok)
	}
	var got string
	for h.Len() > 0 {
		got += h.Pop().Value
	}
	if got != "fbdcae" {
		t.Errorf("order = %s, want fbdcae (5, 10, 10, 20, 30, 30; equal times in the order pushed)", got)
	}
	if _, ok := h.Peek(); ok {
		t.Error("an empty heap peeks an item")
	}
}

func TestAThousandRandomItemsComeOutSorted(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var h Heap[int]
	var want []Item[int]
	for i := range 1000 {
		it := Item[int]{At: r.Int64N(50), Seq: uint64(i), Value: i}
		h.Push(it)
		want = append(want, it)
	}
	slices.SortStableFunc(want, func(a, b Item[int]) int {
		if a.Before(b) {
			return -1
		}
		if b.Before(a) {
			return 1
		}
		return 0
	})
	for i, w := range want {
		if got := h.Pop(); got != w {
			t.Fatalf("item %d = %+v, want %+v", i, got, w)
		}
	}
}

func TestRetainKeepsTheOrderOfWhatItKeeps(t *testing.T) {
	var h Heap[int]
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 200 {
		h.Push(Item[int]{At: r.Int64N(40), Seq: uint64(i), Value: i})
	}
	h.Retain(func(it Item[int]) bool { return it.Value%3 != 0 })
	if h.Len() != 133 {
		t.Fatalf("Len = %d, want 133", h.Len())
	}
	prev := h.Pop()
	for h.Len() > 0 {
		it := h.Pop()
		if it.Value%3 == 0 || it.Before(prev) {
			t.Fatalf("%+v after %+v", it, prev)
		}
		prev = it
	}
}

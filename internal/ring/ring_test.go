package ring

import "testing"

func TestRingKeepsTheLatestAndCountsTheRest(t *testing.T) {
	r := New[int](3)
	for i := 1; i <= 5; i++ {
		r.Push(i)
	}
	if r.Len() != 3 || r.Dropped() != 2 {
		t.Fatalf("Len %d Dropped %d", r.Len(), r.Dropped())
	}
	for i, want := range []int{3, 4, 5} {
		if got := r.At(i); got != want {
			t.Errorf("At(%d) = %d, want %d", i, got, want)
		}
	}
}

func TestARingGrowsOnlyAsItemsArrive(t *testing.T) {
	r := New[int](1000)
	if r.Cap() != 1000 || cap(r.buf) != 0 {
		t.Fatalf("an empty ring of 1000 holds room for %d", cap(r.buf))
	}
	for i := 1; i <= 1003; i++ {
		r.Push(i)
	}
	if r.Len() != 1000 || r.Dropped() != 3 || r.At(0) != 4 || r.At(999) != 1003 || len(r.buf) != 1000 {
		t.Errorf("Len %d Dropped %d At(0) %d At(999) %d buf %d", r.Len(), r.Dropped(), r.At(0), r.At(999), len(r.buf))
	}
}

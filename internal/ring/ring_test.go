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

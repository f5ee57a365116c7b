package reenact

import (
	"testing"

	"github.com/labtui/labtui/internal/jobspec"
)

func TestChunksGiveBackEveryResultInOrderInAnArrayOfTheirNumber(t *testing.T) {
	var c chunks
	n := 2*chunkSize + 3
	for i := 0; i < n; i++ {
		c.add(jobspec.Result{At: int64(i)})
	}
	out := c.all()
	if len(out) != n || cap(out) != n {
		t.Fatalf("%d results in an array of %d, want %d", len(out), cap(out), n)
	}
	for i := range out {
		if out[i].At != int64(i) {
			t.Fatalf("result %d is %d", i, out[i].At)
		}
	}
	var empty chunks
	if empty.all() != nil {
		t.Error("no results gave an array")
	}
}

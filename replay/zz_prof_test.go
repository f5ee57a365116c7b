package replay

import (
	"context"
	"os"
	"testing"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/recording"
)

func pace() Pace { if os.Getenv("PROF_PACE") == "recorded" { return Recorded }; return Fast }

func TestProfFile(t *testing.T) {
	path := os.Getenv("PROF_FILE")
	if path == "" {
		t.Skip()
	}
	for range 3 {
		r, err := recording.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		sum, err := Run(context.Background(), r, Config{Pace: pace(), Drain: true}, func(meter.Result) {}, func(int, error) {})
		r.Close()
		t.Logf("%d in %v: %.0f/s %v", sum.Entries, sum.Elapsed, float64(sum.Entries)/sum.Elapsed.Seconds(), err)
	}
}

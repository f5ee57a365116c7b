package embedded

import (
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/backend/labrt"
)

// balanced is the summary of a run whose books balance: 10 events, 5 requests, $1.
func balanced() Summary {
	s := Summary{Consumed: 10, Records: 5, RecordsUSD: 1, ProcessingUSD: 0.75, OpenProcessingUSD: 0.25, EventUSD: 1}
	s.Produced, s.Acked, s.Requests, s.Completed, s.USD = 10, 10, 5, 5, 1
	return s
}

func TestASummaryWithNothingLostSaysEverythingIsAccountedFor(t *testing.T) {
	var b strings.Builder
	balanced().Print(&b)
	if !strings.Contains(b.String(), "every event and every dollar is accounted for") || strings.Contains(b.String(), "DROPPED") {
		t.Fatalf("summary:\n%s", b.String())
	}
}

func TestASummaryWithResultsLostSaysHowManyAndIsNotAccountedFor(t *testing.T) {
	// Given balanced books but 523 results and 2 notices that never reached the reader.
	s := balanced()
	s.Lost = labrt.Lost{Results: 523, Notices: 2}
	var b strings.Builder
	s.Print(&b)
	out := b.String()
	// Then the summary says so, with the counts, and does not say accounted for.
	for _, want := range []string{"results not delivered     523  DROPPED", "notices not delivered       2  DROPPED", "THE OUTPUT IS INCOMPLETE"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if s.balanced() || strings.Contains(out, "accounted for") {
		t.Errorf("a summary with losses balances:\n%s", out)
	}
}

func TestSummaryCountsTheRequestsAStallKeptFromBeingMade(t *testing.T) {
	var b strings.Builder
	Summary{Totals: labrt.Totals{Requests: 10, Completed: 10, Stalled: 4}}.Print(&b)
	want := "  requests generated         10  (10 completed, 0 still running at stop)\n" +
		"  requests not made           4  (their partition was stalled; not in the books)\n"
	if !strings.Contains(b.String(), want) {
		t.Fatalf("summary:\n%s\nlacks\n%s", b.String(), want)
	}
	b.Reset()
	Summary{Totals: labrt.Totals{Requests: 10, Completed: 10}}.Print(&b)
	if strings.Contains(b.String(), "not made") {
		t.Fatalf("a run without a stall says so:\n%s", b.String())
	}
}

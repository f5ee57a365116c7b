package embedded

import (
	"fmt"
	"io"
	"math"

	"github.com/labtui/labtui/internal/backend/labrt"
	"github.com/labtui/labtui/internal/jobspec"
)

// Summary is the books of a finished run: what the fleet generated and where every
// event and dollar went.
type Summary struct {
	labrt.Totals
	Consumed int64
	Records  int64
	// RecordsUSD is what the job assembled; ProcessingUSD, EventUSD and LateUSD what its
	// sinks wrote; the Open fields what sat in windows that never fired.
	RecordsUSD, ProcessingUSD, EventUSD, LateUSD float64
	OpenProcessingUSD, OpenEventUSD              float64
	Late, Malformed, PendingRequests             int64
	// Overflowed counts the request halves the job dropped on arrival, with
	// jobspec.MaxPendingHalves already waiting.
	Overflowed int64
	// Lost is what the job wrote that never reached the reader of Updates: counted
	// exactly, and the books do not balance unless it is nothing.
	Lost labrt.Lost
	// Open are the windows that never fired, as PendingResults, in the job's order.
	Open []jobspec.Result
}

// Summary returns the run's books; call it after Close.
func (l *Lab) Summary() Summary {
	f := l.job.last()
	s := Summary{Lost: l.lost, Totals: l.Totals(), Consumed: f.Consumed, Records: f.Stats.Records, RecordsUSD: f.Stats.RecordsUSD,
		ProcessingUSD: f.Stats.ProcessingUSD, EventUSD: f.Stats.EventUSD, LateUSD: f.Stats.LateUSD, Late: f.Stats.Late,
		Malformed: f.Stats.Malformed, PendingRequests: int64(f.Pending), Overflowed: f.Stats.Overflowed, Open: f.Open}
	for _, r := range f.Open {
		if r.Window == jobspec.ProcessingTimeResult {
			s.OpenProcessingUSD += r.Minute.USD
		} else {
			s.OpenEventUSD += r.Minute.USD
		}
	}
	return s
}

// balanced reports whether every produced event was consumed, every completed request
// assembled, every assembled dollar accounted for in each window, and everything the
// job wrote delivered.
func (s Summary) balanced() bool {
	return s.Lost == (labrt.Lost{}) && s.Consumed == s.Acked && s.Failed == 0 && s.Records == s.Completed &&
		same(s.RecordsUSD, s.USD) && same(s.ProcessingUSD+s.OpenProcessingUSD, s.RecordsUSD) &&
		same(s.EventUSD+s.LateUSD+s.OpenEventUSD, s.RecordsUSD)
}

func same(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func check(ok bool) string {
	if ok {
		return "balances"
	}
	return "DOES NOT BALANCE"
}

// Print writes the summary for a person, each line saying whether it balances.
func (s Summary) Print(w io.Writer) {
	fmt.Fprintf(w, "summary\n")
	fmt.Fprintf(w, "  requests generated   %8d  (%d completed, %d still running at stop)\n", s.Requests, s.Completed, s.Requests-s.Completed)
	if s.Stalled > 0 {
		fmt.Fprintf(w, "  requests not made    %8d  (their partition was stalled; not in the books)\n", s.Stalled)
	}
	fmt.Fprintf(w, "  events produced      %8d  (%d acknowledged, %d failed)\n", s.Produced, s.Acked, s.Failed)
	fmt.Fprintf(w, "  events consumed      %8d  %s with acknowledged\n", s.Consumed, check(s.Consumed == s.Acked && s.Failed == 0))
	fmt.Fprintf(w, "  records assembled    %8d  %s with completed requests (%d halves still waiting)\n", s.Records, check(s.Records == s.Completed), s.PendingRequests)
	fmt.Fprintf(w, "  USD generated        %12.6f\n", s.USD)
	fmt.Fprintf(w, "  USD assembled        %12.6f  %s with generated\n", s.RecordsUSD, check(same(s.RecordsUSD, s.USD)))
	fmt.Fprintf(w, "  processing time      %12.6f fired + %.6f in open windows = %.6f  %s\n",
		s.ProcessingUSD, s.OpenProcessingUSD, s.ProcessingUSD+s.OpenProcessingUSD, check(same(s.ProcessingUSD+s.OpenProcessingUSD, s.RecordsUSD)))
	fmt.Fprintf(w, "  event time           %12.6f fired + %.6f late (%d records) + %.6f in open windows = %.6f  %s\n",
		s.EventUSD, s.LateUSD, s.Late, s.OpenEventUSD, s.EventUSD+s.LateUSD+s.OpenEventUSD,
		check(same(s.EventUSD+s.LateUSD+s.OpenEventUSD, s.RecordsUSD)))
	if s.Overflowed > 0 {
		fmt.Fprintf(w, "  request halves dropped %6d  %d halves already waited for their other half, the most the job keeps\n",
			s.Overflowed, jobspec.MaxPendingHalves)
	}
	if s.Malformed > 0 {
		fmt.Fprintf(w, "  malformed events     %8d  skipped\n", s.Malformed)
	}
	if s.Lost.Results > 0 {
		fmt.Fprintf(w, "  results not delivered %7d  DROPPED: the reader fell behind; they are missing from the output\n", s.Lost.Results)
	}
	if s.Lost.Notices > 0 {
		fmt.Fprintf(w, "  notices not delivered %7d  DROPPED at close: restarts, progress or log lines\n", s.Lost.Notices)
	}
	switch {
	case s.balanced():
		fmt.Fprintf(w, "  every event and every dollar is accounted for\n")
	case s.Lost != (labrt.Lost{}):
		fmt.Fprintf(w, "  THE OUTPUT IS INCOMPLETE: see the lines above\n")
	default:
		fmt.Fprintf(w, "  THE BOOKS DO NOT BALANCE: see the lines above\n")
	}
}

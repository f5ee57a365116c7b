package session

import (
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/skew"
)

// SkewOptions singles out the run's latest hiccup for its skew picture: its instance's
// dots, its start and the flush when it ended. A replay reads the recording long after it
// was made, so every record arrives far behind its timestamp: its held gateway is the one
// held in the live run, as the completed_ts reference run of the recording shows it, when
// that has been worked out (withRef); else none.
func (s *Session) SkewOptions(run *Run) (o skew.Options, withRef bool) {
	if h, ok := run.lastHiccup(); ok {
		o.Held, o.Hiccup, o.Flush = h.Instance, h.From, h.To
		return o, false
	}
	if !run.Replay {
		return o, false
	}
	o.Far = NoneHeld
	// Under started_ts every long request arrives long after its timestamp: only the
	// completed_ts reference tells a held record.
	if held, ok := s.heldInReference(s.RecordingOf(run), jobspec.CompletedTS); ok {
		o.Held = held
		return o, true
	}
	return o, false
}

// NoneHeld is a Far no record arrives behind its timestamp by: no gateway is held.
const NoneHeld int64 = 1 << 62

// heldIn returns the gateway held apart in a run's output, as the skew picture finds it
// with its default threshold.
func heldIn(results []jobspec.Result) string { return skew.HeldGateway(results, skew.DefaultFar) }

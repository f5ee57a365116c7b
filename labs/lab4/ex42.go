package lab4

import (
	"fmt"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/state"
)

func hiccupSentence(run state.RunRef, h state.HiccupFacts) string {
	arrived := "at " + seconds(h.FirstArrival)
	if seconds(h.FirstArrival) != seconds(h.LastArrival) {
		arrived = seconds(h.FirstArrival) + "–" + seconds(h.LastArrival)
	}
	x := h.Example
	return fmt.Sprintf("In %s, %s was held %s–%s, across the %s boundary: %s of its records ($%.4f) arrived %s behind the watermark "+
		"and the event-time window dropped them as late (%s, timestamp %s, met a watermark of %s); processing time billed them in the minute they arrived.",
		RunName(run), h.Instance, seconds(h.From), seconds(h.To), hhmm(h.To-h.To%60000), Count(int64(h.Late)), h.USD, arrived,
		x.RequestID, meter.Clock(x.Timestamp), meter.Clock(x.Watermark))
}

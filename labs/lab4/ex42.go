package lab4

import (
	"fmt"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/state"
)

// ex42 is exercise 4.2: the course's text and questions, and how it is done in labtui.
var ex42 = Exercise{
	ID: Hiccup,
	Instruction: "Inject the 30-second retry delay for one gateway instance. Reproduce the table above " +
		"from the two outputs, and record whether the event-time window still receives the burst " +
		"under for_monotonous_timestamps() — and what the operator's event time was when r-103 arrived.",
	Evidence: "a hiccup whose hold crossed a minute boundary and made the event-time window drop records as late " +
		"under for_monotonous_timestamps(), taken once both windows closed the minute the hold ended in: " +
		"the late records, the watermark each met, and both columns for the minutes it touched",
	Questions: []Question{
		{ID: "4.2a", Prompt: "Does the event-time window still receive the burst under for_monotonous_timestamps()?"},
		{ID: "4.2b", Prompt: "What was the operator's event time (its watermark) when the r-103-style late records arrived?"},
	},
	Guide: Guide{
		Uses:  []string{"i", "m", "l", "w"},
		Title: "a hiccup bills the burst to the wrong minute",
		Keys:  "i enter, m, l, w",
		Short: "Press i, then enter: gw-1 is held 35 s from the next second :40, across a minute. m marks it; l lists the late records once both minutes close.",
		Do: "Press i, then enter: the picker's default holds gw-1 for 35 s from the next second :40, so the hold " +
			"crosses a minute boundary as the course's 10:00:40-10:01:15 does. m marks it in both panes; l opens the " +
			"late records. Later, w switches to for_bounded_out_of_orderness with a bound above the hold (40 s), and a " +
			"second hiccup shows the course's event-time column.",
		Look: "The minutes of the hold once both have closed. Processing time bills the held records in the minute " +
			"they arrived. Under for_monotonous_timestamps() the watermark has run past the held records' minute " +
			"when they arrive, so event time drops them as late: the late pane lists each with the watermark it met, " +
			"which is the operator's event time when r-103 arrived (4.2b).",
	},
}

func hiccupSentence(run state.RunRef, h state.HiccupFacts) string {
	arrived := "at " + seconds(h.FirstArrival)
	if seconds(h.FirstArrival) != seconds(h.LastArrival) {
		arrived = seconds(h.FirstArrival) + "–" + seconds(h.LastArrival)
	}
	x := h.Example
	s := fmt.Sprintf("In %s, %s was held %s–%s, across the %s boundary: %s of its records ($%.4f) arrived %s behind the watermark "+
		"and the event-time window dropped them as late (%s, timestamp %s, met a watermark of %s); processing time billed them in the minute they arrived.",
		RunName(run), h.Instance, seconds(h.From), seconds(h.To), hhmm(h.To-h.To%60000), Count(int64(h.Late)), h.USD, arrived,
		x.RequestID, meter.Clock(x.Timestamp), meter.Clock(x.Watermark))
	if b := h.Bounded; b != nil {
		late := "none of the held records late"
		if b.Late > 0 {
			late = plural(b.Late, "held record") + " late all the same"
		}
		s += fmt.Sprintf(" Under %s, in %s, %s was held %s–%s with %s: event time billed $%.4f in %s and $%.4f in %s, processing time "+
			"$%.4f and $%.4f: the burst in its own minute, the course's event-time column.", b.Watermarks, RunName(b.Run), b.Instance,
			seconds(b.From), seconds(b.To), late, b.Minutes[0].Event, hhmm(b.Minutes[0].WindowStart), b.Minutes[1].Event,
			hhmm(b.Minutes[1].WindowStart), b.Minutes[0].Processing, b.Minutes[1].Processing)
	}
	return s
}

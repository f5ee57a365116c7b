package session

import "github.com/labtui/labtui/internal/jobspec"

// markHiccupWithin is how long after a hiccup's hold ends a mark still names it.
const markHiccupWithin = 2 * 60000

// MarkNow puts a mark line into the current run's table and returns its text: the
// latest hiccup when its hold ended at most two minutes ago ("hiccup gw-1 10:00:40",
// at the hold's start), else the lab's processing time ("mark 10:02:13").
func (s *Session) MarkNow() string {
	at := s.Now()
	text := "mark " + clockSeconds(at)
	if inst, hat, d, ok := s.lastHiccup(); ok && at-hat <= d.Milliseconds()+markHiccupWithin {
		// The run's own start of the hold, from the status that first showed it, when
		// it has one: the injection is noted at the status before, up to an interval
		// earlier, and a mark at 13:36:39 beside "held 13:36:40–13:37:15" reads as a
		// different hold.
		hs := s.Current().Hiccups
		for i := len(hs) - 1; i >= 0; i-- {
			if hs[i].Instance == inst && hs[i].From >= hat && hs[i].From-hat <= 2000 {
				hat = hs[i].From
				break
			}
		}
		at, text = hat, "hiccup "+inst+" "+clockSeconds(hat)
	}
	s.Mark(at, text)
	return text
}

// clockSeconds formats ms as UTC hh:mm:ss.
func clockSeconds(ms int64) string {
	c := jobspec.Clock(ms)
	if len(c) > 8 {
		return c[:8]
	}
	return c
}

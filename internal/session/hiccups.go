package session

import (
	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/labs/lab4"
)

// Hiccup is a stretch of processing time in which the status showed a gateway instance
// held: From when it first showed the hiccup, To when it first showed it over (the held
// records flushed), or 0 while it lasts.
type Hiccup = lab4.Hold

// maxHiccups is how many hiccups a run remembers.
const maxHiccups = 16

// hiccups follows the instances' hiccup state from a status: a hiccup starts when an
// instance first shows one, and ends when it no longer does.
func (r *Run) hiccups(s *backend.Status) {
	for _, in := range s.Instances {
		i := r.openHiccup(in.Name)
		switch {
		case in.Hiccup && i < 0:
			r.Hiccups = append(r.Hiccups, Hiccup{Instance: in.Name, From: s.Now})
			if len(r.Hiccups) > maxHiccups {
				r.Hiccups = append([]Hiccup(nil), r.Hiccups[len(r.Hiccups)-maxHiccups:]...)
			}
		case !in.Hiccup && i >= 0:
			r.Hiccups[i].To = s.Now
		}
	}
}

// openHiccup returns the index of instance's hiccup that has not ended, or -1.
func (r *Run) openHiccup(instance string) int {
	for i := len(r.Hiccups) - 1; i >= 0; i-- {
		if h := r.Hiccups[i]; h.Instance == instance && h.To == 0 {
			return i
		}
	}
	return -1
}

// lastHiccup returns the run's latest hiccup, if any.
func (r *Run) lastHiccup() (Hiccup, bool) {
	if len(r.Hiccups) == 0 {
		return Hiccup{}, false
	}
	return r.Hiccups[len(r.Hiccups)-1], true
}

// hiccupClearOf is the earliest time from now that a hiccup may start so that its hold
// stays clear of the current run's catch-up minute, and that minute's start (0 when the
// current run has none). A run the live job began again (x, w, t, a failure) re-reads
// the topic's backlog at full speed, and processing time bills all of it to the minute
// it came back in (the failure section's "minute back": on the embedded lab about $87 of
// an hour's requests in one minute); a hold in that minute, or one that crosses into
// it, mixes the hiccup's burst with the backlog, and neither can be read off the table.
// The hold must begin in a later minute. While the restarted job has read nothing yet
// (the real lab's job takes tens of seconds to come back) its catch-up is taken to be
// the next minute at the earliest.
func (s *Session) hiccupClearOf(now int64) (from, catchUp int64) {
	run := s.Current()
	if !liveRestart(run) {
		return now, 0
	}
	catchUp = startOf(run.StartedAt)
	if s.Status != nil && s.Status.Job.Events == 0 {
		catchUp = max(catchUp, startOf(now)+minute)
	}
	if clear := catchUp + minute; clear > now {
		return clear, catchUp
	}
	return now, 0
}

package session

import (
	"context"
	"time"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"
)

// courseSecond is the second of a minute the course's hiccup starts at (10:00:40): a
// hold of 35 s from there crosses the minute boundary.
const courseSecond = 40

// HiccupPlan is the course's hiccup planned on one instance: when it starts, and the
// catch-up minute it keeps clear of. Run waits for its start and begins it.
type HiccupPlan struct {
	// Instance is the gateway instance held, such as gw-1, For how long.
	Instance string
	For      time.Duration
	// At is when the hold starts.
	At time.Time
	// CatchUp is the start of the current run's catch-up minute the hold begins after,
	// 0 when there is none (HiccupClearOf).
	CatchUp int64

	from   time.Time
	hiccup inject.Hiccup
}

// NextCourseHiccup is when the course's hiccup planned at now would start, and the start
// of the catch-up minute it keeps clear of (0 when none): the next second :40 at least
// inject.MinLead after now, as headless --hiccup gw-1@:40+35s starts it, or after the
// end of the current run's catch-up minute (HiccupClearOf).
func (s *Session) NextCourseHiccup(now time.Time) (time.Time, int64) {
	from, catchUp := s.courseFrom(now)
	return inject.Hiccup{OnSecond: true, Second: courseSecond}.StartsAt(from), catchUp
}

// PlanHiccup plans the course's hiccup on instance for d at now, starting when
// NextCourseHiccup says. It fails for a name that is no gateway instance's.
func (s *Session) PlanHiccup(instance string, d time.Duration, now time.Time) (HiccupPlan, error) {
	n, err := generator.ParseInstance(instance)
	if err != nil {
		return HiccupPlan{}, err
	}
	h := inject.Hiccup{Instance: n, OnSecond: true, Second: courseSecond, For: d}
	from, catchUp := s.courseFrom(now)
	return HiccupPlan{Instance: instance, For: d, At: h.StartsAt(from), CatchUp: catchUp, from: from, hiccup: h}, nil
}

// courseFrom is the time a course hiccup planned at now counts from: now, or the end of
// the current run's catch-up minute, with that minute's start (0 when there is none).
func (s *Session) courseFrom(now time.Time) (time.Time, int64) {
	from, catchUp := s.hiccupClearOf(now.UnixMilli())
	if catchUp == 0 {
		return now, 0
	}
	return time.UnixMilli(from), catchUp
}

// Run waits on clock until the plan's start (inject.Schedule), then calls begin with
// the instance and the duration, and returns begin's error. It returns an error that
// wraps ctx's if ctx ends first, and begin is not called. It blocks: run it off the
// driver's loop.
func (p HiccupPlan) Run(ctx context.Context, clock generator.Clock, begin func(instance string, d time.Duration) error) error {
	return inject.Schedule(ctx, clock, p.from, []inject.Hiccup{p.hiccup}, func(h inject.Hiccup) error {
		return begin(p.Instance, h.For)
	})
}

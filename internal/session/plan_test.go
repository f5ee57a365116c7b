package session

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
)

// TestTheCoursesHiccupStartsAtTheNextSecond40: planned at 10:00:25 it holds at
// 10:00:40; at 10:00:35, less than inject.MinLead before :40, at 10:01:40; after x at
// 10:02:10 whose job has re-read its backlog, not before 10:03:00 (10:03:40), clear of
// 10:02's catch-up. A name that is no instance's is refused.
func TestTheCoursesHiccupStartsAtTheNextSecond40(t *testing.T) {
	l := newLab()
	l.started()
	l.apply(backend.Update{Status: status(t0+25000, t0+24000)})
	for _, c := range []struct{ now, want int64 }{{t0 + 25000, t0 + 40000}, {t0 + 35000, t0 + 100000}} {
		p, err := l.h.PlanHiccup("gw-1", 35*time.Second, time.UnixMilli(c.now))
		if err != nil || p.At.UnixMilli() != c.want || p.CatchUp != 0 || p.Instance != "gw-1" || p.For != 35*time.Second {
			t.Errorf("planned at %s: %+v, %v; want gw-1 for 35s at %s, no catch-up", jobspec.Clock(c.now), p, err, jobspec.Clock(c.want))
		}
		if at, catchUp := l.h.NextCourseHiccup(time.UnixMilli(c.now)); !at.Equal(p.At) || catchUp != 0 {
			t.Errorf("NextCourseHiccup at %s = %s, %d; want the plan's start", jobspec.Clock(c.now), at, catchUp)
		}
	}

	l.apply(backend.Update{Run: 2, Restarted: &backend.Restart{Run: 2, Cause: backend.CauseKill, Reason: "kill", At: t0 + 130000}})
	st := status(t0+145000, t0+140000)
	st.Job.Events = 2400
	l.apply(backend.Update{Status: st})
	p, err := l.h.PlanHiccup("gw-1", 35*time.Second, time.UnixMilli(t0+145000))
	if err != nil || p.At.UnixMilli() != t0+220000 || p.CatchUp != t0+120000 {
		t.Errorf("in the catch-up minute: at %s, catch-up %s, %v; want 10:03:40 after 10:02", jobspec.Clock(p.At.UnixMilli()), jobspec.Clock(p.CatchUp), err)
	}

	if _, err := l.h.PlanHiccup("gateway one", time.Second, time.UnixMilli(t0)); err == nil {
		t.Error("a plan on no instance was accepted")
	}
}

// TestAPlanBeginsItsHiccupAtItsStartOrNotAtAll: Run calls begin with the instance and
// the duration once the clock reaches the start, and not at all when ctx ends first.
func TestAPlanBeginsItsHiccupAtItsStartOrNotAtAll(t *testing.T) {
	l := newLab()
	p, err := l.h.PlanHiccup("gw-1", 35*time.Second, time.UnixMilli(t0+25000))
	if err != nil {
		t.Fatal(err)
	}
	clock := &stepClock{now: time.UnixMilli(t0 + 25000)}
	var begun []string
	begin := func(instance string, d time.Duration) error {
		begun = append(begun, instance+" "+d.String()+" at "+jobspec.Clock(clock.now.UnixMilli()))
		return nil
	}
	if err := p.Run(context.Background(), clock, begin); err != nil || len(begun) != 1 || begun[0] != "gw-1 35s at 10:00:40.000" {
		t.Errorf("Run = %v, begun %q; want gw-1 35s at 10:00:40.000", err, begun)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	begun = nil
	if err := p.Run(ctx, &stepClock{now: time.UnixMilli(t0 + 25000)}, begin); !errors.Is(err, context.Canceled) || len(begun) != 0 {
		t.Errorf("Run with ctx done = %v, begun %q; want context.Canceled and nothing begun", err, begun)
	}
}

// stepClock jumps to the time slept until, unless ctx is done.
type stepClock struct{ now time.Time }

func (c *stepClock) Now() time.Time { return c.now }

func (c *stepClock) SleepUntil(ctx context.Context, t time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.now = t
	return nil
}

package tui

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"
	"github.com/labtui/labtui/tui/components/footer"
)

// courseSecond is the second of a minute the course's hiccup starts at (10:00:40): a
// hold of 35 s from there crosses the minute boundary.
const courseSecond = 40

// plannedHiccup is a hiccup waiting for its start, scheduled by inject.Schedule.
type plannedHiccup struct {
	instance string
	at       time.Time
	d        time.Duration
	cancel   context.CancelFunc
}

// plannedTickMsg redraws the countdown to a planned hiccup.
type plannedTickMsg struct{}

// plannedStoppedMsg says a planned hiccup was given up before it started: replaced by
// another, or the lab stopping.
type plannedStoppedMsg struct{}

// courseHiccup is the course's hiccup on instance for d: at the next second :40 at
// least inject.MinLead away, as headless --hiccup gw-1@:40+35s starts it.
func courseHiccup(instance string, d time.Duration) (inject.Hiccup, error) {
	n, err := generator.ParseInstance(instance)
	if err != nil {
		return inject.Hiccup{}, err
	}
	return inject.Hiccup{Instance: n, OnSecond: true, Second: courseSecond, For: d}, nil
}

// nextCourseStart is when a course hiccup planned now would start, and the start of the
// catch-up minute it keeps clear of (0 when none: see hiccupFrom).
func (m Model) nextCourseStart() (time.Time, int64) {
	from, catchUp := m.hiccupFrom()
	return inject.Hiccup{OnSecond: true, Second: courseSecond}.StartsAt(from), catchUp
}

// hiccupFrom is the time a course hiccup planned now counts from: now, or the end of the
// current run's catch-up minute (session.HiccupClearOf), with that minute's start (0 when
// there is none to keep clear of).
func (m Model) hiccupFrom() (time.Time, int64) {
	now := m.cfg.Clock.Now()
	from, catchUp := m.sess.HiccupClearOf(now.UnixMilli())
	if catchUp == 0 {
		return now, 0
	}
	return time.UnixMilli(from), catchUp
}

// countdown says when t comes: "10:31:40, in 23 s".
func (m Model) countdown(t time.Time) string {
	return t.UTC().Format("15:04:05") + ", in " + m.countdownSeconds(t)
}

// plan schedules the course's hiccup on instance for d, replacing one already planned.
func (m Model) plan(instance string, d time.Duration) (tea.Model, tea.Cmd) {
	h, err := courseHiccup(instance, d)
	if err != nil {
		return m.say(footer.Error, "hiccup on %s: %v", instance, err), nil
	}
	ticking := m.planned != nil
	if ticking {
		m.planned.cancel()
	}
	start, catchUp := m.hiccupFrom()
	ctx, cancel := context.WithCancel(m.ctx)
	m.planned = &plannedHiccup{instance: instance, at: h.StartsAt(start), d: d, cancel: cancel}
	at := m.planned.at.UTC().Format("15:04:05")
	if catchUp != 0 {
		m = m.say(footer.Info, "hiccup on %s at %s for %s: the hold crosses a minute, as in the course, and begins after %s, "+
			"the minute run %d re-read the topic's backlog in", instance, at, d, time.UnixMilli(catchUp).UTC().Format("15:04"), m.sess.Current().ID)
	} else {
		m = m.say(footer.Info, "hiccup on %s at %s for %s: the hold crosses a minute, as in the course", instance, at, d)
	}
	if m.sess.Status != nil && !m.sess.Status.Generator {
		m = m.say(footer.Warn, "hiccup on %s planned at %s, but the generator is off: press g, or the hold holds nothing", instance, at)
	}
	b, clock := m.b, m.cfg.Clock
	run := m.tasks.cmd(func() tea.Msg {
		err := inject.Schedule(ctx, clock, start, []inject.Hiccup{h}, func(h inject.Hiccup) error {
			return b.Inject(instance, h.For)
		})
		if errors.Is(err, context.Canceled) {
			return plannedStoppedMsg{}
		}
		return injectedMsg{instance, d, err}
	})
	if ticking {
		return m, run
	}
	return m, tea.Batch(run, plannedTick())
}

// plannedTick redraws the countdown once a second.
func plannedTick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return plannedTickMsg{} })
}

// planMsg handles the planned hiccup's messages; ok is false for any other message.
func (m Model) planMsg(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg.(type) {
	case plannedTickMsg:
		if m.planned == nil {
			return m, nil, true
		}
		return m, plannedTick(), true
	case plannedStoppedMsg:
		// A plan replaced by another, or the lab stopping: nothing to show.
		return m, nil, true
	}
	return m, nil, false
}

// plannedInfo is the header's view of the planned hiccup.
func (m Model) plannedInfo() (instance, at string) {
	if m.planned == nil {
		return "", ""
	}
	return m.planned.instance, m.countdown(m.planned.at)
}

// countdownSeconds is how long until t, such as "23 s".
func (m Model) countdownSeconds(t time.Time) string {
	return fmt.Sprintf("%d s", int(max(0, t.Sub(m.cfg.Clock.Now()).Round(time.Second))/time.Second))
}

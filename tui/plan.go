package tui

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/tui/components/footer"
)

// plannedHiccup is the course's hiccup waiting for its start (session.HiccupPlan), and
// how to give it up.
type plannedHiccup struct {
	session.HiccupPlan
	cancel context.CancelFunc
}

// plannedTickMsg redraws the countdown to a planned hiccup.
type plannedTickMsg struct{}

// plannedStoppedMsg says a planned hiccup was given up before it started: replaced by
// another, or the lab stopping.
type plannedStoppedMsg struct{}

// countdown says when t comes: "10:31:40, in 23 s".
func (m Model) countdown(t time.Time) string {
	return t.UTC().Format("15:04:05") + ", in " + m.countdownSeconds(t)
}

// plan schedules the course's hiccup on instance for d, replacing one already planned.
func (m Model) plan(instance string, d time.Duration) (tea.Model, tea.Cmd) {
	p, err := m.sess.PlanHiccup(instance, d, m.cfg.Clock.Now())
	if err != nil {
		return m.say(footer.Error, "hiccup on %s: %v", instance, err), nil
	}
	ticking := m.planned != nil
	if ticking {
		m.planned.cancel()
	}
	ctx, cancel := context.WithCancel(m.ctx)
	m.planned = &plannedHiccup{HiccupPlan: p, cancel: cancel}
	m = m.planned.say(m)
	b, clock := m.b, m.cfg.Clock
	run := m.tasks.cmd(func() tea.Msg {
		err := p.Run(ctx, clock, b.Inject)
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

// say says in the status line when the plan's hiccup starts, or, with the generator
// off, that the hold will hold nothing; the log keeps the start either way.
func (p plannedHiccup) say(m Model) Model {
	at := p.At.UTC().Format("15:04:05")
	line := fmt.Sprintf("hiccup on %s at %s for %s: the hold crosses a minute, as in the course", p.Instance, at, p.For)
	if p.CatchUp != 0 {
		line += fmt.Sprintf(", and begins after %s, the minute run %d re-read the topic's backlog in",
			time.UnixMilli(p.CatchUp).UTC().Format("15:04"), m.sess.Current().ID)
	}
	if m.sess.Status != nil && !m.sess.Status.Generator {
		m.cfg.Logger.Info(safetext.Line(line))
		return m.say(footer.Warn, "hiccup on %s planned at %s, but the generator is off: press g, or the hold holds nothing", p.Instance, at)
	}
	return m.say(footer.Info, "%s", line)
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
	return m.planned.Instance, m.countdown(m.planned.At)
}

// countdownSeconds is how long until t, such as "23 s".
func (m Model) countdownSeconds(t time.Time) string {
	return fmt.Sprintf("%d s", int(max(0, t.Sub(m.cfg.Clock.Now()).Round(time.Second))/time.Second))
}

package tui

import (
	"fmt"
	"path/filepath"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/tui/components/footer"
	"github.com/labtui/labtui/tui/components/strategy"
)

// backendMsg handles what the backend and its commands report; ok is false for any
// other message.
func (m Model) backendMsg(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case updateMsg:
		m, cmd := m.apply(msg.u)
		return m, tea.Batch(listen(m.b.Updates()), cmd), true
	case updatesClosedMsg:
		if m.screen != screenQuitting && m.startErr == "" { // a lab that did not start has said why
			return m.say(footer.Error, "the lab stopped sending updates: see %s", LogFile), nil, true
		}
		return m, nil, true
	case startedMsg:
		if msg.err != nil {
			m.startErr = msg.err.Error()
			return m.say(footer.Error, "the lab did not start: %v", msg.err), nil, true
		}
		m.started = true
		if m.cfg.Warning != "" {
			m = m.say(footer.Warn, "%s", m.cfg.Warning)
			m.warning = true
			if m.cfg.StartGenerator {
				return m, m.generatorCmd(true), true
			}
			return m, nil, true
		}
		if m.cfg.StartGenerator {
			m = m.say(footer.Info, "the %s lab is running: starting the generator (g stops it)", m.b.Name())
			return m, m.generatorCmd(true), true
		}
		return m.say(footer.Info, "the %s lab is running: press g to start the generator", m.b.Name()), nil, true
	case generatorMsg:
		if msg.err != nil {
			return m.say(footer.Error, "generator: %v", msg.err), nil, true
		}
		if msg.on {
			return m.say(footer.Info, "generator on: the gateway instances are sending requests"), nil, true
		}
		return m.say(footer.Info, "generator off"), nil, true
	case injectedMsg:
		if m.planned != nil && m.planned.Instance == msg.instance {
			m.planned = nil
		}
		if msg.err != nil {
			return m.say(footer.Error, "hiccup on %s: %v", msg.instance, msg.err), nil, true
		}
		m.sess.Injected(msg.instance, msg.d, m.now())
		m = m.say(footer.Warn, "hiccup on %s for %s: its events are held · press m to mark it in both panes", msg.instance, msg.d)
		m, cmd := m.progressChanged()
		return m, cmd, true
	case replayedMsg:
		m.sess.ReplayReturned()
		m = m.relayoutIfNeeded()
		if msg.err != nil {
			return m.say(footer.Error, "replay: %v", msg.err), nil, true
		}
		return m, nil, true
	case reconfiguredMsg:
		if msg.err != nil {
			return m.say(footer.Error, "restart the job with %s: %v", strategy.Name(msg.wm), msg.err), nil, true
		}
		return m, nil, true
	case jobRestartedMsg:
		if msg.err != nil {
			return m.say(footer.Error, "restart the job: %v", msg.err), nil, true
		}
		return m, nil, true
	case closedMsg:
		m.closed = true
		if msg.err != nil {
			m.cfg.Logger.Error("close the lab", "err", msg.err)
		}
		if m.saveOK && m.cfg.Store != nil {
			m.rev++
			return m, tea.Sequence(m.saveCmd(m.Snapshot()), tea.Quit), true
		}
		return m, tea.Quit, true
	}
	return m, nil, false
}

// apply takes in one backend update: history first, then the lab's steps, then what the
// learner should read.
func (m Model) apply(u backend.Update) (Model, tea.Cmd) {
	tasks := m.sess.Apply(u)
	if u.Log != "" {
		m = m.say(footer.Info, "%s", u.Log)
	}
	if u.Dropped > 0 {
		m.cfg.Logger.Warn("backend dropped results", "n", u.Dropped)
	}
	if r := u.Restarted; r != nil {
		m.panes = m.panes.Bottom()
		m = m.restarted(r)
	}
	if p := u.Replay; p != nil {
		m.replayBar, _ = m.replayBar.Update(*p)
		m = m.replayStatus(p)
	}
	if cur := m.sess.Current(); cur.ID != m.catchUpSaid {
		if note := session.CatchUpNote(cur); note != "" {
			m.catchUpSaid = cur.ID
			m = m.say(footer.Warn, "%s", note)
		}
	}
	m = m.relayoutIfNeeded()
	m = m.showAnalysis()
	if u.Status != nil && (u.Restarted != nil || m.sess.Now()-m.runsAt >= 1000) {
		// A run's hiccups and replays change what it can back without any finding
		// changing: the runs line is looked at again once a second of the lab's time.
		m.runsAt = m.sess.Now()
		m = m.labRuns()
	}
	m, save := m.progressChanged()
	return m, tea.Batch(m.sessionCmds(tasks), save)
}

// restarted says in the status line that the job restarted, in the one sentence that
// matters most: what a run on a replay's topic is not, else what the kill or the new
// strategy did, else why the job restarted. The log keeps every sentence, the ones
// the status line does not show first.
func (m Model) restarted(r *backend.Restart) Model {
	run := m.sess.Current().ID
	why := r.Reason
	if r.Cause == backend.CauseReplay && r.Recording != "" {
		why = "replay of " + filepath.Base(r.Recording) // the name, not the learner's cache path
	}
	lines := []string{fmt.Sprintf("the job restarted (%s) reading %s: the panes show run %d", why, r.Timestamp, run)}
	switch r.Cause {
	case backend.CauseKill:
		// Short enough for the 80-column status line.
		lines = append(lines, fmt.Sprintf("run %d: job killed, restarted with empty state from the topic's starting offsets", run))
	case backend.CauseStrategy:
		lines = append(lines, fmt.Sprintf("run %d: the job redeployed with %s, empty state, reading the topic again from its starting offsets",
			run, strategy.Name(r.Watermarks)))
	}
	level := footer.Info
	if note := session.RestartNote(m.sess.Current()); note != "" {
		lines, level = append(lines, note), footer.Warn
	}
	for _, l := range lines[:len(lines)-1] {
		m.cfg.Logger.Info(safetext.Line(l))
	}
	return m.say(level, "%s", lines[len(lines)-1])
}

// replayStatus says in the status line when a replay finished or failed; the replay
// line above the panes shows its progress meanwhile.
func (m Model) replayStatus(p *backend.ReplayProgress) Model {
	switch {
	case p.Err != nil:
		return m.say(footer.Error, "replay failed after %s records: %v", session.Count(p.Records), p.Err)
	case p.Done:
		return m.say(footer.Info, "replay done: %s records with %s from %s", session.Count(p.Records), m.sess.Current().Timestamp, filepath.Base(p.Path))
	}
	return m
}

package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/state"
	"github.com/labtui/labtui/tui/components/footer"
)

// answersChanged schedules an autosave if the lab panel's answers changed.
func (m Model) answersChanged(cmd tea.Cmd) (tea.Model, tea.Cmd) {
	if r := m.lab.Revision(); r != m.labRev {
		m.labRev = r
		m, save := m.dirty()
		return m, tea.Batch(cmd, save)
	}
	return m, cmd
}

// progressChanged shows the tracker's steps and schedules an autosave if they or their
// evidence changed.
func (m Model) progressChanged() (Model, tea.Cmd) {
	if !m.tracker.Changed() {
		return m, nil
	}
	m.lab = m.lab.SetSteps(m.tracker.Steps())
	return m.dirty()
}

// dirty bumps the revision and, unless one is pending, schedules an autosave after
// the save delay, so a burst of typing is one write.
func (m Model) dirty() (Model, tea.Cmd) {
	m.rev++
	if m.savePending || m.cfg.Store == nil || !m.saveOK {
		return m, nil
	}
	m.savePending = true
	return m, tea.Tick(m.cfg.SaveDelay, func(time.Time) tea.Msg { return saveTickMsg{} })
}

// saveMsg handles the autosave's and the export's messages; ok is false for others.
func (m Model) saveMsg(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case saveTickMsg:
		m.savePending = false
		if !m.saveOK || m.cfg.Store == nil {
			return m, nil, true
		}
		return m, m.saveCmd(m.Snapshot()), true
	case savedMsg:
		if msg.err != nil {
			return m.say(footer.Error, "autosave failed: %v", msg.err), nil, true
		}
		return m, nil, true
	case archivedMsg:
		if msg.err != nil {
			return m.say(footer.Error, "%v", msg.err), nil, true
		}
		if msg.path != "" {
			return m.say(footer.Info, "starting fresh: the saved answers were moved to %s", msg.path), nil, true
		}
		return m, nil, true
	case exportedMsg:
		if msg.err != nil {
			return m.say(footer.Error, "export failed: %v", msg.err), nil, true
		}
		return m.say(footer.Info, "exported %s", pathList(msg.paths)), nil, true
	}
	return m, nil, false
}

// doneSteps lists the IDs of the ticked steps.
func doneSteps(steps map[string]state.Step) []string {
	var ids []string
	for id, s := range steps {
		if s.Done {
			ids = append(ids, id)
		}
	}
	return ids
}

// clock is meter.Clock.
func clock(ms int64) string { return meter.Clock(ms) }

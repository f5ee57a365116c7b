package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/tui/components/footer"
)

// answersChanged schedules an autosave if the lab panel's answers changed.
func (m Model) answersChanged(cmd tea.Cmd) (tea.Model, tea.Cmd) {
	if r := m.lab.Revision(); r != m.labRev {
		m.labRev = r
		// The evidence of an exercise being answered stays with the run it shows now.
		m.sess.Answered(m.lab.Answers())
		m, save := m.dirty()
		return m, tea.Batch(cmd, save)
	}
	return m, cmd
}

// progressChanged shows the tracker's steps and schedules an autosave if they or their
// evidence changed.
func (m Model) progressChanged() (Model, tea.Cmd) {
	if !m.sess.Changed() {
		return m, nil
	}
	m = m.labChanged()
	return m.dirty()
}

// dirty bumps the revision and saves at once, unless a save is still writing: then the
// change is saved as soon as that one returns. So every pause of typing, however short,
// is on disk (a kill -9 loses at most the keys of one write), and a burst of keys (a
// paste) is one write, not one a key.
func (m Model) dirty() (Model, tea.Cmd) {
	m.rev++
	if m.cfg.Store == nil || !m.saveOK {
		return m, nil
	}
	if m.savePending {
		m.saveAgain = true
		return m, nil
	}
	m.savePending = true
	return m, m.saveCmd(m.Snapshot())
}

// saveMsg handles the autosave's and the export's messages; ok is false for others.
func (m Model) saveMsg(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case savedMsg:
		m.savePending = false
		var again tea.Cmd
		if m.saveAgain {
			m.saveAgain = false
			m, again = m.dirty()
		}
		if msg.err != nil {
			return m.say(footer.Error, "autosave failed: %v", msg.err), again, true
		}
		return m, again, true
	case archivedMsg:
		m.archiving = false
		if msg.err != nil {
			// The old answers are still in the file: saving over them would lose them.
			return m.say(footer.Error, "%v; autosave is off, so they are not written over", msg.err), nil, true
		}
		m.saveOK = true
		var save tea.Cmd
		if m.rev != m.archiveRev { // changed while the archive ran: save it now
			m, save = m.dirty()
		}
		if msg.path != "" {
			return m.say(footer.Info, "starting fresh: the saved answers were moved to %s", msg.path), save, true
		}
		return m, save, true
	case exportedMsg:
		if msg.err != nil {
			return m.say(footer.Error, "export failed: %v", msg.err), nil, true
		}
		if msg.picture != nil {
			m.sess.PictureWritten(*msg.picture)
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

package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/internal/watermark"
)

// updateMsg is one backend.Update, read from Updates by listen.
type updateMsg struct{ u backend.Update }

// updatesClosedMsg says the backend closed Updates.
type updatesClosedMsg struct{}

// startedMsg says Start returned.
type startedMsg struct{ err error }

// generatorMsg says SetGenerator returned.
type generatorMsg struct {
	on  bool
	err error
}

// injectedMsg says Inject returned.
type injectedMsg struct {
	instance string
	d        time.Duration
	err      error
}

// replayedMsg says Replay returned.
type replayedMsg struct {
	path  string
	field jobspec.TimestampField
	err   error
}

// reconfiguredMsg says Reconfigure returned.
type reconfiguredMsg struct {
	wm  watermark.Strategy
	err error
}

// jobRestartedMsg says RestartJob returned.
type jobRestartedMsg struct{ err error }

// closedMsg says Close returned.
type closedMsg struct{ err error }

// savedMsg says an autosave finished.
type savedMsg struct{ err error }

// archivedMsg says the saved answers were moved aside for a fresh start.
type archivedMsg struct {
	path string
	err  error
}

// exportedMsg says an export finished.
type exportedMsg struct {
	paths []string
	err   error
	// picture is the skew picture written, for the session to note.
	picture *state.Picture
}

// listen reads one update from ch; Update re-arms it after each.
func listen(ch <-chan backend.Update) tea.Cmd {
	return func() tea.Msg {
		u, ok := <-ch
		if !ok {
			return updatesClosedMsg{}
		}
		return updateMsg{u}
	}
}

func (m Model) startCmd() tea.Cmd {
	b, ctx := m.b, m.ctx
	return m.tasks.cmd(func() tea.Msg { return startedMsg{b.Start(ctx)} })
}

func (m Model) generatorCmd(on bool) tea.Cmd {
	b := m.b
	return m.tasks.cmd(func() tea.Msg { return generatorMsg{on, b.SetGenerator(on)} })
}

func (m Model) injectCmd(instance string, d time.Duration) tea.Cmd {
	b := m.b
	return m.tasks.cmd(func() tea.Msg { return injectedMsg{instance, d, b.Inject(instance, d)} })
}

func (m Model) replayCmd(path string, field jobspec.TimestampField) tea.Cmd {
	b, ctx := m.b, m.ctx
	return m.tasks.cmd(func() tea.Msg {
		if _, err := os.Stat(path); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				err = fmt.Errorf("no recording at %s: set --recording or recording: in the config", path)
			}
			return replayedMsg{path, field, err}
		}
		err := b.Replay(ctx, path, field)
		if errors.Is(err, context.Canceled) {
			err = nil
		}
		return replayedMsg{path, field, err}
	})
}

func (m Model) restartCmd() tea.Cmd {
	r, ctx := m.restarter, m.ctx
	return m.tasks.cmd(func() tea.Msg { return jobRestartedMsg{r.RestartJob(ctx)} })
}

func (m Model) reconfigureCmd(field jobspec.TimestampField, wm watermark.Strategy) tea.Cmd {
	r, ctx := m.reconfigurer, m.ctx
	return m.tasks.cmd(func() tea.Msg { return reconfiguredMsg{wm, r.Reconfigure(ctx, field, wm)} })
}

func (m Model) closeCmd() tea.Cmd {
	b := m.b
	return m.tasks.cmd(func() tea.Msg { return closedMsg{b.Close()} })
}

func (m Model) saveCmd(st state.State) tea.Cmd {
	s := m.cfg.Store
	return m.tasks.cmd(func() tea.Msg {
		_, err := s.Save(st)
		return savedMsg{err}
	})
}

func (m Model) archiveCmd() tea.Cmd {
	s := m.cfg.Store
	return m.tasks.cmd(func() tea.Msg {
		p, err := s.Archive()
		return archivedMsg{p, err}
	})
}

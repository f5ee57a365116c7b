package tui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/internal/watermark"
	"github.com/labtui/labtui/tui/components/footer"
	"github.com/labtui/labtui/tui/components/picker"
	"github.com/labtui/labtui/tui/components/strategy"
)

// say puts a line in the status line and the log. While the start's warning is up (until
// a key), an Info line goes to the log only.
func (m Model) say(level footer.Level, format string, args ...any) Model {
	// The arguments may quote the data (a tenant, a recording's line): the status
	// line is one line of text whatever they hold.
	line := safetext.Line(fmt.Sprintf(format, args...))
	if m.warning && level == footer.Info {
		m.cfg.Logger.Info(line)
		return m
	}
	wrapped := m.footer.StatusLines(m.status) != m.footer.StatusLines(line)
	m.status, m.level = line, level
	if wrapped {
		// A status of another number of lines: the panes give it lines, or take them back.
		m = m.relayout()
	}
	switch level {
	case footer.Error:
		// An error stays, as the start's warning does, until the learner presses a key:
		// the lab's next log line came 27 ms after a failed replay's and took its place.
		m.warning = true
		m.cfg.Logger.Error(m.status)
	case footer.Warn:
		m.cfg.Logger.Warn(m.status)
	default:
		m.cfg.Logger.Info(m.status)
	}
	return m
}

// running says the lab is up, or says why an action has to wait.
func (m Model) running(action string) (Model, bool) {
	switch {
	case m.startErr != "":
		return m.say(footer.Error, "cannot %s: the lab is not running (%s)", action, m.startErr), false
	case !m.started:
		return m.say(footer.Warn, "cannot %s yet: the lab is still starting", action), false
	}
	return m, true
}

// toggleGenerator starts or stops the gateway instances.
func (m Model) toggleGenerator() (tea.Model, tea.Cmd) {
	m, ok := m.running("switch the generator")
	if !ok {
		return m, nil
	}
	on := m.sess.Status == nil || !m.sess.Status.Generator
	return m, m.generatorCmd(on)
}

// instances are the gateway instances the status lists.
func (m Model) instances() []string {
	var names []string
	if m.sess.Status != nil {
		for _, in := range m.sess.Status.Instances {
			names = append(names, in.Name)
		}
	}
	return names
}

// pickInstance opens the picker, with gw-1 (the course's instance) chosen first.
func (m Model) pickInstance() Model {
	m, ok := m.running("inject a hiccup")
	if !ok {
		return m
	}
	names := m.instances()
	if len(names) == 0 {
		return m.say(footer.Warn, "no gateway instance is reported yet: wait for the first status")
	}
	sel := max(0, slices.Index(names, "gw-1"))
	m.picker = picker.New(m.styles, names, m.cfg.Hiccup, sel)
	m.screen = screenPick
	return m
}

// inject holds instance's produce requests for d.
func (m Model) inject(instance string, d time.Duration) (tea.Model, tea.Cmd) {
	m = m.say(footer.Info, "injecting a %s hiccup on %s…", d, instance)
	return m, m.injectCmd(instance, d)
}

// replay replays the recorded hour with field as the event timestamp.
func (m Model) replay(field jobspec.TimestampField) (tea.Model, tea.Cmd) {
	m, ok := m.running("replay")
	if !ok {
		return m, nil
	}
	if m.sess.Replaying() {
		return m.say(footer.Warn, "a replay is already running: wait for it to finish"), nil
	}
	m.sess.ReplayAsked(m.cfg.Recording, field)
	m = m.say(footer.Info, "replaying %s with %s from the earliest offset…", filepath.Base(m.cfg.Recording), field)
	return m.relayout(), m.replayCmd(m.cfg.Recording, field)
}

// mark puts a mark line into both panes (session.MarkNow) and says which.
func (m Model) mark() Model {
	return m.say(footer.Info, "marked %q in both panes", m.sess.MarkNow())
}

// killJob kills the job and starts it again with empty state, as a TaskManager that
// dies without checkpoints; the restart begins a new run in the panes.
func (m Model) killJob() (tea.Model, tea.Cmd) {
	m, ok := m.running("restart the job")
	if !ok || m.restarter == nil {
		return m, nil
	}
	m = m.say(footer.Warn, "killing the job: it restarts with empty state from its starting offsets…")
	return m, m.restartCmd()
}

// pickStrategy opens the watermark strategy picker at the job's current strategy.
func (m Model) pickStrategy() Model {
	m, ok := m.running("change the watermark strategy")
	if !ok || m.reconfigurer == nil {
		return m
	}
	if m.sess.Replaying() {
		return m.say(footer.Warn, "a replay is running: change the strategy when it is done, then replay again")
	}
	m.strategy = strategy.New(m.styles, m.sess.Current().Watermarks, m.cfg.Hiccup)
	m.screen = screenStrategy
	return m
}

// reconfigure restarts the job with wm, as redeploying it with the new strategy would.
func (m Model) reconfigure(wm watermark.Strategy) (tea.Model, tea.Cmd) {
	m = m.say(footer.Warn, "restarting the job with %s, as a redeploy would: empty state, the topic read again from its starting offsets…",
		strategy.Name(wm))
	return m, m.reconfigureCmd(m.sess.Timestamp(), wm)
}

// export writes the answers and the evidence.
func (m Model) export() (tea.Model, tea.Cmd) {
	if m.sess.Comparing() {
		// A replay's comparison is under way: the sheet would hand in the one before.
		m.exportDue = true
		return m.say(footer.Info, "exporting once the comparison under way is done…"), nil
	}
	m.exportDue = false
	m = m.say(footer.Info, "exporting to %s…", m.cfg.ExportDir)
	return m, m.exportCmd(m.Snapshot(), m.picture())
}

// quit stops the lab: the backend closes in a command, then the answers are saved
// and the program ends. A second ctrl-c while waiting ends at once.
func (m Model) quit() (tea.Model, tea.Cmd) {
	if m.screen == screenQuitting {
		return m, tea.Quit
	}
	m.screen = screenQuitting
	m.cancel()
	m = m.say(footer.Info, "stopping the lab…")
	return m, m.closeCmd()
}

// resumeKey answers the offer to continue with saved answers.
func (m Model) resumeKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch k.String() {
	case "y", "Y", "enter":
		s := m.cfg.Saved
		m.sess.Restore(*s)
		m.lab = m.lab.SetAnswers(s.Answers)
		m = m.labChanged()
		m.labRev = m.lab.Revision()
		m.screen, m.saveOK = screenMain, true
		restored := fmt.Sprintf("restored %s and %s saved %s", plural(s.Answered(), "answer"),
			plural(len(doneSteps(s.Steps)), "ticked step"), s.SavedAt.UTC().Format("2006-01-02 15:04"))
		if unasked := m.sess.Unasked(); unasked != nil {
			ids := state.SortedIDs(unasked)
			which := "one of them is an answer to a question"
			if len(ids) > 1 {
				which = fmt.Sprintf("%d of them are answers to questions", len(ids))
			}
			m = m.say(footer.Warn, "%s; %s this lab does not ask (%s): kept in the file and on the exported sheet",
				restored, which, safetext.Line(strings.Join(ids, ", ")))
		} else {
			m = m.say(footer.Info, "%s", restored)
		}
		m, cmd := m.progressChanged()
		return m, cmd
	case "n", "N":
		m.screen = screenMain
		if m.cfg.Store == nil {
			m.saveOK = true
			return m, nil
		}
		// Saving stays off until the old answers are aside (archivedMsg): a save that
		// finished first would overwrite them, or be moved aside in their place.
		m.archiving, m.archiveRev = true, m.rev
		return m, m.archiveCmd()
	case "q":
		return m.quit()
	}
	return m, nil
}

// plural is "1 answer" or "3 answers".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

package tui

import (
	"fmt"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/labs/lab4"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/tui/components/footer"
	"github.com/labtui/labtui/tui/components/header"
	"github.com/labtui/labtui/tui/components/labpanel"
	"github.com/labtui/labtui/tui/components/strategy"
	"github.com/labtui/labtui/tui/textutil"
)

// View draws the screen: the small-terminal notice, or the header, the body of the
// current screen and the footer.
func (m Model) View() string {
	if m.width == 0 {
		return ""
	}
	if m.tooSmall() {
		return m.smallView()
	}
	parts := make([]string, 0, 8)
	guide := m.guide // with the whole guide's lines, wrapped once a frame for its body and its prompt
	planned, plannedAt := m.plannedInfo()
	parts = append(parts, m.header.View(m.sess, header.Info{Backend: m.b.Name(), Err: m.startErr,
		Planned: planned, PlannedAt: plannedAt, Strategy: strategy.Name(m.sess.Current().Watermarks), Replay: m.sess.Current().ReadsRecording()}))
	switch m.screen {
	case screenHelp:
		parts = append(parts, m.helpView(m.height-header.Height-footer.Height))
	case screenGuide:
		guide = m.wholeGuide().guide
		parts = append(parts, guide.View())
	default:
		parts = append(parts, m.bodyViews()...)
	}
	parts = append(parts, m.footerView(guide))
	return strings.Join(parts, "\n")
}

// bodyViews draws the panes, the lists that are open and the lab panel.
func (m Model) bodyViews() []string {
	l := m.layout
	out := make([]string, 0, 5)
	if l.replayH > 0 {
		reached := jobspec.MinWatermark
		if st := m.sess.Status; st != nil && m.sess.Current().Replay {
			reached = st.Watermark
		}
		out = append(out, m.replayBar.View(m.sess.Replay, m.sess.ReplayField(), reached))
	}
	switch {
	case l.panesH > 0 && m.startErr != "" && !m.started: // a lab that failed to start may still send a last status
		out = append(out, m.startErrView(l.panesH))
	case l.panesH > 0 && m.view == viewDiff:
		out = append(out, m.diffView.View())
	case l.panesH > 0 && m.view == viewSkew:
		out = append(out, m.skewView.View())
	case l.panesH > 0 && m.view == viewDrill:
		out = append(out, m.drillView())
	case l.panesH > 0:
		run := m.sess.Current()
		var open []jobspec.Result
		if m.sess.Status != nil {
			open = m.sess.Status.Open
		}
		out = append(out, textutil.Block(m.panes.View(run, m.sess.ClocksFor(run), open), m.width, l.panesH))
	}
	if l.lateH > 0 {
		run := m.sess.Current()
		title := fmt.Sprintf("late records dropped by the event-time window · run %d · %s ($%.4f)", run.ID, session.Count(int64(run.LateCount)), run.LateUSD)
		if lead := session.LateLead(run); lead != "" {
			title += ": " + lead
			if run.ReadsRecording() {
				title += ", d explains"
			} else {
				title += " in the restart's catch-up"
			}
		}
		title += " · l to hide"
		out = append(out, m.late.View(run.Late, title))
	}
	if l.inspectorH > 0 {
		out = append(out, m.inspector.View(m.sess.Traces, "record inspector · latest records as they reached the windows · v to hide"))
	}
	if l.labH > 0 {
		out = append(out, m.lab.View())
	}
	return out
}

// footerView draws the status line, or the prompt of the screen that asks something;
// guide is the whole guide with its lines while it is open.
func (m Model) footerView(guide labpanel.Guide) string {
	main := mainHelp{k: m.keys, uses: lab4.GuideOf(m.lab.Current()).Uses,
		replaying: m.sess.Replaying(), diff: m.sess.Replaying() || m.sess.DiffRun() != nil}
	var keys help.KeyMap = main
	if own := main.keysOf(m.screen); own != nil {
		keys = own
	}
	prompt := ""
	switch m.screen {
	case screenResume:
		prompt = m.resumePrompt()
	case screenPick:
		at, catchUp := m.sess.NextCourseHiccup(m.cfg.Clock.Now())
		clearOf := ""
		if catchUp != 0 {
			clearOf = time.UnixMilli(catchUp).UTC().Format("15:04") + "'s catch-up"
		}
		prompt = m.picker.View("in "+m.countdownSeconds(at), clearOf, m.width)
	case screenFilter:
		prompt = m.filter.View()
	case screenStrategy:
		prompt = m.strategy.View(m.width)
	case screenHelp:
		prompt = "all keys · ?, esc or q to go back"
	case screenGuide:
		prompt = guide.Prompt(m.lab.SelectedExercise())
	}
	if m.lab.Editing() {
		keys = editHelp{m.keys}
	}
	f := m.footer
	if m.screen == screenHelp || m.screen == screenGuide {
		// Screens of their own, laid out for a footer of footer.Height: their prompt
		// takes the status's place, and no line of it is left blank.
		f = f.SetStatusLines(1)
	}
	return f.View(m.status, m.level, prompt, keys)
}

// resumePrompt offers to continue with the saved answers.
func (m Model) resumePrompt() string {
	s := m.cfg.Saved
	steps := 0
	for _, st := range s.Steps {
		if st.Done {
			steps++
		}
	}
	return fmt.Sprintf("Continue with the answers saved %s (%d answered, %d ticked)? y/n",
		s.SavedAt.UTC().Format("2006-01-02 15:04"), s.Answered(), steps)
}

// helpView lists every key in h lines.
func (m Model) helpView(h int) string {
	title := m.styles.Title.Render("labtui keys")
	intro := "labtui runs Lab 4 (event time and processing time). The left pane is the processing-time window, the right " +
		"the event-time window; " + "a row marked ≠ differs between them."
	keys := m.footer.FullHelp(mainHelp{k: m.keys}, helpGroupTitles, m.width)
	body := title + "\n\n" + textutil.Wrap(intro, m.width) + "\n\n" + keys
	if strings.Count(body, "\n")+1 > h {
		// Short of room (80x24), the keys alone: the footer says what the screen is.
		body = keys
	}
	return textutil.Block(body, m.width, h)
}

// smallView says plainly that the terminal is too small.
func (m Model) smallView() string {
	msg := fmt.Sprintf("labtui needs a terminal of at least %dx%d; this one is %dx%d.\nEnlarge the window, or press q to quit.",
		minWidth, minHeight, m.width, m.height)
	return textutil.Block(textutil.Wrap(msg, m.width), m.width, m.height)
}

// startErrView says, whole and wrapped, why the lab did not start and how it ends.
func (m Model) startErrView(h int) string {
	msg := m.styles.Error.Render("The lab did not start.") + "\n\n" + textutil.Wrap(m.startErr, m.width) +
		"\n\n" + textutil.Wrap("Press q to quit: labtui prints this message again and exits with status 1.", m.width)
	return textutil.Block(msg, m.width, h)
}

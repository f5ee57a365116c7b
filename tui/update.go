package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/tui/components/labpanel"
	"github.com/labtui/labtui/tui/components/picker"
	"github.com/labtui/labtui/tui/components/strategy"
)

// Update routes a message: resizes and the backend's messages whatever the screen,
// then keys and mouse by screen and focus, then anything else to the component that
// asked for it (the textarea's cursor, the filter's input).
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m = m.relayout()
		if m.view == viewSkew {
			return m.refreshSkew(false)
		}
		return m, nil
	case tea.KeyMsg:
		m.warning = false // the learner has had the start's warning, or the error, in front of them
		return m.key(msg)
	case tea.MouseMsg:
		return m.mouse(msg), nil
	}
	if mm, cmd, ok := m.backendMsg(msg); ok {
		return mm, cmd
	}
	if mm, cmd, ok := m.saveMsg(msg); ok {
		return mm, cmd
	}
	if mm, cmd, ok := m.planMsg(msg); ok {
		return mm, cmd
	}
	if mm, cmd, ok := m.analysisMsg(msg); ok {
		return mm, cmd
	}
	// Everything else belongs to a component: the textarea's cursor blink, the
	// filter's cursor.
	var cmd tea.Cmd
	if m.screen == screenFilter {
		m.filter, cmd = m.filter.Update(msg)
		return m, cmd
	}
	m.lab, cmd = m.lab.Update(msg)
	return m, cmd
}

// key handles a key by screen: quitting first, then the screen's own keys.
func (m Model) key(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	if k.Type == tea.KeyCtrlC {
		return m.quit()
	}
	switch m.screen {
	case screenQuitting:
		return m, nil
	case screenResume:
		return m.resumeKey(k)
	case screenHelp:
		// q closes the help, as it cancels a picker; ctrl+c (above) quits.
		if k.String() == "q" || key.Matches(k, m.keys.Help) || k.Type == tea.KeyEsc {
			m.screen = screenMain
		}
		return m, nil
	case screenGuide:
		return m.guideKey(k)
	case screenPick:
		m.picker, _ = m.picker.Update(k)
		switch m.picker.Result() {
		case picker.Chosen:
			m.screen = screenMain
			if m.picker.Now() {
				return m.inject(m.picker.Choice(), m.picker.Duration())
			}
			return m.plan(m.picker.Choice(), m.picker.Duration())
		case picker.Cancelled:
			m.screen = screenMain
		}
		return m, nil
	case screenFilter:
		return m.filterKey(k)
	case screenStrategy:
		m.strategy, _ = m.strategy.Update(k)
		switch m.strategy.Result() {
		case strategy.Chosen:
			m.screen = screenMain
			return m.reconfigure(m.strategy.Watermarks())
		case strategy.Cancelled:
			m.screen = screenMain
		}
		return m, nil
	}
	if m.tooSmall() {
		if key.Matches(k, m.keys.Quit) {
			return m.quit()
		}
		return m, nil
	}
	if m.focus == areaLab && (m.lab.Editing() || labpanel.IsBurst(k)) {
		return m.editKey(k)
	}
	return m.mainKey(k)
}

// editKey gives every key to the answer being written; only esc (stop writing) and
// ctrl+c (quit) are not text. Text goes to the answer first: a word such as "tab" or "q"
// in a burst is text, and so is a tab character, since a burst that contains one (a
// paste without bracketed paste) would otherwise leave the editor and run the rest of
// the answer as commands.
func (m Model) editKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	if k.Type == tea.KeyCtrlC {
		return m.quit()
	}
	var cmd tea.Cmd
	m.lab, cmd = m.lab.Update(k)
	return m.answersChanged(cmd)
}

// mainKey handles the main screen's keys.
func (m Model) mainKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	km := m.keys
	if mm, ok := m.viewKey(k); ok {
		return mm, nil
	}
	switch {
	case key.Matches(k, km.Quit):
		return m.quit()
	case key.Matches(k, km.Help):
		m.screen = screenHelp
		return m, nil
	case key.Matches(k, km.Lab.Guide):
		return m.openGuide(), nil
	case key.Matches(k, km.Focus):
		return m.cycleFocus(true), nil
	case key.Matches(k, km.FocusBack):
		return m.cycleFocus(false), nil
	case key.Matches(k, km.Generator):
		return m.toggleGenerator()
	case key.Matches(k, km.Inject):
		return m.pickInstance(), nil
	case key.Matches(k, km.Replay):
		return m.replay(m.sess.Timestamp())
	case key.Matches(k, km.Timestamp):
		return m.replay(1 - m.sess.Timestamp())
	case key.Matches(k, km.Mark):
		return m.mark(), nil
	case key.Matches(k, km.Kill):
		return m.killJob()
	case key.Matches(k, km.Strategy):
		return m.pickStrategy(), nil
	case key.Matches(k, km.Export):
		return m.export()
	case key.Matches(k, km.Diff):
		return m.toggleView(viewDiff)
	case key.Matches(k, km.Skew):
		return m.toggleView(viewSkew)
	case m.focus == areaPanes && m.view == viewPanes && key.Matches(k, km.Open):
		return m.openDrill(), nil
	case key.Matches(k, km.Late):
		m = m.panesFirst()
		m.showLate = !m.showLate
		if !m.showLate && m.focus == areaLate {
			m.focus = areaPanes
		}
		m = m.relayout()
		if m.showLate && m.layout.lateH == 0 && m.focus == areaLab {
			// A small screen gives the focused lab panel the late pane's room: l asked
			// for the late records, so they take the focus and are shown.
			m.focus = areaLate
			m = m.relayout()
		}
		return m, nil
	case key.Matches(k, km.Inspector):
		m = m.panesFirst()
		m.showInspector = !m.showInspector
		if !m.showInspector && m.focus == areaInspector {
			m.focus = areaPanes
		}
		return m.relayout(), nil
	case key.Matches(k, km.Filter):
		return m.panesFirst().startFilter()
	}
	if m.focus == areaLab {
		switch {
		case key.Matches(k, km.Lab.Pin):
			return m.pinNext()
		case key.Matches(k, km.Lab.Unpin):
			return m.unpin()
		case key.Matches(k, km.Lab.Repin):
			return m.repin()
		}
		before := m.lab.SelectedExercise()
		var cmd tea.Cmd
		m.lab, cmd = m.lab.Update(k)
		if m.lab.SelectedExercise() != before {
			m = m.labRuns()
		}
		return m, cmd
	}
	return m.scrollKey(k), nil
}

// cycleFocus moves the focus to the next (or previous) part that is shown.
func (m Model) cycleFocus(forward bool) Model {
	order := []area{areaPanes}
	if m.showLate && m.view == viewPanes {
		order = append(order, areaLate)
	}
	if m.showInspector && m.view == viewPanes {
		order = append(order, areaInspector)
	}
	order = append(order, areaLab)
	i := 0
	for j, a := range order {
		if a == m.focus {
			i = j
		}
	}
	if forward {
		i = (i + 1) % len(order)
	} else {
		i = (i + len(order) - 1) % len(order)
	}
	m.focus = order[i]
	return m.relayout().labRuns()
}

// scrollKey hands a scrolling key to the part with the focus. End is every list's, as
// its help says (newest, follow): outside the diff view the panes, the late records and
// the inspector all follow the newest again, whichever has the focus.
func (m Model) scrollKey(k tea.KeyMsg) Model {
	if key.Matches(k, m.keys.End) && m.view != viewDiff {
		m = m.withContent()
		m.panes, _ = m.panes.Update(k)
		m.late, _ = m.late.Update(k)
		m.inspector, _ = m.inspector.Update(k)
		return m
	}
	return m.toArea(m.focus, k)
}

// toArea hands msg, a scrolling key or the mouse wheel, to the component shown in part
// a: in the panes' place the panes, the diff view or the drill (the skew picture does
// not scroll); the lab panel takes its keys before this, and not the wheel.
func (m Model) toArea(a area, msg tea.Msg) Model {
	m = m.withContent()
	switch {
	case a == areaPanes && m.view == viewDiff:
		m.diffView, _ = m.diffView.Update(msg)
	case a == areaPanes && m.view == viewDrill:
		m.drill, _ = m.drill.Update(msg)
	case a == areaPanes && m.view == viewPanes:
		m.panes, _ = m.panes.Update(msg)
	case a == areaLate:
		m.late, _ = m.late.Update(msg)
	case a == areaInspector:
		m.inspector, _ = m.inspector.Update(msg)
	}
	return m
}

// withContent tells the panes and the lists what they scroll over: the current run's
// rows and open windows, its late records, the session's traces.
func (m Model) withContent() Model {
	run := m.sess.Current()
	var open []jobspec.Result
	if m.sess.Status != nil {
		open = m.sess.Status.Open
	}
	m.panes = m.panes.SetContent(run, open)
	m.late = m.late.SetContent(run.Late)
	m.inspector = m.inspector.SetContent(m.sess.Traces)
	return m
}

// mouse hands the wheel to the part under it, or to the whole guide.
func (m Model) mouse(msg tea.MouseMsg) Model {
	if m.screen == screenGuide {
		m = m.wholeGuide()
		m.guide, _ = m.guide.Update(msg)
		return m
	}
	if m.screen != screenMain || m.tooSmall() {
		return m
	}
	a, ok := m.areaAt(msg.Y)
	if !ok {
		return m
	}
	return m.toArea(a, msg)
}

// startFilter opens the filter line, and the inspector if no list is shown.
func (m Model) startFilter() (tea.Model, tea.Cmd) {
	if !m.showInspector && !m.showLate {
		m.showInspector = true
		m = m.relayout()
	}
	m.screen = screenFilter
	m.filter.SetValue(m.inspector.Filter())
	return m, m.filter.Focus()
}

// filterKey edits the filter: it applies as typed, enter keeps it, esc clears it.
func (m Model) filterKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch k.Type {
	case tea.KeyEnter:
		m.screen = screenMain
		m.filter.Blur()
		return m, nil
	case tea.KeyEsc:
		m.screen = screenMain
		m.filter.Blur()
		m.filter.SetValue("")
		m.late = m.late.SetFilter("")
		m.inspector = m.inspector.SetFilter("")
		return m, nil
	}
	var cmd tea.Cmd
	if labpanel.IsText(k) {
		// Text first, as in the editor: a burst's "end" is text, not the key.
		v, at := []rune(m.filter.Value()), m.filter.Position()
		m.filter.SetValue(string(v[:at]) + string(k.Runes) + string(v[at:]))
		m.filter.SetCursor(at + len(k.Runes))
	} else {
		m.filter, cmd = m.filter.Update(k)
	}
	m.late = m.late.SetFilter(m.filter.Value())
	m.inspector = m.inspector.SetFilter(m.filter.Value())
	return m, cmd
}

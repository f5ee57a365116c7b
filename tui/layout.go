package tui

import (
	"github.com/labtui/labtui/tui/components/footer"
	"github.com/labtui/labtui/tui/components/header"
	"github.com/labtui/labtui/tui/components/labpanel"
	"github.com/labtui/labtui/tui/components/replaybar"
)

// layout is where each part of the main screen sits, in lines from the top.
type layout struct {
	replayY, replayH       int
	panesY, panesH         int
	lateY, lateH           int
	inspectorY, inspectorH int
	labY, labH             int
	// statusLines is the footer's status lines: a long status wraps onto lines the
	// panes give up (statusPanes).
	statusLines int
}

// minPanes is the height under which the panes show too little to be worth drawing.
const minPanes = 8

// statusPanes is the height the panes keep when they give lines to a long status: it
// stays until the next one, and a few rows of the panes are worth the message whole.
const statusPanes = 5

// tooSmall reports whether the terminal is known to be below MinWidth x MinHeight
// (before the first size message it is not known).
func (m Model) tooSmall() bool {
	return m.width > 0 && (m.width < minWidth || m.height < minHeight)
}

// relayout shares the height between the parts and sizes every component.
func (m Model) relayout() Model {
	avail := max(0, m.height-header.Height-footer.Height)
	m.footer = m.footer.SetWidth(m.width)
	var l layout
	if m.showReplayBar() {
		l.replayH = replaybar.Height
		avail = max(0, avail-l.replayH)
	}
	l.labH = labpanel.CollapsedHeight
	if m.focus == areaLab {
		l.labH = max(18, avail*60/100)
	}
	if m.showLate && m.view == viewPanes {
		l.lateH = max(4, avail/5)
	}
	if m.showInspector && m.view == viewPanes {
		l.inspectorH = max(5, avail/4)
	}
	floors := min(l.lateH, 3) + min(l.inspectorH, 4) // what they shrink to below
	if m.focus == areaLab && avail-l.labH-floors < minPanes {
		// The lab panel with the focus shares a small screen with the panes alone, so the
		// learner sees the minutes while writing about them: the late records and the
		// inspector come back with the focus.
		l.lateH, l.inspectorH = 0, 0
		if avail-l.labH < minPanes {
			// A small terminal (80x24): the panes keep what they need to be read, and the
			// panel, compact, the rest.
			l.labH = max(labpanel.CompactHeight, avail-minPanes)
		}
	}
	l.panesH = avail - l.labH - l.lateH - l.inspectorH
	shrink := func(h *int, floor int) {
		if d := minPanes - l.panesH; d > 0 && *h > floor {
			take := min(d, *h-floor)
			*h -= take
			l.panesH += take
		}
	}
	shrink(&l.inspectorH, 4)
	shrink(&l.lateH, 3)
	if m.focus == areaLab {
		// The lab with the focus keeps its room; panes too short to read give theirs up.
		if l.panesH < minPanes {
			l.labH += l.panesH
			l.panesH = 0
		}
	}
	l.panesH = max(0, l.panesH)
	// A status longer than its line takes lines from the panes, as many as it wraps to
	// while they keep statusPanes; the rest of it is cut.
	l.statusLines = 1
	if l.panesH > statusPanes {
		give := min(m.footer.StatusLines(m.status)-1, l.panesH-statusPanes)
		l.panesH -= give
		l.statusLines += give
	}
	l.replayY = header.Height
	l.panesY = l.replayY + l.replayH
	l.lateY = l.panesY + l.panesH
	l.inspectorY = l.lateY + l.lateH
	l.labY = l.inspectorY + l.inspectorH
	m.layout = l

	m.header = m.header.SetWidth(m.width)
	m.footer = m.footer.SetStatusLines(l.statusLines)
	m.replayBar = m.replayBar.SetWidth(m.width)
	m.panes = m.panes.SetSize(m.width, l.panesH).SetFocused(m.focus == areaPanes)
	m.diffView = m.diffView.SetSize(m.width, l.panesH).SetFocused(m.focus == areaPanes)
	m.skewView = m.skewView.SetSize(m.width, l.panesH).SetFocused(m.focus == areaPanes)
	m.drill = m.drill.SetSize(m.width, l.panesH)
	// The lists page by the panes' page, so pgdn moves every part alike.
	page := l.panesH - 4
	m.late = m.late.SetSize(m.width, l.lateH).SetFocused(m.focus == areaLate).SetPage(page)
	m.inspector = m.inspector.SetSize(m.width, l.inspectorH).SetFocused(m.focus == areaInspector).SetPage(page)
	m.lab = m.lab.SetSize(m.width, l.labH).SetFocused(m.focus == areaLab)
	m.guide = m.guide.SetSize(m.width, m.height-header.Height-footer.Height)
	m.filter.Width = max(10, m.width-len(m.filter.Prompt)-2)
	return m
}

// areaAt returns the part of the main screen at line y.
func (m Model) areaAt(y int) (area, bool) {
	l := m.layout
	switch {
	case y >= l.panesY && y < l.panesY+l.panesH:
		return areaPanes, true
	case y >= l.lateY && y < l.lateY+l.lateH:
		return areaLate, true
	case y >= l.inspectorY && y < l.inspectorY+l.inspectorH:
		return areaInspector, true
	case y >= l.labY && y < l.labY+l.labH:
		return areaLab, true
	}
	return 0, false
}

// showReplayBar says whether the replay's progress line is shown: while a replay runs,
// and afterwards as long as the panes show the replay's run.
func (m Model) showReplayBar() bool { return m.sess.Replaying() || m.sess.Current().Replay }

// relayoutIfNeeded lays the screen out again when the replay line comes or goes.
func (m Model) relayoutIfNeeded() Model {
	if m.showReplayBar() != (m.layout.replayH > 0) {
		return m.relayout()
	}
	return m
}

// Package skewview is the skew view: Akidau's picture of the current run, event time
// across and processing time up, each record a dot (the held gateway's in their own
// colour), the watermark, the event-time windows as strips that close where the
// watermark crosses them and the processing-time windows as bands with their sums. The
// picture is built and drawn off the update loop; the view shows the latest drawing.
package skewview

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/labtui/labtui/internal/skew"
	"github.com/labtui/labtui/tui/textutil"
	"github.com/labtui/labtui/tui/theme"
)

// Model is the skew view: its size, the latest picture built and its drawing. Refresh
// starts a build or a drawing off the loop, Update shows it, and View shows the latest.
type Model struct {
	styles  theme.Styles
	layers  [skew.Text + 1]lipgloss.Style
	width   int
	height  int
	focused bool
	title   string
	picture string
	note    string
	// fitted is the picture fitted to the view, redone when either changes.
	fitted string
	built  built
}

// New returns an empty skew view.
func New(styles theme.Styles) Model {
	m := Model{styles: styles}
	m.layers[skew.Strips] = styles.Rule
	m.layers[skew.Bands] = styles.Dim
	m.layers[skew.Diagonal] = styles.Dim
	m.layers[skew.WatermarkLine] = styles.FocusTitle.UnsetBold()
	m.layers[skew.Marks] = styles.Mark
	m.layers[skew.Records] = styles.Good
	m.layers[skew.LateRecords] = styles.Error
	m.layers[skew.HeldRecords] = styles.Warn
	m.layers[skew.Text] = lipgloss.NewStyle()
	return m
}

// SetSize sets the cells the view fills.
func (m Model) SetSize(w, h int) Model {
	if w != m.width || h != m.height {
		m.width, m.height = w, h
		m = m.fit()
	}
	return m
}

// SetFocused says whether the view has the focus.
func (m Model) SetFocused(f bool) Model {
	m.focused = f
	return m
}

// PictureSize is the size the picture is to be drawn at: the view less its title line.
func (m Model) PictureSize() (w, h int) { return m.width, max(0, m.height-1) }

// style colours one run of cells of a layer: held gateway's dots in the warning colour,
// late records in the error colour, the watermark in the focus colour. It reads only
// styles fixed at New, so commands may call it from any goroutine.
func (m Model) style() func(skew.Layer, string) string {
	layers := m.layers
	return func(l skew.Layer, s string) string {
		if int(l) < len(layers) && l != skew.Blank {
			return layers[l].Render(s)
		}
		return s
	}
}

// setPicture shows a drawing of the picture (from skew.RenderStyled at PictureSize)
// under a title.
func (m Model) setPicture(title, picture string) Model {
	m.title, m.picture = title, picture
	return m.fit()
}

// fit fits the drawing to the view: a drawing made for another size is cut or padded
// until the next one arrives.
func (m Model) fit() Model {
	body := m.picture
	if body == "" {
		body = "\n" + m.styles.Dim.Render("  no picture yet")
	}
	m.fitted = textutil.Block(strings.TrimRight(body, "\n"), m.width, max(0, m.height-1))
	return m
}

// setNote sets what the view says of work under way or missing ("" for nothing).
func (m Model) setNote(note string) Model {
	m.note = note
	return m
}

// View draws the title line and the picture.
func (m Model) View() string {
	if m.height < 1 {
		return ""
	}
	st := m.styles.Title
	if m.focused {
		st = m.styles.FocusTitle
	}
	head := st.Render("skew")
	if m.title != "" {
		head += " · " + m.title
	}
	if m.note != "" {
		head += " · " + m.styles.Warn.Render(m.note)
	}
	if back := m.styles.Dim.Render(" · s or esc: back to the panes"); ansi.StringWidth(head+back) <= m.width {
		head += back
	}
	if m.height == 1 {
		return textutil.Fit(head, m.width)
	}
	return textutil.Fit(head, m.width) + "\n" + m.fitted
}

// Package theme holds the TUI's styles. Every distinction a style makes is also made in
// text (a marker, a word), so the screen reads the same with NO_COLOR or a monochrome
// terminal, where lipgloss renders these styles as plain text.
package theme

import "github.com/charmbracelet/lipgloss"

// Styles are the TUI's lipgloss styles.
type Styles struct {
	// Title is a pane's title.
	Title lipgloss.Style
	// FocusTitle is the title of the pane with the focus.
	FocusTitle lipgloss.Style
	// Dim is secondary text: column heads, waiting cells, counts.
	Dim lipgloss.Style
	// Differs is a row whose value differs between the panes.
	Differs lipgloss.Style
	// Mark is a mark line.
	Mark lipgloss.Style
	// Warn is a hiccup, a late record, a replay under way.
	Warn lipgloss.Style
	// Error is a problem the learner should read.
	Error lipgloss.Style
	// Good is a ticked step.
	Good lipgloss.Style
	// Selected is the selected line of a list.
	Selected lipgloss.Style
	// Rule is the line between panes and regions.
	Rule lipgloss.Style
}

// New returns the TUI's styles.
func New() Styles {
	return Styles{
		Title:      lipgloss.NewStyle().Bold(true),
		FocusTitle: lipgloss.NewStyle().Bold(true).Foreground(lipgloss.AdaptiveColor{Light: "25", Dark: "39"}),
		Dim:        lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "244", Dark: "245"}),
		Differs:    lipgloss.NewStyle().Bold(true).Foreground(lipgloss.AdaptiveColor{Light: "160", Dark: "203"}),
		Mark:       lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "91", Dark: "177"}),
		Warn:       lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "130", Dark: "214"}),
		Error:      lipgloss.NewStyle().Bold(true).Foreground(lipgloss.AdaptiveColor{Light: "160", Dark: "203"}),
		Good:       lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "28", Dark: "78"}),
		Selected:   lipgloss.NewStyle().Bold(true).Reverse(true),
		Rule:       lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "250", Dark: "238"}),
	}
}

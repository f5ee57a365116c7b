package tui

import (
	"slices"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"

	"github.com/labtui/labtui/tui/components/diffview"
	"github.com/labtui/labtui/tui/components/drill"
	"github.com/labtui/labtui/tui/components/labpanel"
	"github.com/labtui/labtui/tui/components/panes"
	"github.com/labtui/labtui/tui/components/records"
)

// keyMap is every key of the main screen, as data: the footer and the help screen are
// drawn from it by bubbles/help.
type keyMap struct {
	Generator key.Binding
	Inject    key.Binding
	Replay    key.Binding
	Timestamp key.Binding
	Mark      key.Binding
	Kill      key.Binding
	Strategy  key.Binding
	Export    key.Binding

	Diff    key.Binding
	Skew    key.Binding
	Open    key.Binding
	NextTab key.Binding
	PrevTab key.Binding
	Back    key.Binding

	Focus     key.Binding
	FocusBack key.Binding
	Late      key.Binding
	Inspector key.Binding
	Filter    key.Binding
	Help      key.Binding

	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Home     key.Binding
	End      key.Binding

	Lab  labpanel.KeyMap
	Quit key.Binding
}

// defaultKeyMap returns labtui's keys.
func defaultKeyMap() keyMap {
	return keyMap{
		Generator: key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "generator on/off")),
		Inject:    key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "inject a hiccup")),
		Replay:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "replay the recorded hour")),
		Timestamp: key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "switch the timestamp field and replay")),
		Mark:      key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "mark line in both panes")),
		Kill:      key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "kill the job: restart, empty state")),
		Strategy:  key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "watermark strategy: restart the job")),
		Export:    key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export answers")),

		Diff:    key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "diff against the re-enacted hour")),
		Skew:    key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "skew picture of the run")),
		Open:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "≠ rows: the records that differ")),
		NextTab: key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "next diff tab")),
		PrevTab: key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "previous diff tab")),
		Back:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the panes")),

		Focus:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "focus next")),
		FocusBack: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "focus previous")),
		Late:      key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "late records pane")),
		Inspector: key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "record inspector")),
		Filter:    key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter records")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "all keys")),

		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", " "), key.WithHelp("pgdn", "page down")),
		Home:     key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "oldest")),
		End:      key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "newest, follow")),

		Lab:  labpanel.DefaultKeyMap(),
		Quit: key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
}

// The components' keys are the main screen's, so the help lists each once.

// panes are the keys the panes scroll by.
func (k keyMap) panes() panes.KeyMap {
	return panes.KeyMap{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Home: k.Home, End: k.End}
}

// records are the keys the late records and the inspector scroll by.
func (k keyMap) records() records.KeyMap {
	return records.KeyMap{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Home: k.Home, End: k.End}
}

// diff are the keys the diff view scrolls and changes tabs by.
func (k keyMap) diff() diffview.KeyMap {
	return diffview.KeyMap{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Home: k.Home, End: k.End,
		NextTab: k.NextTab, PrevTab: k.PrevTab}
}

// drill are the keys that move the drill's selection and scroll its records.
func (k keyMap) drill() drill.KeyMap {
	return drill.KeyMap{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown}
}

// guide are the keys the whole guide scrolls by.
func (k keyMap) guide() labpanel.GuideKeys {
	return labpanel.GuideKeys{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Home: k.Home, End: k.End}
}

// mainHelp is the help of the main screen; it satisfies help.KeyMap. uses are the keys
// the lab panel's selected exercise tells the learner to press (labpanel.Guide.Uses).
type mainHelp struct {
	k    keyMap
	uses []string
	// replaying hides the keys that only say "wait for the replay" while one runs (r, t,
	// w); diff offers d once there is a replay to diff (one under way says so in it).
	replaying, diff bool
}

// ShortHelp is the footer's line, most used keys first: the footer shows as many as
// fit and always the last two, the key for every key and quit. The selected exercise's
// keys come first, then the whole guide and the focus, then the rest.
func (h mainHelp) ShortHelp() []key.Binding {
	k := h.k
	rest := []key.Binding{
		short(k.Lab.Guide, "guide"), short(k.Focus, "focus"),
		short(k.Generator, "generator"), short(k.Inject, "hiccup"), short(k.Replay, "replay"),
		short(k.Timestamp, "ts field"), short(k.Strategy, "watermarks"), short(k.Export, "export"),
		short(k.Diff, "diff"), short(k.Mark, "mark"), short(k.Late, "late"), short(k.Skew, "skew"),
		short(k.Kill, "kill job"), short(k.Filter, "filter"), short(k.Inspector, "records"),
	}
	// Only the keys that act now: d once a replay has begun, r, t and w not while one runs.
	rest = slices.DeleteFunc(rest, func(b key.Binding) bool {
		switch b.Help().Key {
		case k.Diff.Help().Key:
			return !h.diff
		case k.Replay.Help().Key, k.Timestamp.Help().Key, k.Strategy.Help().Key:
			return h.replaying
		}
		return false
	})
	out := make([]key.Binding, 0, len(rest)+2)
	for _, u := range h.uses {
		for i, b := range rest {
			if b.Help().Key == u {
				out = append(out, b)
				rest = append(rest[:i:i], rest[i+1:]...)
				break
			}
		}
	}
	return append(append(out, rest...), short(k.Help, "all keys"), short(k.Quit, "quit"))
}

// short is b with a shorter description.
func short(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// FullHelp is every key, a group per column: the lab, the views, scrolling, answers.
func (h mainHelp) FullHelp() [][]key.Binding {
	k := h.k
	tabs := key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "diff tabs: event, processing, moved"))
	focus := key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "focus next (shift+tab back)"))
	// The help screen's own line says ? or esc goes back, so ? is not listed here.
	return [][]key.Binding{
		{k.Generator, k.Inject, k.Strategy, k.Replay, k.Timestamp, k.Mark, k.Kill},
		{k.Diff, tabs, k.Skew, k.Open, k.Back, focus, k.Late, k.Inspector, k.Filter},
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End},
		{k.Lab.Guide, k.Lab.Prev, k.Lab.Next, k.Lab.Edit, k.Lab.Done, k.Lab.Pin, k.Lab.Unpin, k.Lab.Repin, k.Export, k.Quit},
	}
}

// helpGroupTitles name FullHelp's groups on the help screen.
var helpGroupTitles = []string{"The lab", "Views", "Scrolling", "Answers"}

// editHelp is the footer while an answer has the keyboard.
type editHelp struct{ k keyMap }

func (h editHelp) ShortHelp() []key.Binding {
	quit := key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit"))
	// A tab while writing is text (see editKey), so the footer says so rather than
	// offering tab as the way on.
	tab := key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "indents (esc first to move on)"))
	return []key.Binding{h.k.Lab.Done, tab, quit}
}

func (h editHelp) FullHelp() [][]key.Binding { return [][]key.Binding{h.ShortHelp()} }

// screenKeys is the footer's key line on a screen that asks something or shows one thing
// (the whole guide, the help, a picker): that screen's own keys, not the main screen's,
// which do nothing there.
type screenKeys []key.Binding

func (s screenKeys) ShortHelp() []key.Binding  { return s }
func (s screenKeys) FullHelp() [][]key.Binding { return [][]key.Binding{s} }

// keysOf is the key line of screen sc: nil for the main screen.
func (h mainHelp) keysOf(sc screen) help.KeyMap {
	k := h.k
	bind := func(keys, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys), key.WithHelp(keys, desc))
	}
	ctrlC := bind("ctrl+c", "quit")
	switch sc {
	case screenGuide:
		return screenKeys{short(k.Up, "scroll"), short(k.PageDown, "page"), bind("←/→", "another exercise"),
			key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc/q", "back")), ctrlC}
	case screenHelp:
		return screenKeys{key.NewBinding(key.WithKeys("?", "esc", "q"), key.WithHelp("?/esc/q", "back")), ctrlC}
	case screenPick:
		return screenKeys{bind("enter", "inject"), bind("esc", "cancel"), ctrlC}
	case screenStrategy:
		return screenKeys{bind("enter", "restart the job with it"), bind("esc", "cancel"), ctrlC}
	case screenFilter:
		return screenKeys{bind("enter", "keep the filter"), bind("esc", "clear it"), ctrlC}
	case screenResume:
		return screenKeys{bind("y", "continue"), bind("n", "start afresh"), short(k.Quit, "quit")}
	}
	return nil
}

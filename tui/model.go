// Package tui is labtui's terminal UI for Lab 4: both TenantCost sinks side by side,
// the faults one key away, and the lab as a guided checklist. The root Model is a small
// state machine that handles global keys, resizes and the backend's messages, and hands
// the rest to the component with the focus (the packages under tui/components). Every
// stream reaches Update as messages; no goroutine writes to the model.
package tui

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/labs"
	"github.com/labtui/labtui/tui/components/diffview"
	"github.com/labtui/labtui/tui/components/drill"
	"github.com/labtui/labtui/tui/components/footer"
	"github.com/labtui/labtui/tui/components/header"
	"github.com/labtui/labtui/tui/components/labpanel"
	"github.com/labtui/labtui/tui/components/panes"
	"github.com/labtui/labtui/tui/components/picker"
	"github.com/labtui/labtui/tui/components/records"
	"github.com/labtui/labtui/tui/components/replaybar"
	"github.com/labtui/labtui/tui/components/skewview"
	"github.com/labtui/labtui/tui/components/strategy"
	"github.com/labtui/labtui/tui/theme"
)

// DefaultRecording is where the lab keeps the recorded hour of gateway-events.
const DefaultRecording = labs.RecordedHourPath

// DefaultHiccup is how long an injected hiccup holds an instance: the course's 30-second
// delay and the few seconds the retries take.
const DefaultHiccup = 35 * time.Second

// MinWidth and MinHeight are the smallest terminal labtui draws in.
const (
	minWidth  = 80
	minHeight = 24
)

// Config is what the TUI needs besides a backend. The zero value of a field means its
// default.
type Config struct {
	// Hiccup is the duration `i` injects; default DefaultHiccup.
	Hiccup time.Duration
	// Recording is the file `r` and `t` replay; default DefaultRecording.
	Recording string
	// Warning, if not empty, is a sentence the status line shows once the lab is up
	// (what labtui could not save, and the fix), and the log keeps.
	Warning string
	// ExportDir is where `e` writes lab-04-answers.md and .json; default ".".
	ExportDir string
	// Store autosaves answers and progress; nil turns autosave off.
	Store *state.Store
	// Saved is the progress found in the Store at start, if any: the TUI offers to
	// continue with it.
	Saved *state.State
	// Now stamps saves and exports; default time.Now.
	Now func() time.Time
	// Clock is what a planned hiccup waits on and counts down by; default the wall
	// clock.
	Clock generator.Clock
	// Logger receives what labtui logs; it must not write to the terminal. Default: none.
	Logger *slog.Logger
	// Limits bound what the session keeps; zero fields mean their defaults.
	Limits session.Limits
	// StartGenerator turns the generator on once the lab is up, so the panes fill
	// without a key press.
	StartGenerator bool
	// Job is the job's options (prices, watermarks), for the live run the diff view
	// re-enacts from the recording; its Timestamp and Trace are set per re-enactment.
	// The zero value is the course's defaults, as the lab's job runs unless told
	// otherwise.
	Job jobspec.Options
	// Reenact re-enacts a recording at its recorded times, for the reference the diff
	// view compares a replay with; nil means replays are not compared (the view says
	// so). The program supplies it (cli), so the TUI needs no engine.
	Reenact session.Reenact
}

func (c Config) withDefaults() Config {
	if c.Hiccup <= 0 {
		c.Hiccup = DefaultHiccup
	}
	if c.Recording == "" {
		c.Recording = DefaultRecording
	}
	if c.ExportDir == "" {
		c.ExportDir = "."
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Clock == nil {
		c.Clock = generator.WallClock{}
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return c
}

// screen is the root state machine's state.
type screen uint8

const (
	// screenResume asks whether to continue with saved answers.
	screenResume screen = iota
	// screenMain is the panes, the lists and the lab panel.
	screenMain
	// screenHelp lists every key.
	screenHelp
	// screenGuide is the selected exercise's whole guide (labpanel.Guide).
	screenGuide
	// screenPick asks which instance a hiccup holds.
	screenPick
	// screenFilter edits the records filter.
	screenFilter
	// screenStrategy asks which watermark strategy the job restarts with.
	screenStrategy
	// screenQuitting waits for the backend to close.
	screenQuitting
)

// area is a part of the main screen that can have the focus.
type area uint8

const (
	areaPanes area = iota
	areaLate
	areaInspector
	areaLab
)

// Model is the root model.
type Model struct {
	cfg Config
	b   backend.Backend
	// restarter is b's job restart, when b offers one.
	restarter backend.Restarter
	// reconfigurer restarts b's job with other options, when b offers it.
	reconfigurer backend.Reconfigurer
	ctx          context.Context
	cancel       context.CancelFunc
	tasks        *tasks
	keys         keyMap
	styles       theme.Styles

	screen screen
	view   view
	focus  area
	width  int
	height int
	layout layout

	// sess is the lab session: runs, evidence, comparisons.
	sess *session.Session

	header    header.Model
	panes     panes.Model
	late      records.Model
	inspector records.Model
	lab       labpanel.Model
	guide     labpanel.Guide
	footer    footer.Model
	replayBar replaybar.Model
	diffView  diffview.Model
	skewView  skewview.Model
	picker    picker.Model
	strategy  strategy.Model
	drill     drill.Model
	filter    textinput.Model

	// viewTicking says a view tick is on its way (viewTickMsg).
	viewTicking bool

	showLate      bool
	showInspector bool

	// planned is a hiccup waiting for its start, if any.
	planned *plannedHiccup

	started  bool
	startErr string
	closed   bool

	status string
	level  footer.Level

	// exportDue says e was pressed while a comparison was under way: the export follows
	// when it is done.
	exportDue bool
	// runsAt is the lab's processing time the lab panel's runs line was last worked out.
	runsAt int64
	// catchUpSaid is the run whose catch-up lateness the status line has said (session.CatchUpNote).
	catchUpSaid int
	// rev is the autosave revision; labRev the lab panel's revision last seen.
	rev    uint64
	labRev uint64
	// warning says the status line shows Config.Warning or an error, which log lines do
	// not replace until the learner presses a key.
	warning bool
	// savePending says an autosave is writing; saveAgain that a change came after it.
	savePending, saveAgain bool
	// saveOK says autosave may write: not while the learner is still deciding whether
	// to continue with saved answers, nor while a fresh start's archive is moving them
	// aside (a save before its rename would overwrite them, or be moved aside itself).
	saveOK bool
	// archiving says a fresh start's archive is running; archiveRev is rev when it began.
	archiving  bool
	archiveRev uint64
}

// runsBefore is the number the session numbers its runs on from: the saved progress's
// last run, whether or not the learner continues with it, so no run shown or saved
// shares a number with one of an earlier session.
func runsBefore(saved *state.State) int {
	if saved == nil {
		return 0
	}
	return saved.RunsBefore()
}

// New returns the root model driving b. Start it with tea.NewProgram, or use Run.
func New(b backend.Backend, cfg Config) Model {
	cfg = cfg.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	styles := theme.New()
	keys := defaultKeyMap()
	fi := textinput.New()
	fi.Prompt = "filter (tenant, gateway or request id): "
	fi.Placeholder = "acme, gw-1, r-103…"
	m := Model{
		cfg: cfg, b: b, ctx: ctx, cancel: cancel, tasks: newTasks(), keys: keys, styles: styles,
		screen: screenMain,
		sess: session.New(session.Config{Limits: cfg.Limits, Recording: cfg.Recording, Job: cfg.Job,
			Reenact: cfg.Reenact, RunsBefore: runsBefore(cfg.Saved)}),
		header:    header.New(styles),
		panes:     panes.New(styles, keys.panes()),
		late:      records.New(styles, records.Late, keys.records()),
		inspector: records.New(styles, records.Inspector, keys.records()),
		lab:       labpanel.New(styles, keys.Lab, nil),
		guide:     labpanel.NewGuide(keys.guide()),
		footer:    footer.New(styles),
		replayBar: replaybar.New(styles),
		diffView:  diffview.New(styles, keys.diff()),
		skewView:  skewview.New(styles),
		drill:     drill.New(styles, keys.drill()),
		filter:    fi,
		saveOK:    true,
		status:    "starting the " + b.Name() + " lab…",
	}
	m.restarter, _ = unwrap(b).(backend.Restarter)
	m.keys.Kill.SetEnabled(m.restarter != nil)
	m.reconfigurer, _ = unwrap(b).(backend.Reconfigurer)
	m.keys.Strategy.SetEnabled(m.reconfigurer != nil)
	if cfg.Saved != nil && !cfg.Saved.Empty() {
		m.screen = screenResume
		m.saveOK = false
	}
	return m.relayout()
}

// Init starts the backend and begins listening to its updates.
func (m Model) Init() tea.Cmd {
	return tea.Batch(m.startCmd(), listen(m.b.Updates()))
}

// Snapshot returns the learner's progress as it stands: answers, steps and evidence.
func (m Model) Snapshot() state.State {
	st := m.sess.Snapshot(m.lab.Answers(), m.rev)
	st.SavedAt = m.cfg.Now().UTC()
	return st
}

// CanSave reports whether the model's progress may be written over the saved file: not
// while the learner has not yet said whether to continue with the saved answers.
func (m Model) CanSave() bool { return m.saveOK }

// Closed reports whether the backend's Close returned.
func (m Model) Closed() bool { return m.closed }

// now is the lab's processing time, or 0 before the first status.
func (m Model) now() int64 { return m.sess.Now() }

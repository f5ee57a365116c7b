package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/fileerr"
)

// LogFile is the name of labtui's log inside the state directory.
const LogFile = "labtui.log"

// OpenLog opens (appending) the log file in dir, creating dir if needed.
func OpenLog(dir string) (*os.File, error) {
	const fix = "set LABTUI_STATE_DIR or --state-dir to a folder you can write"
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create the state folder %s, where answers and the log are kept (%s): %s", dir, fileerr.Reason(err), fix)
	}
	f, err := os.OpenFile(filepath.Join(dir, LogFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot write the log in the state folder %s (%s): %s", dir, fileerr.Reason(err), fix)
	}
	return f, nil
}

// Run runs the TUI over b until the learner quits or ctx ends. Whatever way it ends, it
// closes b (once), saves the answers, and waits for the commands it started, so nothing
// outlives it. While it runs, the standard logger and slog's default write to logOut
// (the TUI owns the terminal); logOut may be nil to discard. opts are added to the
// program's options (tests pass their own input and output).
func Run(ctx context.Context, b backend.Backend, cfg Config, logOut io.Writer, opts ...tea.ProgramOption) error {
	if os.Getenv("NO_COLOR") != "" {
		lipgloss.SetColorProfile(termenv.Ascii)
	}
	if logOut == nil {
		logOut = io.Discard
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(logOut, nil))
	}
	prevLog, prevSlog := log.Writer(), slog.Default()
	log.SetOutput(logOut)
	slog.SetDefault(cfg.Logger)
	defer func() {
		log.SetOutput(prevLog)
		slog.SetDefault(prevSlog)
	}()

	ob := &onceBackend{Backend: b}
	m := New(ob, cfg)
	popts := append([]tea.ProgramOption{tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithContext(ctx)}, opts...)
	final, err := tea.NewProgram(m, popts...).Run()
	if fm, ok := final.(Model); ok {
		m = fm
	}
	m.cancel()
	if cerr := ob.Close(); cerr != nil {
		m.cfg.Logger.Error("close the lab", "err", cerr)
	}
	canSave := m.CanSave()
	if !canSave && m.archiving && m.cfg.Store != nil {
		// Quit before a fresh start's archive returned: what was typed since is saved
		// once it has finished, and only if the old answers are no longer in the file.
		m.tasks.wait(10 * time.Second)
		_, lerr := os.Lstat(m.cfg.Store.Path())
		canSave = errors.Is(lerr, os.ErrNotExist)
		if !canSave {
			m.cfg.Logger.Error("the saved answers were not moved aside: this session's are not saved over them", "path", m.cfg.Store.Path())
		}
	}
	if canSave && m.cfg.Store != nil {
		st := m.Snapshot()
		st.Revision = m.rev + 1
		if _, serr := m.cfg.Store.Save(st); serr != nil && err == nil {
			err = fmt.Errorf("save the answers: %w", serr)
		}
	}
	if !m.tasks.wait(10 * time.Second) {
		m.cfg.Logger.Warn("commands still running after 10s at exit")
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	if err == nil && m.startErr != "" {
		// The learner read it on screen; the shell gets it too, and a failing status.
		return fmt.Errorf("the lab did not start: %s", m.startErr)
	}
	return err
}

// onceBackend makes Close safe to call more than once: the first call closes, later ones
// wait for it and return its error.
type onceBackend struct {
	backend.Backend
	once sync.Once
	err  error
}

// Close closes the backend once. A backend that holds its job back for a slow reader
// rather than drop a result (the embedded lab's Lossless) is told to stop holding back
// first: the TUI is quitting, and nothing reads its updates any more.
func (o *onceBackend) Close() error {
	o.once.Do(func() {
		if a, ok := o.Backend.(interface{ Abandon() }); ok {
			a.Abandon()
		}
		o.err = o.Backend.Close()
	})
	return o.err
}

// unwrap returns the backend a onceBackend wraps, so its optional interfaces show.
func unwrap(b backend.Backend) backend.Backend {
	if o, ok := b.(*onceBackend); ok {
		return o.Backend
	}
	return b
}

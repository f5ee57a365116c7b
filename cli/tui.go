package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/backend/embedded"
	"github.com/labtui/labtui/internal/fileerr"
	"github.com/labtui/labtui/labs"
	"github.com/labtui/labtui/state"
	"github.com/labtui/labtui/tui"
)

// newBackend builds the lab the TUI drives. It is a variable so the lab's constructor
// can be plugged in here (and a test can plug in a fake): it is given the app, whose
// settings hold the flags, the environment and the config file, and returns a Backend
// that has not been started; the TUI calls Start, and Close when it quits.
//
// The backend setting (--backend, LABTUI_BACKEND, backend: in the config file) chooses
// the lab: "embedded", the default, or "compose", which runs the doctor's checks first.
var newBackend = func(a *app) (backend.Backend, error) {
	switch name := a.cfg.Backend; name {
	case "", "embedded":
		cfg, err := a.labConfig()
		if err != nil {
			return nil, err
		}
		cfg.Job.Trace = true // the record inspector shows every record
		// Every result reaches the session: a replay of the hour writes faster than a
		// screen draws, and a result dropped there would be missing from the diff. The
		// TUI abandons holding back when it quits (tui.Run).
		cfg.Lossless = true
		return embedded.New(cfg)
	case "compose":
		return a.composeBackend(false)
	case "cluster", "remote":
		return a.clusterBackend(name, true)
	default:
		return nil, fmt.Errorf("--backend must be embedded, compose, cluster or remote, not %q", name)
	}
}

// setupTUI makes the bare `labtui` command open the TUI, and adds its flags.
func (a *app) setupTUI(root *cobra.Command) {
	root.RunE = a.runTUI
	root.Args = cobra.NoArgs
	addTUIFlags(root)
	addJobFlags(root)
	addLabFlags(root)
}

// addTUIFlags adds the flags of the terminal UI (labtui, and labtui run without
// --headless).
func addTUIFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.Duration("hiccup-duration", tui.DefaultHiccup, "how long the i key holds a gateway instance's produce requests")
	f.String("recording", tui.DefaultRecording, "the recorded hour the r and t keys replay")
	f.String("export-dir", ".", "where the e key writes lab-04-answers.md and lab-04-answers.json")
	f.String("backend", "embedded", "the lab: embedded (everything in labtui), compose (Kafka and Flink in Docker), cluster (Kafka and Flink as processes of labtui, installed once) or remote (--brokers and --flink of a cluster that runs); see labtui doctor")
	addClusterCacheFlag(cmd)
	addRemoteFlags(cmd)
	f.String("cluster-run-dir", "", "--backend cluster: the folder of the run's files (configuration, logs, the TaskManagers' stdout); default a new one in the cluster cache")
	f.Bool("start-generator", true, "turn the generator on as soon as the lab is up (the g key toggles it)")
}

// runTUI runs the TUI until the learner quits: answers autosave to the state directory,
// and the log goes to a file there, never to the screen.
func (a *app) runTUI(cmd *cobra.Command, _ []string) error {
	defer limitMemory()()
	// Every value is checked before anything starts or the state is touched.
	if err := a.checkFaults(); err != nil {
		return err
	}
	dir := a.stateDir()
	lock, err := state.LockDir(dir, "the TUI")
	if err != nil {
		return err
	}
	defer lock.Unlock()
	logf, err := tui.OpenLog(dir)
	if err != nil {
		return err
	}
	defer logf.Close()
	store := state.NewStore(dir)
	saved, found, err := store.Load()
	if err != nil {
		return err
	}
	b, err := newBackend(a)
	if err != nil {
		return err
	}
	job, err := a.jobOptions()
	if err != nil {
		return err
	}
	recording, warning := a.recording()
	cfg := tui.Config{
		Warning:   warning,
		Job:       job,
		Reenact:   sessionReenact,
		Hiccup:    a.cfg.HiccupDuration,
		Recording: recording,
		ExportDir: a.cfg.ExportDir,
		Store:     store,

		StartGenerator: a.cfg.StartGenerator,
	}
	if found {
		cfg.Saved = &saved
	}
	return tui.Run(cmd.Context(), b, cfg, logf)
}

// recording is the file the r and t keys replay: the recording setting; for the default,
// the repository's copy when labtui runs from the repository, else the copy embedded in
// labtui, written once to labtui's folder in the user's cache directory. A cache that
// cannot be written does not keep the TUI from starting: the copy goes to the temporary
// folder instead (or, failing that, r and t have nothing to replay), and warning says
// what could not be saved and how to fix it.
func (a *app) recording() (path, warning string) {
	path = a.cfg.Recording
	if path != tui.DefaultRecording {
		return path, ""
	}
	if _, err := os.Stat(path); err == nil {
		return path, ""
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = a.stateDir()
	}
	dir = filepath.Join(dir, "labtui")
	path, err = labs.RecordedHour(dir)
	if err == nil {
		return path, ""
	}
	reason := fileerr.Reason(err)
	tmp := filepath.Join(os.TempDir(), fmt.Sprintf("labtui-%d", os.Getuid()))
	if path, terr := labs.RecordedHour(tmp); terr == nil {
		return path, fmt.Sprintf("cannot save the recorded hour in %s (%s): set XDG_CACHE_HOME to a folder you can write; meanwhile r and t replay a copy in %s that is not kept",
			dir, reason, tmp)
	}
	return "", fmt.Sprintf("cannot save the recorded hour in %s (%s) or in %s: set XDG_CACHE_HOME to a folder you can write, or give --recording FILE; until then r and t have nothing to replay",
		dir, reason, tmp)
}

// stateDir is where answers autosave and the log goes: the state-dir setting
// (LABTUI_STATE_DIR), else $XDG_STATE_HOME/labtui, else ~/.local/state/labtui.
func (a *app) stateDir() string {
	if d := a.cfg.StateDir; d != "" {
		return d
	}
	return state.Dir()
}

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/backend/embedded"
	"github.com/labtui/labtui/internal/fileerr"
	"github.com/labtui/labtui/internal/memlimit"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/labs"
	"github.com/labtui/labtui/tui"
)

// tuiOptions are the bare labtui's options, the TUI's, which labtui run has too.
type tuiOptions struct {
	labOptions
	// Backend is the lab: "embedded", the default, "compose", "cluster" or "remote".
	Backend        string
	ClusterCache   string // "" for localcluster.DefaultCache()
	ClusterRunDir  string // "" for a new folder in the cluster cache
	Remote         remoteFlags
	HiccupDuration time.Duration
	Recording      string
	ExportDir      string
	StartGenerator bool
}

// bind binds the flags of the TUI, the embedded lab and the job.
func (o *tuiOptions) bind(f *pflag.FlagSet) {
	f.DurationVar(&o.HiccupDuration, "hiccup-duration", tui.DefaultHiccup, "how long the i key holds a gateway instance's produce requests")
	f.StringVar(&o.Recording, "recording", tui.DefaultRecording, "the recorded hour the r and t keys replay")
	f.StringVar(&o.ExportDir, "export-dir", ".", "where the e key writes lab-04-answers.md and lab-04-answers.json")
	f.StringVar(&o.Backend, "backend", "embedded", "the lab: embedded (everything in labtui), compose (Kafka and Flink in Docker), cluster (Kafka and Flink as processes of labtui, installed once) or remote (--brokers and --flink of a cluster that runs); see labtui doctor")
	bindClusterCache(f, &o.ClusterCache)
	o.Remote.bind(f)
	f.StringVar(&o.ClusterRunDir, "cluster-run-dir", "", "--backend cluster: the folder of the run's files (configuration, logs, the TaskManagers' stdout); default a new one in the cluster cache")
	f.BoolVar(&o.StartGenerator, "start-generator", true, "turn the generator on as soon as the lab is up (the g key toggles it)")
	o.Lab.bind(f)
	o.Job.bind(f)
}

// newBackend builds the lab the TUI drives, not started; the TUI calls Start, and
// Close when it quits. The backend option chooses the lab: "embedded", the default, or
// a real one, whose doctor's checks run first.
func (a *app) newBackend(o *tuiOptions) (backend.Backend, error) {
	switch name := o.Backend; name {
	case "", "embedded":
		cfg, err := a.labConfig(o.labOptions)
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
		return a.composeBackend(o, false)
	case "cluster", "remote":
		return a.clusterBackend(o, true)
	default:
		return nil, fmt.Errorf("--backend must be embedded, compose, cluster or remote, not %q", name)
	}
}

// setupTUI makes the bare `labtui` command open the TUI, and binds its flags.
func (a *app) setupTUI(root *cobra.Command) {
	o := &tuiOptions{}
	root.RunE = func(cmd *cobra.Command, _ []string) error { return a.runTUI(cmd, o) }
	root.Args = cobra.NoArgs
	o.bind(root.Flags())
	a.command(root, o)
}

// runTUI runs the TUI until the learner quits: answers autosave to the state directory,
// and the log goes to a file there, never to the screen.
func (a *app) runTUI(cmd *cobra.Command, o *tuiOptions) error {
	defer memlimit.Apply()()
	// Every value is checked before anything starts or the state is touched.
	if err := a.checkFaults(o.labOptions); err != nil {
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
	b, err := a.newBackend(o)
	if err != nil {
		return err
	}
	job, err := o.Job.options(a.global.Prices)
	if err != nil {
		return err
	}
	recording, warning := a.recording(o.Recording)
	cfg := tui.Config{
		Warning:   warning,
		Job:       job,
		Reenact:   sessionReenact,
		Hiccup:    o.HiccupDuration,
		Recording: recording,
		ExportDir: o.ExportDir,
		Store:     store,

		StartGenerator: o.StartGenerator,
	}
	if found {
		cfg.Saved = &saved
	}
	return tui.Run(cmd.Context(), b, cfg, logf)
}

// recording returns the file the r and t keys replay, and a warning: path, the
// recording option; for the default, the repository's copy when labtui runs from the
// repository, else the copy embedded in labtui, written once to labtui's folder in the
// user's cache directory. A cache that cannot be written does not keep the TUI from
// starting: the copy goes to the temporary folder instead (or, failing that, r and t
// have nothing to replay), and the warning says what could not be saved and how to fix
// it.
func (a *app) recording(path string) (string, string) {
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

// stateDir is where answers autosave and the log goes: the state-dir option, else
// $XDG_STATE_HOME/labtui, else ~/.local/state/labtui.
func (a *app) stateDir() string {
	if d := a.global.StateDir; d != "" {
		return d
	}
	return state.Dir()
}

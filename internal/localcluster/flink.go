package localcluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// defaultRESTPort is the port Flink's REST API and web UI take when it is free, as in
// the course's compose lab; else the kernel picks one.
const defaultRESTPort = 8081

// Flink is a Flink session cluster of one JobManager and one TaskManager, run with the
// scripts of the distribution inside the apache-flink wheel. Its configuration and logs
// are in the run folder; each TaskManager it starts (the first, and one per
// RestartTaskManager) logs to a folder of its own, so its stdout file, where the print
// sinks write, holds that TaskManager's lines only.
type Flink struct {
	opts     Options
	home     string
	dir      string
	RESTPort int
	rpcPort  int
	// REST is the client of the cluster's REST API.
	REST *REST
	jm   *Process

	mu  sync.Mutex
	tm  *Process
	gen int
	// tmID is the resource id of the TaskManager of gen, once it has registered.
	tmID string
	// changed is closed and replaced when a new TaskManager generation starts.
	changed chan struct{}
}

// startFlink writes the cluster's configuration, starts the JobManager
// (`jobmanager.sh start-foreground`) and the TaskManager (`taskmanager.sh
// start-foreground`), and returns once the TaskManager has registered with the
// JobManager. wantREST is the REST port to take when free (0: any free port). Stop it
// with Stop.
func startFlink(ctx context.Context, opts Options, wantREST int) (*Flink, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	f := &Flink{opts: opts, home: opts.Layout.flinkHome(), dir: filepath.Join(opts.RunDir, "flink"), changed: make(chan struct{})}
	if f.home == "" {
		return nil, fmt.Errorf("no Flink distribution in %s: run `labtui cluster install`", opts.Layout.venv())
	}
	if f.RESTPort, err = pickPort(wantREST); err != nil {
		return nil, err
	}
	if f.RESTPort != wantREST && wantREST > 0 {
		opts.logf("port %d is taken: Flink's REST API and web UI listen on %d instead", wantREST, f.RESTPort)
	}
	if f.rpcPort, err = pickPort(0); err != nil {
		return nil, err
	}
	if err := writeConfDir(f.confDir(), f.home, opts.Layout.python(), opts.tmpDir(), f.rpcPort, f.RESTPort, false); err != nil {
		return nil, fmt.Errorf("write Flink's configuration: %w", err)
	}
	f.REST = NewREST("http://" + hostPort(f.RESTPort))
	jmLog := filepath.Join(f.dir, "log", "jobmanager")
	f.jm, err = opts.startProcess("JobManager", f.script("jobmanager.sh", jmLog), filepath.Join(f.dir, "jobmanager.console"))
	if err != nil {
		return nil, err
	}
	if err := f.startTaskManager(ctx, ""); err != nil {
		f.stop()
		return nil, err
	}
	return f, nil
}

// confDir is FLINK_CONF_DIR.
func (f *Flink) confDir() string { return filepath.Join(f.dir, "conf") }

// env is the environment of every Flink script, with its log folder.
func (f *Flink) env(logDir string) []string {
	return []string{"FLINK_CONF_DIR=" + f.confDir(), "FLINK_LOG_DIR=" + logDir, "FLINK_PID_DIR=" + logDir,
		"JAVA_HOME=" + f.opts.JavaHome, "STD_REDIRECT_TO_FILE=true"}
}

// script is `bin/NAME start-foreground` with its environment: the script execs the
// JVM, so the process started is the JVM itself.
func (f *Flink) script(name, logDir string) command {
	return command{Path: filepath.Join(f.home, "bin", name), Args: []string{"start-foreground"}, Env: f.env(logDir)}
}

// startTaskManager starts the next TaskManager generation and waits until it has
// registered with the JobManager under an id other than old.
func (f *Flink) startTaskManager(ctx context.Context, old string) error {
	f.mu.Lock()
	f.gen++
	gen := f.gen
	f.mu.Unlock()
	logDir := f.taskManagerLogDir(gen)
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return fmt.Errorf("create the TaskManager's log folder: %w", err)
	}
	tm, err := f.opts.startProcess("TaskManager", f.script("taskmanager.sh", logDir), filepath.Join(logDir, "console"))
	if err != nil {
		return err
	}
	f.mu.Lock()
	f.tm, f.tmID = tm, ""
	close(f.changed)
	f.changed = make(chan struct{})
	f.mu.Unlock()
	id, err := f.waitTaskManager(ctx, old, tm)
	if err != nil {
		return err
	}
	f.mu.Lock()
	if f.gen == gen {
		f.tmID = id
	}
	f.mu.Unlock()
	f.opts.logf("TaskManager %s registered with the JobManager (pid %d); Flink's web UI: %s", id, tm.Pid(), f.REST.Base)
	return nil
}

// taskManagerLogDir is the log folder of TaskManager generation gen.
func (f *Flink) taskManagerLogDir(gen int) string {
	return filepath.Join(f.dir, "log", "taskmanager-"+strconv.Itoa(gen))
}

// waitTaskManager polls GET /taskmanagers until a TaskManager other than old is
// registered, for up to 3 minutes, and returns its id.
func (f *Flink) waitTaskManager(ctx context.Context, old string, tm *Process) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	for {
		if exited, err := f.jm.Exited(); exited {
			return "", fmt.Errorf("the JobManager exited (%v): its log in %s shows why", err, filepath.Join(f.dir, "log", "jobmanager"))
		}
		if exited, err := tm.Exited(); exited {
			return "", fmt.Errorf("the TaskManager exited during start (%v): its log in %s shows why", err, f.TaskManagerLogDir())
		}
		tms, err := f.REST.taskManagers(ctx)
		if err == nil {
			for _, t := range tms {
				if t.ID != old {
					return t.ID, nil
				}
			}
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("no TaskManager registered with the JobManager at %s: %w", f.REST.Base, ctx.Err())
		case <-time.After(300 * time.Millisecond):
		}
	}
}

// TaskManagerLogDir is the log folder of the current TaskManager.
func (f *Flink) TaskManagerLogDir() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.taskManagerLogDir(f.gen)
}

// TaskManager returns the current TaskManager's process and generation (1 for the
// first).
func (f *Flink) TaskManager() (*Process, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.tm, f.gen
}

// jobManager is the JobManager's process.
func (f *Flink) jobManager() *Process { return f.jm }

// KillTaskManager kills the TaskManager's whole process group with SIGKILL, as a
// machine that dies: its JVM and its Python workers end at once, and the JobManager
// learns of it by the lost connection or the heartbeat timeout (15 s).
func (f *Flink) KillTaskManager() error {
	f.mu.Lock()
	tm := f.tm
	f.mu.Unlock()
	if tm == nil {
		return errors.New("no TaskManager runs")
	}
	f.opts.logf("$ kill -KILL -- -%d   # the TaskManager's process group: its JVM and Python workers", tm.Pid())
	tm.kill()
	return nil
}

// StartTaskManager starts a new TaskManager in place of one that is gone (killed by
// KillTaskManager, or dead by itself) and waits until it has registered.
func (f *Flink) StartTaskManager(ctx context.Context) error {
	f.mu.Lock()
	tm, old := f.tm, f.tmID
	f.mu.Unlock()
	if tm != nil {
		if exited, _ := tm.Exited(); !exited {
			return errors.New("the TaskManager still runs: kill it first")
		}
	}
	return f.startTaskManager(ctx, old)
}

// restartTaskManager is KillTaskManager, then StartTaskManager.
func (f *Flink) restartTaskManager(ctx context.Context) error {
	if err := f.KillTaskManager(); err != nil {
		return err
	}
	return f.StartTaskManager(ctx)
}

// stop stops the TaskManager and the JobManager, SIGTERM, then SIGKILL to each group
// after 15 s, and waits until both have exited.
func (f *Flink) stop() {
	f.mu.Lock()
	tm := f.tm
	f.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range []*Process{tm, f.jm} {
		if p == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.opts.logf("stop the %s (pid %d)", p.Name, p.Pid())
			p.stop(15 * time.Second)
		}()
	}
	wg.Wait()
	if f.REST != nil {
		f.REST.CloseIdleConnections()
	}
}

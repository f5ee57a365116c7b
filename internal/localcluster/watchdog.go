package localcluster

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The watchdog is what makes "nothing is left when labtui dies" hold for every way labtui
// can die, kill -9 included. Each process labtui starts is the leader of a process group
// of its own, and the kernel kills the leader when labtui dies (Pdeathsig). That is not
// enough: the TaskManager's Python worker is the JVM's grandchild, in the JVM's group; it
// has no parent-death signal, and once the JVM is gone it runs on, orphaned, for good.
//
// So the first process labtui starts comes with a watchdog: labtui's own executable run
// again (watchdogEnv set), in a process group of its own, reading a pipe whose other end
// only labtui holds. labtui writes "+PGID" when it starts a group and "-PGID" once it has
// stopped it. When the pipe ends (labtui exited or died: the kernel closes its end either
// way) or the watchdog gets SIGTERM, it sends SIGKILL to every group still listed and exits.
// It ignores SIGINT and SIGHUP, which a terminal sends to what runs in it: labtui handles
// those itself and stops the groups in order.
//
// labtui may also leave the watchdog a last word (AtDeath): one command it runs, after the
// kills, when the pipe ends with the word still set, as the compose lab's `docker compose
// down`, since the containers are the Docker engine's processes, not labtui's.
//
// Pitfall: a group's id is its leader's pid, which the kernel may give to another process
// once the whole group is gone. A group is listed only while labtui has not seen all of it
// end, and the watchdog acts at once when the pipe ends, so it never kills a stranger.

// watchdogEnv is set in the watchdog's environment; a process started with it set runs
// the watchdog instead of its main (see init).
const watchdogEnv = "LABTUI_CLUSTER_WATCHDOG"

func init() {
	if os.Getenv(watchdogEnv) == "1" {
		signal.Ignore(syscall.SIGINT, syscall.SIGHUP)
		term := make(chan os.Signal, 1)
		signal.Notify(term, syscall.SIGTERM)
		runWatchdog(os.Stdin, term)
		os.Exit(0)
	}
}

// runWatchdog reads "+PGID" and "-PGID" lines from r until it ends or term receives,
// then kills every group still listed.
func runWatchdog(r io.Reader, term <-chan os.Signal) {
	var mu sync.Mutex
	groups := map[int]bool{}
	var last []string
	killAll := func() {
		mu.Lock()
		defer mu.Unlock()
		for g := range groups {
			killGroup(g)
			delete(groups, g)
		}
	}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if word, ok := lastWordLine(sc.Text()); ok {
				mu.Lock()
				last = word
				mu.Unlock()
				continue
			}
			op, id := watchdogLine(sc.Text())
			mu.Lock()
			switch op {
			case '+':
				groups[id] = true
			case '-':
				delete(groups, id)
			}
			mu.Unlock()
		}
	}()
	select {
	case <-ended:
	case <-term:
	}
	killAll()
	mu.Lock()
	word := last
	mu.Unlock()
	if len(word) > 0 {
		runLastWord(word)
	}
}

// lastWordTimeout bounds the last word: `docker compose down` of the lab takes 5-20 s.
const lastWordTimeout = 2 * time.Minute

// runLastWord runs argv to its end (or lastWordTimeout), its output discarded, in a
// process group of its own that is killed once it is done.
func runLastWord(argv []string) {
	ctx, cancel := context.WithTimeout(context.Background(), lastWordTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, watchdogEnv+"=") })
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }
	if cmd.Start() != nil {
		return
	}
	cmd.Wait()
	killGroup(cmd.Process.Pid)
}

// lastWordLine parses "!" followed by a JSON array of strings, the last word (none for an
// empty array or nothing after the "!").
func lastWordLine(s string) ([]string, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "!") {
		return nil, false
	}
	var argv []string
	if rest := s[1:]; rest != "" && json.Unmarshal([]byte(rest), &argv) != nil {
		return nil, false
	}
	return argv, true
}

// watchdogLine parses "+PGID" or "-PGID"; anything else is op 0.
func watchdogLine(s string) (op byte, pgid int) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || (s[0] != '+' && s[0] != '-') {
		return 0, 0
	}
	id, err := strconv.Atoi(s[1:])
	if err != nil || id <= 1 {
		return 0, 0
	}
	return s[0], id
}

// dog is this process's watchdog, started by the first guard.
var dog struct {
	mu  sync.Mutex
	w   *os.File // the pipe's end labtui writes; kept open for the life of the process
	pid int
	err error
}

// guard lists the process group pgid with the watchdog, starting the watchdog first if it
// does not run yet (announced on logf, which may be nil). An error means the group would
// not be killed if labtui died: the caller stops the group and fails.
func guard(pgid int, logf func(string, ...any)) error {
	return tell(fmt.Sprintf("+%d", pgid), logf)
}

// tell writes line to the watchdog, starting it first if it does not run yet.
func tell(line string, logf func(string, ...any)) error {
	dog.mu.Lock()
	defer dog.mu.Unlock()
	if dog.w == nil && dog.err == nil {
		dog.err = startWatchdog(logf)
	}
	if dog.err != nil {
		return dog.err
	}
	if _, err := fmt.Fprintln(dog.w, line); err != nil {
		return fmt.Errorf("the watchdog (pid %d) that cleans up if labtui dies is gone: %w", dog.pid, err)
	}
	return nil
}

// AtDeath leaves the watchdog argv as its last word: a command it runs if labtui dies
// before ClearAtDeath, after it killed the process groups it guards. It starts the
// watchdog if it does not run yet (announced on logf, which may be nil). An error means
// the command would not run if labtui died.
func AtDeath(argv []string, logf func(string, ...any)) error {
	if len(argv) == 0 {
		return errors.New("a last word needs a command")
	}
	word, err := json.Marshal(argv)
	if err != nil {
		return err
	}
	return tell("!"+string(word), logf)
}

// ClearAtDeath takes back the last word AtDeath left: labtui did it itself.
func ClearAtDeath() {
	dog.mu.Lock()
	defer dog.mu.Unlock()
	if dog.w != nil {
		fmt.Fprintf(dog.w, "!\n")
	}
}

// StartGuarded starts cmd as the leader of a process group of its own that the watchdog
// guards: ctx ending (cmd's Cancel) kills the whole group, and so does labtui dying,
// however it dies. Call EndGuarded once cmd.Wait returned.
func StartGuarded(cmd *exec.Cmd, logf func(string, ...any)) error {
	cmd.SysProcAttr = groupAttr()
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }
	if err := cmd.Start(); err != nil {
		return err
	}
	if err := guard(cmd.Process.Pid, logf); err != nil {
		killGroup(cmd.Process.Pid)
		cmd.Wait()
		return err
	}
	return nil
}

// EndGuarded kills what is left of the group of cmd, started by StartGuarded and waited
// for, and takes it off the watchdog's list once none of it is left.
func EndGuarded(cmd *exec.Cmd) {
	pgid := cmd.Process.Pid
	killGroup(pgid)
	if waitGroupGone(pgid) {
		release(pgid)
	}
}

// release takes the group pgid off the watchdog's list once no process of it is left.
func release(pgid int) {
	dog.mu.Lock()
	defer dog.mu.Unlock()
	if dog.w != nil {
		fmt.Fprintf(dog.w, "-%d\n", pgid)
	}
}

// startWatchdog runs this executable again as the watchdog, its stdin the read end of a
// pipe. Go opens the pipe close-on-exec, so no other child of labtui holds the write end:
// the watchdog sees the pipe end exactly when labtui does.
func startWatchdog(logf func(string, ...any)) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("start the watchdog that stops labtui's processes if labtui dies: %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("start the watchdog: %w", err)
	}
	defer r.Close()
	cmd := exec.Command(exe)
	cmd.Args = []string{"labtui-cluster-watchdog"}
	cmd.Env = append(os.Environ(), watchdogEnv+"=1")
	cmd.Stdin = r
	// Its own group, so that ctrl-c in the terminal is labtui's to handle; no
	// parent-death signal, so that it outlives labtui.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return fmt.Errorf("start the watchdog that stops labtui's processes if labtui dies: %w", err)
	}
	dog.w, dog.pid = w, cmd.Process.Pid
	// Reap it when it exits (only when labtui closed the pipe, or it was killed).
	go func() {
		if err := cmd.Wait(); err != nil && !errors.Is(err, os.ErrProcessDone) && logf != nil {
			logf("the watchdog (pid %d) ended: %v", cmd.Process.Pid, err)
		}
	}()
	if logf != nil {
		logf("watchdog (pid %d): if labtui dies, however it dies, it kills the process groups labtui started at once", dog.pid)
	}
	return nil
}

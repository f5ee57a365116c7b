package flinklab

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperComposeEnv makes the test binary play labtui in TestHelperComposeLabtui.
const helperComposeEnv = "LABTUI_TEST_HELPER_COMPOSE"

// TestHelperComposeLabtui is not a test: run with helperComposeEnv set, it is a labtui
// that starts the compose lab on the fake docker, prints "dir DIR" and "started", and
// waits to be killed.
func TestHelperComposeLabtui(t *testing.T) {
	if os.Getenv(helperComposeEnv) != "1" {
		t.Skip("run by TestKill9OfLabtuiTakesTheComposeLabDown")
	}
	h := newHarness(t)
	fmt.Println("dir", h.dir)
	if err := h.open().Start(context.Background()); err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println("started")
	select {}
}

// Given labtui running the compose lab, when labtui is killed with SIGKILL, then the
// project is taken down (`docker compose … down`) and no docker command labtui started,
// the log follower included, is left running.
func TestKill9OfLabtuiTakesTheComposeLabDown(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperComposeLabtui$", "-test.v")
	cmd.Env = append(os.Environ(), helperComposeEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Whatever fails below, the helper labtui does not outlive the test.
	waited := make(chan struct{})
	go func() { cmd.Wait(); close(waited) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-waited })
	dir, started := "", false
	sc := bufio.NewScanner(out)
	for !started && sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && f[0] == "dir":
			dir = f[1]
		case len(f) == 1 && f[0] == "started":
			started = true
		case len(f) > 0 && f[0] == "error":
			t.Fatal(sc.Text())
		}
	}
	go io.Copy(io.Discard, out)
	if dir == "" || !started {
		t.Fatalf("the helper did not start the lab (dir %q)", dir)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if len(dockerProcesses(t, dir)) == 0 {
		t.Fatal("no docker command of the lab runs before the kill (the log follower should)")
	}
	began := time.Now()
	cmd.Process.Signal(syscall.SIGKILL)
	<-waited
	for !calledDown(dir) {
		if time.Since(began) > 30*time.Second {
			t.Fatal("30 s after kill -9 of labtui, the compose project was not taken down")
		}
		time.Sleep(20 * time.Millisecond)
	}
	for left := dockerProcesses(t, dir); len(left) > 0; left = dockerProcesses(t, dir) {
		if time.Since(began) > 30*time.Second {
			t.Fatalf("30 s after kill -9 of labtui, docker commands it started still run: %q", left)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("taken down and nothing left %s after kill -9", time.Since(began).Round(time.Millisecond))
}

// calledDown reports whether the fake docker in dir was asked to take the project down.
func calledDown(dir string) bool {
	b, _ := os.ReadFile(filepath.Join(dir, "calls.jsonl"))
	return strings.Contains(string(b), `"down","--timeout","1"]`)
}

// dockerProcesses lists the command lines of the running fake docker processes of dir.
func dockerProcesses(t *testing.T, dir string) []string {
	t.Helper()
	procs, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil || !strings.HasPrefix(string(b), "docker\x00") {
			continue
		}
		env, err := os.ReadFile(filepath.Join(filepath.Dir(p), "environ"))
		if err != nil || !strings.Contains("\x00"+string(env), "\x00"+fakeDirEnv+"="+dir+"\x00") {
			continue
		}
		if st, err := os.ReadFile(filepath.Join(filepath.Dir(p), "stat")); err == nil && strings.Contains(string(st), ") Z ") {
			continue // a zombie: ended, waiting for its parent
		}
		out = append(out, strings.ReplaceAll(string(b), "\x00", " "))
	}
	return out
}

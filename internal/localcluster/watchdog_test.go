package localcluster

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/testkit"
)

// helperEnv makes the test binary play labtui in TestHelperLabtui.
const helperEnv = "LABTUI_TEST_HELPER_LABTUI"

// TestHelperLabtui is not a test: run with helperEnv set, it is a labtui that starts a
// process group whose leader has a child of its own (as the TaskManager's JVM has its
// Python worker), prints "leader GRANDCHILD" and waits to be killed.
func TestHelperLabtui(t *testing.T) {
	if os.Getenv(helperEnv) != "1" {
		t.Skip("run by TestKill9OfLabtuiLeavesNoProcessOfItsGroups")
	}
	var o Options
	// The grandchild ignores SIGTERM and SIGHUP, and nothing but a kill of its group
	// ends it, as the Python worker.
	p, err := o.startProcess("TaskManager", command{Path: "sh", Args: []string{"-c",
		`sh -c 'trap "" TERM HUP; echo $$; exec sleep 600' & wait`}}, "/dev/stdout")
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println("leader", p.Pid())
	select {}
}

// Given labtui with a process group whose leader has a child, when labtui is killed with
// SIGKILL, then within 10 s no process of that group is left: not the leader (its
// parent-death signal) and not the grandchild, which nothing but the watchdog kills.
func TestKill9OfLabtuiLeavesNoProcessOfItsGroups(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperLabtui$", "-test.v")
	cmd.Env = append(os.Environ(), helperEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var leader, grandchild int
	sc := bufio.NewScanner(out)
	for (leader == 0 || grandchild == 0) && sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 1:
			grandchild, _ = strconv.Atoi(f[0])
		case len(f) == 2 && f[0] == "leader":
			leader, _ = strconv.Atoi(f[1])
		case len(f) > 0 && f[0] == "error":
			t.Fatal(sc.Text())
		}
	}
	go io.Copy(io.Discard, out)
	if leader == 0 || grandchild == 0 {
		cmd.Process.Kill()
		t.Fatalf("the helper printed no pids (leader %d, grandchild %d)", leader, grandchild)
	}
	t.Cleanup(func() { killGroup(leader) })
	if !groupAlive(leader) || syscall.Kill(grandchild, 0) != nil {
		t.Fatal("the group is not running before the kill")
	}
	began := time.Now()
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	testkit.EventuallyWithin(t, 10*time.Second, fmt.Sprintf("labtui's group %d and its grandchild %d are gone after kill -9", leader, grandchild), func() bool {
		return !groupAlive(leader) && syscall.Kill(grandchild, 0) != nil
	})
	t.Logf("nothing of the group left %s after kill -9", time.Since(began).Round(time.Millisecond))
}

// Given the watchdog's list, when the pipe ends, then the groups still listed are killed
// and a group taken off the list is left alone.
func TestWatchdogKillsOnlyTheGroupsStillListedWhenThePipeEnds(t *testing.T) {
	start := func() *exec.Cmd {
		c := exec.Command("sh", "-c", "sleep 600 & wait")
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { killGroup(c.Process.Pid); c.Process.Wait() })
		return c
	}
	listed, released := start(), start()
	r, w := io.Pipe()
	done := make(chan struct{})
	go func() { runWatchdog(r, nil); close(done) }()
	fmt.Fprintf(w, "+%d\n+%d\nnonsense\n-1\n-%d\n", listed.Process.Pid, released.Process.Pid, released.Process.Pid)
	w.Close()
	select {
	case <-done:
	case <-time.After(60 * time.Second): // a hang
		t.Fatal("the watchdog did not end when its pipe ended")
	}
	// The leader is this test's child: it stays a zombie in its group until waited for.
	listed.Wait()
	if !waitGroupGone(listed.Process.Pid) {
		t.Fatalf("group %d, still listed, is alive", listed.Process.Pid)
	}
	if !groupAlive(released.Process.Pid) {
		t.Fatalf("group %d, taken off the list, was killed", released.Process.Pid)
	}
}

// Given a last word left and one taken back, when the pipe ends, then the watchdog runs
// the word still set, after its kills, and only that one.
func TestWatchdogSaysItsLastWordWhenThePipeEnds(t *testing.T) {
	dir := t.TempDir()
	said, unsaid := dir+"/said", dir+"/unsaid"
	r, w := io.Pipe()
	done := make(chan struct{})
	go func() { runWatchdog(r, nil); close(done) }()
	fmt.Fprintf(w, "!%s\n!\n", `["touch", "`+unsaid+`"]`)
	fmt.Fprintf(w, "!not json\n!%s\n", `["touch", "`+said+`"]`)
	w.Close()
	select {
	case <-done:
	case <-time.After(60 * time.Second): // a hang
		t.Fatal("the watchdog did not end when its pipe ended")
	}
	if _, err := os.Stat(said); err != nil {
		t.Errorf("the last word was not said: %v", err)
	}
	if _, err := os.Stat(unsaid); err == nil {
		t.Error("a last word taken back was said")
	}
}

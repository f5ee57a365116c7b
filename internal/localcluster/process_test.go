package localcluster

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/testkit"
)

// A process group with a child that ignores SIGTERM is gone, child and all, once Stop
// returns.
func TestStopEndsTheWholeGroup(t *testing.T) {
	var o Options
	pidFile := filepath.Join(t.TempDir(), "child")
	p, err := o.startProcess("test", command{Path: "sh", Args: []string{"-c",
		`sh -c 'trap "" TERM; echo $$ > ` + pidFile + `; exec sleep 300' & wait`}}, "")
	if err != nil {
		t.Fatal(err)
	}
	var child int
	testkit.EventuallyWithin(t, testkit.Hang, "the child writes its pid", func() bool {
		b, _ := os.ReadFile(pidFile)
		child, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return child != 0
	})
	p.stop(200 * time.Millisecond)
	if groupAlive(p.Pid()) {
		t.Fatalf("process group %d is alive after Stop", p.Pid())
	}
	if exited, _ := p.Exited(); !exited {
		t.Fatal("Exited is false after Stop")
	}
}

// Kill ends the group at once, as a dead machine.
func TestKillEndsTheGroupAtOnce(t *testing.T) {
	var o Options
	p, err := o.startProcess("test", command{Path: "sh", Args: []string{"-c", `trap "" TERM; sleep 300 & wait`}}, "")
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	p.kill()
	if groupAlive(p.Pid()) {
		t.Fatalf("process group %d is alive after Kill", p.Pid())
	}
	if d := time.Since(began); d > 3*time.Second {
		t.Fatalf("Kill took %s", d)
	}
}

func TestCommandLineIsWhatALearnerTypes(t *testing.T) {
	c := command{Path: "/opt/flink/bin/flink", Args: []string{"run", "-d", "-py", "job.py", "--topic", "it's", ""},
		Env: []string{"JAVA_HOME=/usr/lib/jvm/java 17", "FLINK_CONF_DIR=/tmp/conf"}}
	want := `FLINK_CONF_DIR=/tmp/conf JAVA_HOME='/usr/lib/jvm/java 17' /opt/flink/bin/flink run -d -py job.py --topic 'it'\''s' ''`
	if got := c.Line(); got != want {
		t.Fatalf("Line()\n got %s\nwant %s", got, want)
	}
}

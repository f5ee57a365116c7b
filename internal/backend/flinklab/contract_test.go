package flinklab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/labtui/labtui/internal/backend/backendtest"
)

// The compose lab keeps the backend contract, with the fake docker: a reader a full
// channel behind loses no restart (each kill of the taskmanager, the strategy change's
// resubmission, the replay's), hiccup line or replay progress, and reads each in order
// before the results of the run that follows.
func TestTheComposeLabKeepsTheBackendContract(t *testing.T) {
	k := kafka(t)
	defer k.Close()
	h := newHarness(t)
	const kills = 3
	tm, err := os.ReadFile(filepath.Join("testdata", "taskmanager-2.log"))
	if err != nil {
		t.Fatal(err)
	}
	for n := 3; n <= kills+1; n++ { // the log of each taskmanager brought back
		writeFile(t, h.dir, fmt.Sprintf("taskmanager-%d.log", n), string(tm))
	}
	writeFile(t, h.dir, "jobid-3", "b4e0f9a8d7c6b5a4e3f2a1b0c9d8e7f6") // the replay's job
	h.cfg.Broker = k.Addr()
	h.flink.setBroker(k.Addr())
	lab, err := New(h.cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer h.srv.Close()
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	backendtest.NoticesArriveInOrderWhileTheReaderIsBehind(t, backendtest.Subject{Lab: lab, Recording: seedBurst, Restarts: kills})
}

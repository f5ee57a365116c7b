package localcluster

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// savepointFlink answers Flink's savepoint calls: a trigger, IN_PROGRESS twice, then
// COMPLETED with the location, or with failure as its failure-cause; a disposal of the
// location. It keeps the bodies it was sent.
type savepointFlink struct {
	mu      sync.Mutex
	failure string
	polls   int
	bodies  []map[string]any
}

func (f *savepointFlink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case r.Method == http.MethodPost && (r.URL.Path == "/jobs/j1/savepoints" || r.URL.Path == "/savepoint-disposal"):
		if r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, `{"errors":["not JSON"]}`, http.StatusBadRequest)
			return
		}
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		f.bodies = append(f.bodies, body)
		w.WriteHeader(http.StatusAccepted)
		w.Write([]byte(`{"request-id":"t1"}`))
	case r.Method == http.MethodGet && (r.URL.Path == "/jobs/j1/savepoints/t1" || r.URL.Path == "/savepoint-disposal/t1"):
		if f.polls++; f.polls <= 2 {
			w.Write([]byte(`{"status":{"id":"IN_PROGRESS"}}`))
			return
		}
		if f.failure != "" {
			json.NewEncoder(w).Encode(map[string]any{"status": map[string]string{"id": "COMPLETED"},
				"operation": map[string]any{"failure-cause": map[string]string{"class": "java.util.concurrent.CompletionException", "stack-trace": f.failure}}})
			return
		}
		w.Write([]byte(`{"status":{"id":"COMPLETED"},"operation":{"location":"file:/tmp/sp/savepoint-j1-abc"}}`))
	default:
		http.Error(w, `{"errors":["Not found"]}`, http.StatusNotFound)
	}
}

// Given a running job, when a savepoint is taken, then the request leaves the job
// running, goes to the directory asked for (or the cluster's own with none), and the
// answer is where Flink wrote it once Flink says it is complete; a disposal deletes it.
func TestASavepointIsTakenWaitedForAndDisposedOf(t *testing.T) {
	f := &savepointFlink{}
	srv := httptest.NewServer(f)
	defer srv.Close()
	c := NewREST(srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	loc, err := c.Savepoint(ctx, "j1", "file:///run/savepoints", time.Millisecond)
	if err != nil || loc != "file:/tmp/sp/savepoint-j1-abc" {
		t.Fatalf("Savepoint = %q, %v", loc, err)
	}
	if f.polls != 3 {
		t.Errorf("polled %d times, want until the third answer said COMPLETED", f.polls)
	}
	f.polls = 0
	if _, err := c.Savepoint(ctx, "j1", "", time.Millisecond); err != nil {
		t.Fatal(err)
	}
	f.polls = 0
	if err := c.DisposeSavepoint(ctx, loc, time.Millisecond); err != nil {
		t.Fatalf("DisposeSavepoint: %v", err)
	}
	want := `[map[cancel-job:false target-directory:file:///run/savepoints] map[cancel-job:false] map[savepoint-path:file:/tmp/sp/savepoint-j1-abc]]`
	if got := fmtBodies(f.bodies); got != want {
		t.Errorf("bodies sent %s, want %s", got, want)
	}
}

// Given a savepoint Flink cannot take, when it is complete, then the error is the
// failure's first line, not its whole stack trace.
func TestAFailedSavepointSaysWhyInOneLine(t *testing.T) {
	f := &savepointFlink{failure: "org.apache.flink.runtime.checkpoint.CheckpointException: Checkpoint expired before completing.\n\tat org.apache.flink...\n"}
	srv := httptest.NewServer(f)
	defer srv.Close()
	_, err := NewREST(srv.URL).Savepoint(context.Background(), "j1", "", time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "CheckpointException: Checkpoint expired before completing.") || strings.Contains(err.Error(), "\tat ") {
		t.Fatalf("error %v, want the failure's first line only", err)
	}
}

func fmtBodies(bs []map[string]any) string { return fmt.Sprint(bs) }

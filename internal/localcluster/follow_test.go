package localcluster

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"
)

// The follower reads every line of a TaskManager's stdout once, holds a half-written
// line until its newline, and after a restart reads the old file to its end before the
// new TaskManager's file from its beginning.
func TestFollowReadsEachTaskManagerOnceInOrder(t *testing.T) {
	f := &Flink{dir: t.TempDir(), gen: 1, changed: make(chan struct{})}
	write := func(gen int, s string) {
		t.Helper()
		dir := f.taskManagerLogDir(gen)
		os.MkdirAll(dir, 0o755)
		fh, err := os.OpenFile(filepath.Join(dir, "flink-x-taskexecutor-0-host.out"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		fh.WriteString(s)
		fh.Close()
	}
	var mu sync.Mutex
	var got []string
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(got) }
	waitCount := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); count() < n; time.Sleep(5 * time.Millisecond) { // a hang
			if time.Now().After(deadline) {
				t.Fatalf("%d lines, want %d: %q", count(), n, got)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.followTaskManager(ctx, 5*time.Millisecond, func(s string) { mu.Lock(); got = append(got, s); mu.Unlock() })
	}()
	write(1, "event-time> {\"a\":1}\nlate> {\"b\"")
	waitCount(1)
	write(1, ":2}\n")
	waitCount(2)
	// The TaskManager dies after one more line; a new one starts and writes its own.
	write(1, "processing-time> {\"c\":3}\n")
	write(2, "event-time> {\"a\":1}\n")
	f.mu.Lock()
	f.gen++
	close(f.changed)
	f.changed = make(chan struct{})
	f.mu.Unlock()
	waitCount(4)
	cancel()
	<-done
	want := []string{`event-time> {"a":1}`, `late> {"b":2}`, `processing-time> {"c":3}`, `event-time> {"a":1}`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("lines\n got %q\nwant %q", got, want)
	}
}

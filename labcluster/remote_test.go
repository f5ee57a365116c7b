package labcluster

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"
	"time"
)

// The REST follower hands each complete line over once, waits for a half-written line
// to end, and reads a file that got shorter from its beginning.
func TestFollowRESTStdout(t *testing.T) {
	var mu sync.Mutex
	stdout := "a> {}\nb> {"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/taskmanagers":
			w.Write([]byte(`{"taskmanagers":[{"id":"tm-1"}]}`))
		case "/taskmanagers/tm-1/stdout":
			w.Write([]byte(stdout))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c := NewREST(srv.URL)
	read := map[string]int{}
	var got []string
	poll := func() {
		t.Helper()
		if err := pollStdout(context.Background(), c, read, func(s string) { got = append(got, s) }); err != nil {
			t.Fatal(err)
		}
	}
	poll()
	mu.Lock()
	stdout += "}\nc> {}\n"
	mu.Unlock()
	poll()
	poll()
	mu.Lock()
	stdout = "d> {}\n"
	mu.Unlock()
	poll()
	want := []string{"a> {}", "b> {}", "c> {}", "d> {}"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("lines %q, want %q", got, want)
	}
	// Given a TaskManager whose stdout holds an earlier session's lines, a follower that
	// starts then hands over only what comes after, and all of a TaskManager that
	// registers later.
	mu.Lock()
	stdout = "earlier> {}\n"
	mu.Unlock()
	var followed []string
	var fmu sync.Mutex
	fctx, fcancel := context.WithCancel(context.Background())
	fdone := make(chan struct{})
	go func() {
		defer close(fdone)
		FollowRESTStdout(fctx, c, 5*time.Millisecond, func(s string) { fmu.Lock(); followed = append(followed, s); fmu.Unlock() }, func(error) {})
	}()
	time.Sleep(50 * time.Millisecond)
	mu.Lock()
	stdout += "mine> {}\n"
	mu.Unlock()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		fmu.Lock()
		n := len(followed)
		fmu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
	}
	fcancel()
	<-fdone
	if want := []string{"mine> {}"}; !reflect.DeepEqual(followed, want) {
		t.Fatalf("a follower started after an earlier session's lines read %q, want %q", followed, want)
	}
	// A cluster that does not answer is reported once.
	srv.Close()
	var problems int
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	FollowRESTStdout(ctx, c, 10*time.Millisecond, func(string) {}, func(error) { problems++ })
	if problems != 1 {
		t.Fatalf("%d problems reported, want 1", problems)
	}
}

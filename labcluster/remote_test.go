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

package clusterplatform

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/localcluster"
)

// A session's name becomes a valid part of a topic name, and names its topics, its
// replays' and its consumer group.
func TestSessionNamesItsTopicsAndGroup(t *testing.T) {
	for in, want := range map[string]string{"ana": "ana", "Ana Lima@Laptop.3": "ana-lima-laptop-3", strings.Repeat("x", 50): strings.Repeat("x", maxSession)} {
		if got := SessionName(in); got != want {
			t.Errorf("SessionName(%q) = %q, want %q", in, got, want)
		}
	}
	if d := DefaultSession(); d == "" || SessionName(d) != d {
		t.Errorf("DefaultSession() = %q, not a session name", d)
	}
	if got := sessionTopic("ana"); got != "gateway-events-ana" {
		t.Errorf("SessionTopic(ana) = %q", got)
	}
	if got := sessionGroup("ana"); got != "gateway-meter-lab4-ana" {
		t.Errorf("sessionGroup(ana) = %q", got)
	}
}

// Given a session whose topic holds records of an earlier run and a cluster on which a
// job of the lab runs already, Up's checks say both, with how to begin afresh and how to
// cancel the job; an empty topic and a cluster without the lab's job say nothing.
func TestRemoteWarnsOfOlderRecordsAndListsTheLabsJobs(t *testing.T) {
	k, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(3, "gateway-events-ana", "gateway-events-bo"))
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	brokers := k.ListenAddrs()[0]
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers), kgo.DefaultProduceTopic("gateway-events-ana"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		if err := cl.ProduceSync(context.Background(), kgo.StringRecord(fmt.Sprint(i))).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	cl.Close()
	jobs := `{"jobs":[{"jid":"aaaa","name":"gateway-meter-lab4-ana","state":"RUNNING"},{"jid":"bbbb","name":"gateway-meter-lab4-ana","state":"CANCELED"},{"jid":"cccc","name":"other","state":"RUNNING"},{"jid":"dddd","name":"gateway-meter-lab4-bo","state":"RUNNING"}]}`
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Write([]byte(jobs))
	}))
	defer srv.Close()
	var logged []string
	p := &remote{cfg: RemoteConfig{Brokers: brokers, Session: "ana"}, rest: localcluster.NewREST(srv.URL),
		logf: func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }}
	p.warnOlderRecords(context.Background(), "gateway-events-ana")
	p.listLabJobs(context.Background())
	all := strings.Join(logged, "\n")
	for _, want := range []string{"topic gateway-events-ana already holds 5 records", "--starting-offsets latest", "job aaaa (RUNNING) is named after this session", "jobs/aaaa?mode=cancel", "job dddd (gateway-meter-lab4-bo, RUNNING) of the lab runs on this cluster: another session's"} {
		if !strings.Contains(all, want) {
			t.Errorf("the log lacks %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "bbbb") || strings.Contains(all, "cccc") {
		t.Errorf("the log names a job that is over or not the lab's:\n%s", all)
	}
	logged = nil
	mu.Lock()
	jobs = `{"jobs":[]}`
	mu.Unlock()
	p.warnOlderRecords(context.Background(), "gateway-events-bo")
	p.listLabJobs(context.Background())
	if len(logged) != 0 {
		t.Errorf("an empty topic and no job logged %q", logged)
	}
}

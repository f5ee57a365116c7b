package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/testkit"
)

// gatedWriter holds every write until open is closed, as a pipe into a reader that
// sleeps first does (`| (sleep 50; cat >out)`). If tried is set, it is closed at the
// first write.
type gatedWriter struct {
	open  chan struct{}
	tried chan struct{}
	once  sync.Once
	mu    sync.Mutex
	buf   bytes.Buffer
}

func (w *gatedWriter) Write(p []byte) (int, error) {
	if w.tried != nil {
		w.once.Do(func() { close(w.tried) })
	}
	<-w.open
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

// summaryNumber reads the number after label in a headless summary.
func summaryNumber(t *testing.T, summary, label string) float64 {
	t.Helper()
	m := regexp.MustCompile(label + `\s+(-?[0-9.]+)`).FindStringSubmatch(summary)
	if m == nil {
		t.Fatalf("the summary has no %q line:\n%s", label, summary)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestAHeadlessRunIntoASlowReaderPrintsEveryResult(t *testing.T) {
	// Given a headless run whose standard output takes nothing for its first nine
	// seconds, longer than the updates channel holds.
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("LABTUI_STATE_DIR", t.TempDir()) // a fresh state: its runs are numbered from 1
	out := &gatedWriter{open: make(chan struct{})}
	release := time.AfterFunc(9*time.Second, func() { close(out.open) })
	defer release.Stop()
	var errw testkit.SyncBuffer
	// When it runs for eight seconds at 500 requests/s with a trace per record.
	code := Run(context.Background(), []string{"run", "--headless", "--duration", "8s", "--rate", "500", "--trace",
		"--format", "jsonl", "--broker-addr", "127.0.0.1:0"}, out, &errw)
	stderr := errw.String()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// Then every assembled record's trace and every fired window is on standard output,
	// the books balance, and nothing is reported dropped.
	var traces int
	var processingUSD float64
	sc := bufio.NewScanner(&out.buf)
	for sc.Scan() {
		var line struct {
			Sink string  `json:"sink"`
			USD  float64 `json:"usd"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("bad line %q: %v", sc.Text(), err)
		}
		switch line.Sink {
		case "trace":
			traces++
		case "processing-time":
			processingUSD += line.USD
		}
	}
	summary := stderr[strings.LastIndex(stderr, "summary\n"):]
	records := summaryNumber(t, summary, "records assembled")
	fired := summaryNumber(t, summary, "processing time")
	if float64(traces) != records || math.Abs(processingUSD-fired) > 1e-5 {
		t.Errorf("printed %d traces and $%.6f of processing-time windows; the summary has %.0f records and $%.6f fired",
			traces, processingUSD, records, fired)
	}
	if strings.Contains(stderr, "dropped") || !strings.Contains(summary, "every event and every dollar is accounted for") {
		t.Errorf("the run reports a loss or does not balance:\n%s", summary)
	}
	// And it says, exercise by exercise, what its evidence shows: eight seconds back no
	// exercise, each for its own reason.
	for _, want := range []string{"# 4.1 not met: run 1 start: no whole minute yet", "# 4.2 not met: run 1 start: no hiccup yet",
		"# 4.3 not met: run 1 start: not a replay", "# TM not met: run 1 start: not a kill"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr has no line %q:\n%s", want, stderr)
		}
	}
}

func TestCtrlCStopsAHeadlessRunWhoseOutputTakesNothingAndCountsWhatIsMissing(t *testing.T) {
	// Given a headless run whose standard output takes nothing until the test ends.
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	out := &gatedWriter{open: make(chan struct{}), tried: make(chan struct{})}
	defer close(out.open)
	var errw testkit.SyncBuffer
	ctx, interrupt := context.WithCancel(context.Background())
	// When ctrl-c comes after two seconds of results piling up, counted from the first
	// one the output did not take (not from the start, however long a loaded machine
	// takes to start the lab).
	interrupted := make(chan time.Time, 1)
	go func() {
		select {
		case <-out.tried:
			time.Sleep(2 * time.Second)
		case <-time.After(hangBound):
		}
		interrupted <- time.Now()
		interrupt() // ctrl-c
	}()
	code := Run(ctx, []string{"run", "--headless", "--rate", "500", "--trace", "--format", "jsonl", "--broker-addr", "127.0.0.1:0"}, out, &errw)
	took := time.Since(<-interrupted)
	stderr := errw.String()
	// Then it stops within a few seconds of the ctrl-c (a second for the output, the
	// rest room for a loaded machine), and the summary says how many results never
	// reached the output and does not say they are accounted for.
	if took > 5*time.Second {
		t.Errorf("the run took %s to stop after ctrl-c", took)
	}
	summary := stderr[strings.LastIndex(stderr, "summary\n"):]
	// Nothing was written, so every trace is among the results not delivered.
	lost, records := summaryNumber(t, summary, "results not delivered"), summaryNumber(t, summary, "records assembled")
	if lost == 0 || lost < records || strings.Contains(summary, "accounted for") || !strings.Contains(summary, "THE OUTPUT IS INCOMPLETE") {
		t.Errorf("exit %d; summary:\n%s", code, summary)
	}
}

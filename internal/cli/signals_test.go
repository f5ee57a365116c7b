package cli

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/tui"
)

// savedAnswer waits until the state file in dir holds an answer to id containing
// text, and fails after hangBound.
func savedAnswer(t *testing.T, dir, id, text string) {
	t.Helper()
	deadline := time.Now().Add(hangBound)
	for {
		st, _, err := state.NewStore(dir).Load()
		if err == nil && strings.Contains(st.Answers[id], text) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the state file in %s has no answer %s with %q (answers %+v, %v)", dir, id, text, st.Answers, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// typeAnswer opens the lab panel's first question on the TUI's terminal and types text.
// Once the TUI draws, it reads its keys in order, however fast they come.
func typeAnswer(t *testing.T, p *proc, term *os.File, text string) {
	t.Helper()
	p.waitOutput(t, "Lab 4")
	for _, k := range []string{"\t", "\r", text} {
		term.WriteString(k)
	}
}

// waitLogged waits until the TUI's log in the state folder dir holds text.
func waitLogged(t *testing.T, dir, text string) {
	t.Helper()
	for deadline := time.Now().Add(hangBound); ; time.Sleep(20 * time.Millisecond) {
		log, err := os.ReadFile(filepath.Join(dir, tui.LogFile))
		if err == nil && strings.Contains(string(log), text) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the TUI's log has no %q after %v:\n%s", text, hangBound, log)
		}
	}
}

// waitTopicHolds waits until the lab's broker at addr holds n records in its topic.
func waitTopicHolds(t *testing.T, addr string, n int64) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	for deadline := time.Now().Add(hangBound); ; time.Sleep(20 * time.Millisecond) {
		var held int64
		ctx, cancel := context.WithTimeout(context.Background(), hangBound)
		ends, err := adm.ListEndOffsets(ctx, broker.DefaultTopic)
		cancel()
		if err == nil {
			ends.Each(func(o kadm.ListedOffset) { held += o.Offset })
			if held >= n {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the topic holds %d records after %v, not %d (%v)", held, hangBound, n, err)
		}
	}
}

func TestTwoTUIsAndAHeadlessRunOnOneStateFolderLoseNoAnswer(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "st")
	tuiArgs := []string{"--state-dir", dir, "--broker-addr", "127.0.0.1:0", "--start-generator=false"}

	// Given a TUI with an answer typed and saved,
	first, term := startTUI(t, home, tuiArgs...)
	typeAnswer(t, first, term, "typed in the first TUI")
	savedAnswer(t, dir, "4.1a", "typed in the first TUI")

	// when a second TUI and a headless run start on the same folder,
	second, _ := startTUI(t, home, tuiArgs...)
	if code := second.wait(t, hangBound); code == 0 {
		t.Errorf("the second TUI exited 0")
	}
	// What it wrote last may still be on its way through the terminal.
	second.waitOutput(t, "is using the saved answers in "+dir)
	if out, _ := second.output(); !strings.Contains(out, "(the TUI, pid ") || !strings.Contains(out, "--state-dir") {
		t.Errorf("the second TUI did not say who holds the folder:\n%s", tail(out))
	}
	headless := startLabtui(t, home, "run", "--headless", "--state-dir", dir, "--duration", "20s", "--broker-addr", "127.0.0.1:0")
	if code := headless.wait(t, hangBound); code == 0 {
		t.Errorf("the headless run beside a TUI exited 0")
	}
	if _, errOut := headless.output(); !strings.Contains(errOut, "is using the saved answers in "+dir) {
		t.Errorf("the headless run did not say why it stopped:\n%s", tail(errOut))
	}

	// then the first TUI's answer is still there while it runs and after it closes,
	savedAnswer(t, dir, "4.1a", "typed in the first TUI")
	term.WriteString(" and more")
	savedAnswer(t, dir, "4.1a", "typed in the first TUI and more")
	term.Close() // the terminal window closes: the kernel hangs the TUI up
	if code := first.wait(t, stopBound); code != 0 {
		out, _ := first.output()
		t.Errorf("the hung-up TUI exited %d:\n%s", code, tail(out))
	}
	savedAnswer(t, dir, "4.1a", "typed in the first TUI and more")

	// and the folder is free again: the next TUI offers the answers.
	next, _ := startTUI(t, home, tuiArgs...)
	next.waitOutput(t, "Continue with the answers")
}

func TestSIGHUPMakesTheTUIRestoreTheTerminalAndSave(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "st")
	p, term := startTUI(t, home, "--state-dir", dir, "--broker-addr", "127.0.0.1:0", "--start-generator=false")
	typeAnswer(t, p, term, "before the hangup")
	savedAnswer(t, dir, "4.1a", "before the hangup")
	// The hangup stops a running lab, not one still starting.
	waitLogged(t, dir, "lab is running")
	before, _ := p.output()
	if code := p.signal(t, syscall.SIGHUP); code != 0 {
		t.Errorf("the TUI exited %d on SIGHUP", code)
	}
	// The last bytes may still be on their way through the terminal.
	for deadline := time.Now().Add(hangBound); ; time.Sleep(20 * time.Millisecond) {
		after, _ := p.output()
		if strings.Contains(after[len(before):], "\x1b[?1049l") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the TUI did not leave the alternate screen on SIGHUP; it wrote %q", tail(after[len(before):]))
		}
	}
	savedAnswer(t, dir, "4.1a", "before the hangup")
}

func TestSIGHUPMakesAHeadlessRunPrintItsSummary(t *testing.T) {
	home := t.TempDir()
	p := startLabtui(t, home, "run", "--headless", "--state-dir", filepath.Join(home, "st"), "--duration", "5m", "--broker-addr", "127.0.0.1:0")
	// The generator starts once the lab has: the hangup stops a run, not its start.
	p.waitOutput(t, "# generator on")
	if code := p.signal(t, syscall.SIGHUP); code != 0 {
		t.Errorf("the headless run exited %d on SIGHUP", code)
	}
	if _, e := p.output(); !strings.Contains(e, "pending at the stop") || !strings.Contains(e, "evidence saved to") {
		t.Errorf("no summary after SIGHUP:\n%s", tail(e))
	}
}

// recordLines reads a recording, plain or gzip, and returns its lines; it fails on a
// gzip stream without its end or a line that is not JSON.
func recordLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		r = zr
	}
	data, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s does not read to its end: %v", path, err)
	}
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if !json.Valid(sc.Bytes()) {
			t.Fatalf("%s: line %d is not JSON: %q", path, len(lines)+1, sc.Text())
		}
		lines = append(lines, sc.Text())
	}
	return lines
}

func TestSIGHUPMakesALiveRecordWriteWhatItRead(t *testing.T) {
	for _, name := range []string{"live.jsonl", "live.jsonl.gz"} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			out := filepath.Join(home, name)
			p := startLabtui(t, home, "record", "--out", out, "--duration", "5m", "--broker-addr", "127.0.0.1:0", "--rate", "50")
			p.waitOutput(t, "recording "+out)
			_, stderr := p.output()
			addr := regexp.MustCompile(`from the embedded lab on (\S+) for`).FindStringSubmatch(stderr)
			if addr == nil {
				t.Fatalf("no address in %q", stderr)
			}
			// A hundred records on the topic (two seconds' worth) for the job to read.
			waitTopicHolds(t, addr[1], 100)
			if code := p.signal(t, syscall.SIGHUP); code != 0 {
				t.Errorf("record exited %d on SIGHUP", code)
			}
			if n := len(recordLines(t, out)); n <= 1 { // the topic line, and no record
				t.Errorf("%s holds no record of the 100 on the topic", out)
			}
		})
	}
}

func TestSIGHUPMakesASimulatedRecordEndItsGzip(t *testing.T) {
	home := t.TempDir()
	out := filepath.Join(home, "sim.jsonl.gz")
	p := startLabtui(t, home, "record", "--simulate", "--out", out, "--duration", "1000h", "--rate", "200")
	deadline := time.Now().Add(hangBound)
	for {
		if fi, err := os.Stat(out); err == nil && fi.Size() > 64<<10 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the simulated recording did not grow")
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.signal(t, syscall.SIGHUP)
	if _, e := p.output(); !strings.Contains(e, "the file ends at a whole record") {
		t.Errorf("record --simulate did not say where it stopped:\n%s", tail(e))
	}
	if len(recordLines(t, out)) == 0 {
		t.Error("the simulated recording is empty")
	}
}

func TestMovedStopsCleanlyOnSIGINT(t *testing.T) {
	home := t.TempDir()
	// A recording that never ends: a FIFO its writer holds open after a few records.
	fifo := filepath.Join(home, "endless.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	written := make(chan *os.File, 1)
	go func() {
		// The open returns once moved has the FIFO open to re-enact it.
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
			close(written)
			return
		}
		data, _ := os.ReadFile(seedBurst)
		w.Write(data)
		written <- w
	}()
	p := startLabtui(t, home, "moved", "--replay", fifo)
	var w *os.File
	select {
	case w = <-written:
	case <-time.After(hangBound):
		t.Fatal("moved did not open the FIFO")
	}
	if w == nil {
		return
	}
	defer w.Close()
	code := p.signal(t, syscall.SIGINT)
	_, e := p.output()
	if code != 130 || strings.Contains(e, "context canceled") || !strings.Contains(e, "moved interrupted while re-enacting") {
		t.Errorf("moved on SIGINT: exit %d, stderr %q", code, e)
	}
}

func TestAReplayOfDevZeroStopsOnSIGINT(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	p := startLabtui(t, t.TempDir(), "replay", "/dev/zero")
	p.waitOpen(t, "/dev/zero")
	if code := p.signal(t, syscall.SIGINT); code != 130 {
		_, e := p.output()
		t.Errorf("replay /dev/zero exited %d on SIGINT: %s", code, e)
	}
}

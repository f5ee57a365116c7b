package cli

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/labtui/labtui/state"
)

// savedAnswer waits until the state file in dir holds an answer to id containing
// text, and fails after within.
func savedAnswer(t *testing.T, dir, id, text string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
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
func typeAnswer(t *testing.T, p *proc, term *os.File, text string) {
	t.Helper()
	p.waitOutput(t, "Lab 4", 20*time.Second)
	for _, k := range []string{"\t", "\r", text} {
		time.Sleep(300 * time.Millisecond)
		term.WriteString(k)
	}
}

func TestTwoTUIsAndAHeadlessRunOnOneStateFolderLoseNoAnswer(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "st")
	tuiArgs := []string{"--state-dir", dir, "--broker-addr", "127.0.0.1:0", "--start-generator=false"}

	// Given a TUI with an answer typed and saved,
	first, term := startTUI(t, home, tuiArgs...)
	typeAnswer(t, first, term, "typed in the first TUI")
	savedAnswer(t, dir, "4.1a", "typed in the first TUI", 5*time.Second)

	// when a second TUI and a headless run start on the same folder,
	second, _ := startTUI(t, home, tuiArgs...)
	if code := second.wait(t, 10*time.Second); code == 0 {
		t.Errorf("the second TUI exited 0")
	}
	// What it wrote last may still be on its way through the terminal.
	second.waitOutput(t, "is using the saved answers in "+dir, 3*time.Second)
	if out, _ := second.output(); !strings.Contains(out, "(the TUI, pid ") || !strings.Contains(out, "--state-dir") {
		t.Errorf("the second TUI did not say who holds the folder:\n%s", tail(out))
	}
	headless := startLabtui(t, home, "run", "--headless", "--state-dir", dir, "--duration", "20s", "--broker-addr", "127.0.0.1:0")
	if code := headless.wait(t, 10*time.Second); code == 0 {
		t.Errorf("the headless run beside a TUI exited 0")
	}
	if _, errOut := headless.output(); !strings.Contains(errOut, "is using the saved answers in "+dir) {
		t.Errorf("the headless run did not say why it stopped:\n%s", tail(errOut))
	}

	// then the first TUI's answer is still there while it runs and after it closes,
	savedAnswer(t, dir, "4.1a", "typed in the first TUI", time.Second)
	term.WriteString(" and more")
	savedAnswer(t, dir, "4.1a", "typed in the first TUI and more", 5*time.Second)
	term.Close() // the terminal window closes: the kernel hangs the TUI up
	if code := first.wait(t, 5*time.Second); code != 0 {
		out, _ := first.output()
		t.Errorf("the hung-up TUI exited %d:\n%s", code, tail(out))
	}
	savedAnswer(t, dir, "4.1a", "typed in the first TUI and more", time.Second)

	// and the folder is free again: the next TUI offers the answers.
	next, _ := startTUI(t, home, tuiArgs...)
	next.waitOutput(t, "Continue with the answers", 20*time.Second)
}

func TestSIGHUPMakesTheTUIRestoreTheTerminalAndSave(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "st")
	p, term := startTUI(t, home, "--state-dir", dir, "--broker-addr", "127.0.0.1:0", "--start-generator=false")
	typeAnswer(t, p, term, "before the hangup")
	savedAnswer(t, dir, "4.1a", "before the hangup", 5*time.Second)
	before, _ := p.output()
	if code := p.signal(t, syscall.SIGHUP, 3*time.Second); code != 0 {
		t.Errorf("the TUI exited %d on SIGHUP", code)
	}
	time.Sleep(200 * time.Millisecond) // the last bytes through the terminal
	after, _ := p.output()
	if !strings.Contains(after[len(before):], "\x1b[?1049l") {
		t.Errorf("the TUI did not leave the alternate screen on SIGHUP; it wrote %q", tail(after[len(before):]))
	}
	savedAnswer(t, dir, "4.1a", "before the hangup", time.Second)
}

func TestSIGHUPMakesAHeadlessRunPrintItsSummary(t *testing.T) {
	home := t.TempDir()
	p := startLabtui(t, home, "run", "--headless", "--state-dir", filepath.Join(home, "st"), "--duration", "5m", "--broker-addr", "127.0.0.1:0")
	p.waitOutput(t, "# ", 20*time.Second)
	time.Sleep(time.Second)
	if code := p.signal(t, syscall.SIGHUP, 3*time.Second); code != 0 {
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
			p.waitOutput(t, "recording "+out, 20*time.Second)
			time.Sleep(3 * time.Second)
			if code := p.signal(t, syscall.SIGHUP, 3*time.Second); code != 0 {
				t.Errorf("record exited %d on SIGHUP", code)
			}
			if n := len(recordLines(t, out)); n == 0 {
				t.Errorf("%s holds no record after 3 s of recording", out)
			}
		})
	}
}

func TestSIGHUPMakesASimulatedRecordEndItsGzip(t *testing.T) {
	home := t.TempDir()
	out := filepath.Join(home, "sim.jsonl.gz")
	p := startLabtui(t, home, "record", "--simulate", "--out", out, "--duration", "1000h", "--rate", "200")
	deadline := time.Now().Add(20 * time.Second)
	for {
		if fi, err := os.Stat(out); err == nil && fi.Size() > 64<<10 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the simulated recording did not grow")
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.signal(t, syscall.SIGHUP, 3*time.Second)
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
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		data, _ := os.ReadFile(seedBurst)
		w.Write(data)
		t.Cleanup(func() { w.Close() })
	}()
	p := startLabtui(t, home, "moved", "--replay", fifo)
	time.Sleep(time.Second)
	code := p.signal(t, syscall.SIGINT, 3*time.Second)
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
	time.Sleep(time.Second)
	if code := p.signal(t, syscall.SIGINT, 2*time.Second); code != 130 {
		_, e := p.output()
		t.Errorf("replay /dev/zero exited %d on SIGINT: %s", code, e)
	}
}

package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

const seedBurst = "../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl"

const recordedHourFile = "../../labs/04-event-time-and-processing-time/data/recorded-hour.jsonl.gz"

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("LABTUI_STATE_DIR", t.TempDir()) // a headless run saves its evidence there
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestReplayPrintsFlinkPrintSinkLines(t *testing.T) {
	code, out, errOut := runCLI(t, "replay", seedBurst)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		`processing-time> {"tenant_id":"acme","window_start":1795946400000,"window_end":1795946460000,"usd":0.2,"requests":2}  # [10:00:00.000, 10:01:00.000) $0.20`,
		`late> {"request_id":"r-103","tenant_id":"acme","gateway":"gw-1","timestamp":1795946444000,"watermark":1795946468999,"usd":0.1}  # ts 10:00:44.000 met watermark 10:01:08.999`,
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("missing line %s\nin\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "replayed 12 records (0 skipped)") || !strings.Contains(errOut, "2 late, 1 window pending\n") {
		t.Errorf("summary: %s", errOut)
	}
}

func TestReplayHelpNamesNoArgumentFromBackticks(t *testing.T) {
	code, out, errOut := runCLI(t, "replay", "--help")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "--drain  ") || strings.Contains(out, "--drain flink") || strings.Contains(out, "`") {
		t.Errorf("replay --help:\n%s", out)
	}
}

func TestReplayReportsBadLinesAndGoesOn(t *testing.T) {
	src, _ := os.ReadFile(seedBurst)
	lines := strings.Split(strings.TrimSpace(string(src)), "\n")
	bad := []string{
		`not json at all`,
		`{"partition":0,"offset":99,"timestamp":1,"value":{"type":"RequestPaused","request_id":"x","tenant_id":"a","model":"flat-10c","gateway":"g","ts":1}}`,
		`{"partition":0,"offset":98,"timestamp":1,"value":{"type":"RequestStarted","request_id":"x","tenant_id":"a","gateway":"g","ts":1,"prompt_tokens":1}}`,
		`{"partition":0,"offset":97,"timestamp":1,"value":{"type":"RequestStarted","request_id":"x","tenant_id":"a","model":"m","gateway":"g","ts":1,"prompt_tokens":-1}}`,
		`{"partition":0,"offset":96,"timestamp":1,"value":{"type":"RequestStarted","request_id":"x","tenant_id":"a","model":"gpt-9","gateway":"g","ts":1,"prompt_tokens":1}}`,
	}
	mixed := append(append([]string{}, lines[:3]...), bad...)
	mixed = append(mixed, lines[3:]...)
	path := filepath.Join(t.TempDir(), "mixed.jsonl")
	os.WriteFile(path, []byte(strings.Join(mixed, "\n")+"\n"), 0o644)
	code, out, errOut := runCLI(t, "replay", "--format", "jsonl", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		":4: skipped: not a recording line",
		":5: skipped: malformed event: unknown event type \"RequestPaused\"",
		":6: skipped: malformed event: missing field model",
		":7: skipped: malformed event: negative token count",
		":8: skipped: malformed event: model \"gpt-9\" is not in the price table",
		"replayed 12 records (5 skipped)",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Count(out, `"sink":"late"`) != 2 {
		t.Errorf("the good records were not all replayed:\n%s", out)
	}
}

func TestReplayOfAnUnreadableFileIsOneErrorAndExitOne(t *testing.T) {
	code, out, errOut := runCLI(t, "replay", filepath.Join(t.TempDir(), "nope.jsonl"))
	if code != 1 || out != "" || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, "cannot read recording") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestABadConfigFileIsOnePlainSentence(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(cfg, []byte("prices: [this is: not: valid"), 0o644)
	code, _, errOut := runCLI(t, "--config", cfg, "replay", seedBurst)
	if code != 2 || !strings.Contains(errOut, "config file "+cfg+" cannot be read") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, _, errOut = runCLI(t, "--config", filepath.Join(t.TempDir(), "absent.yaml"), "replay", seedBurst)
	if code != 2 || !strings.Contains(errOut, "does not exist") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestConfigPricesOverrideTheTable(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(cfg, []byte("prices:\n  flat-10c: [0.5, 0.5]\n"), 0o644)
	code, out, errOut := runCLI(t, "--config", cfg, "replay", "--format", "jsonl", "--drain", "--out-of-orderness", "40s", seedBurst)
	if code != 0 || !strings.Contains(out, `"usd":4,"requests":4`) {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
}

func TestFlagsComeFromTheEnvironment(t *testing.T) {
	t.Setenv("LABTUI_OUT_OF_ORDERNESS", "40s")
	t.Setenv("LABTUI_DRAIN", "true")
	code, out, _ := runCLI(t, "replay", "--format", "jsonl", seedBurst)
	if code != 0 || strings.Contains(out, `"late"`) || !strings.Contains(out, `"sink":"event-time","tenant_id":"acme","window_start":1795946400000,"window_end":1795946460000,"usd":0.4`) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestReplayTellsZeroFromUnsetAndRefusesNegatives(t *testing.T) {
	code, out, errOut := runCLI(t, "replay", "--format", "jsonl", "--watermark-interval", "0", seedBurst)
	if code != 0 || strings.Contains(out, `"sink":"event-time"`) || strings.Count(out, `"sink":"pending","window":"event-time"`) != 2 {
		t.Fatalf("--watermark-interval 0: exit %d, stderr %s\n%s", code, errOut, out)
	}
	code, _, errOut = runCLI(t, "replay", "--forget-after", "-1s", seedBurst)
	if code != 2 || !strings.Contains(errOut, "--forget-after -1s is not accepted: give a duration of 0 or more") {
		t.Fatalf("--forget-after -1s: exit %d, stderr %q", code, errOut)
	}
}

func TestReplayReportsSkippedLinesInLineOrderAndCountsEachOnce(t *testing.T) {
	src, _ := os.ReadFile(seedBurst)
	lines := strings.Split(strings.TrimSpace(string(src)), "\n")
	badEvent := `{"partition":0,"offset":99,"timestamp":1,"value":{"type":"RequestPaused","request_id":"x","tenant_id":"a","model":"flat-10c","gateway":"g","ts":1}}`
	tombstone := `{"partition":0,"offset":98,"timestamp":1,"key":"x","value":null}`
	mixed := []string{lines[0], badEvent, lines[1], tombstone, "not json", lines[2], badEvent}
	mixed = append(mixed, lines[3:]...)
	path := filepath.Join(t.TempDir(), "mixed.jsonl")
	os.WriteFile(path, []byte(strings.Join(mixed, "\n")+"\n"), 0o644)
	for _, pace := range []string{"recorded", "fast"} {
		code, _, errOut := runCLI(t, "replay", "--pace", pace, path)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		want := path + ":2: skipped: malformed event: unknown event type \"RequestPaused\"\n" +
			path + ":5: skipped: not a recording line: invalid JSON: not an object\n" +
			path + ":7: skipped: malformed event: unknown event type \"RequestPaused\"\n" +
			path + ": 1 tombstones (records with a null value) skipped\n" +
			"replayed 12 records (4 skipped)"
		if !strings.HasPrefix(errOut, want) {
			t.Errorf("%s pace: stderr\n%s\nwant it to begin\n%s", pace, errOut, want)
		}
	}
}

func TestReplayOfADamagedGzipReplaysWhatWasReadThenNamesTheFile(t *testing.T) {
	data, err := os.ReadFile(recordedHourFile)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cut.jsonl.gz")
	os.WriteFile(path, data[:len(data)/3], 0o644)
	code, out, errOut := runCLI(t, "replay", "--format", "jsonl", path)
	if code != 1 || strings.Count(out, `"sink":"processing-time"`) < 50 {
		t.Fatalf("exit %d, %d processing-time windows, stderr %s", code, strings.Count(out, `"sink":"processing-time"`), errOut)
	}
	if !strings.Contains(errOut, "labtui: "+path+" is unreadable at byte ") || !strings.Contains(errOut, "the file is truncated") ||
		!strings.Contains(errOut, "replayed ") {
		t.Fatalf("stderr: %s", errOut)
	}
}

func TestReplayOfAStalledFIFOStopsOnInterruptWithAPlainLine(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "stalled.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	src, _ := os.ReadFile(seedBurst)
	first, _, _ := strings.Cut(string(src), "\n")
	held := make(chan *os.File, 1)
	ready := make(chan struct{})
	go func() {
		f, _ := os.OpenFile(fifo, os.O_WRONLY, 0) // returns once the replay has it open
		f.WriteString(first + "\n")
		held <- f // open, writing nothing more
		close(ready)
	}()
	defer func() { (<-held).Close() }()
	replayInterrupted(t, fifo, ready)
}

// replayInterrupted replays path and interrupts it once ready is closed: it must stop
// within a second of that, exit 130 and say so in a plain line.
func replayInterrupted(t *testing.T, path string, ready <-chan struct{}) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	interrupted := make(chan time.Time, 1)
	go func() {
		select {
		case <-ready:
		case <-time.After(hangBound):
		}
		interrupted <- time.Now()
		cancel()
	}()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("LABTUI_STATE_DIR", t.TempDir()) // a headless run saves its evidence there
	var out, errb bytes.Buffer
	code := Run(ctx, []string{"replay", path}, &out, &errb)
	if took := time.Since(<-interrupted); took > 5*time.Second { // a hang, with room for a loaded machine
		t.Errorf("the replay took %s to stop after the interrupt", took)
	}
	if code != 130 || strings.Contains(errb.String(), "context canceled") || !strings.Contains(errb.String(), "labtui: replay of "+path+" interrupted") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}

func TestOpeningAFIFONobodyWritesStopsOnInterrupt(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "nobody.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	replayInterrupted(t, fifo, blockedOpening(t))
}

// blockedOpening is closed once one more goroutine than now is opening a recording (the
// open of a FIFO nobody writes to blocks there), so that the interrupt comes while it
// waits. An earlier test's open of such a FIFO is left behind, hence "one more".
func blockedOpening(t *testing.T) <-chan struct{} {
	t.Helper()
	const opener = "labtui/recording.openFile.func1("
	openers := func() int {
		buf := make([]byte, 1<<20)
		return strings.Count(string(buf[:runtime.Stack(buf, true)]), opener)
	}
	before := openers()
	ready := make(chan struct{})
	go func() {
		defer close(ready)
		for deadline := time.Now().Add(hangBound); openers() <= before && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		}
	}()
	return ready
}

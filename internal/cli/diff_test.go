package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// replayTo writes `labtui replay args… seedBurst` to a file and returns its path.
func replayTo(t *testing.T, name string, args ...string) string {
	t.Helper()
	code, out, errOut := runCLI(t, append(append([]string{"replay"}, args...), seedBurst)...)
	if code != 0 {
		t.Fatalf("replay exit %d: %s", code, errOut)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDiffExitsZeroWhenIdenticalOneWhenDifferent(t *testing.T) {
	a := replayTo(t, "a.jsonl", "--format", "jsonl", "--trace")
	again := replayTo(t, "a.txt", "--trace") // the same run as print-sink text
	b := replayTo(t, "b.jsonl", "--format", "jsonl", "--trace", "--out-of-orderness", "40s", "--drain")

	code, out, errOut := runCLI(t, "diff", a, again)
	if code != 0 || !strings.Contains(out, "event-time: 2 (tenant, minute) rows, 2 identical; the outputs are identical") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "diff", "--names", "the live run,the replay", a, b)
	if code != 1 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"the live run = " + a + "\nthe replay = " + b + "\n",
		"~ 10:00 acme       the live run $0.20 ×2",
		"2 records ($0.20) late in the live run: the watermark had passed 10:00:59.999 when they arrived",
		"        r-103 $0.10  the live run: ts 10:00:44.000 arrived 10:01:17.000 met 10:01:08.999 LATE",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	code, out, _ = runCLI(t, "diff", "-q", "--sink", "processing-time", a, b)
	if code != 0 || out != "processing-time: 2 (tenant, minute) rows, 2 identical; the outputs are identical\n" {
		t.Fatalf("exit %d: %q", code, out)
	}
}

func TestDiffTroubleExitsTwo(t *testing.T) {
	a := replayTo(t, "a.jsonl", "--format", "jsonl")
	bad := filepath.Join(t.TempDir(), "bad.txt")
	os.WriteFile(bad, []byte("late> {oops\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", a}, "diff takes two output files"},
		{[]string{"diff", a, filepath.Join(t.TempDir(), "none")}, "cannot read output"},
		{[]string{"diff", a, bad}, bad + ":1: sink late:"},
		{[]string{"diff", "--sink", "wall-clock", a, a}, "--sink wall-clock is not accepted: give event-time or processing-time"},
		{[]string{"diff", "--names", "one", a, a}, `--names one is not accepted: give two names separated by a comma, such as "live run,replay"`},
		{[]string{"diff", "--no-such-flag", a, a}, "unknown flag"},
		{[]string{"diff", "--config", filepath.Join(t.TempDir(), "none.yaml"), a, a}, "does not exist"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

func TestMovedListsR105(t *testing.T) {
	want := "r-105              acme       gw-0    $0.10      10:01 (10:01:09.000)      10:00 (10:00:58.000)      no\n"
	code, out, errOut := runCLI(t, "moved", "--replay", seedBurst)
	if code != 0 || !strings.HasPrefix(out, "6 requests in both runs; 1 changed minute ($0.10)\n") || !strings.HasSuffix(out, want) {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	a := replayTo(t, "a.jsonl", "--format", "jsonl", "--trace")
	b := replayTo(t, "b.txt", "--trace", "--timestamp", "started_ts")
	code, out, errOut = runCLI(t, "moved", a, b)
	if code != 0 || !strings.HasSuffix(out, want) || !strings.HasPrefix(out, "A = "+a+"\nB = "+b+"\n") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	untraced := replayTo(t, "c.jsonl", "--format", "jsonl")
	if code, _, errOut := runCLI(t, "moved", a, untraced); code != 1 || !strings.Contains(errOut, "run B: no trace lines") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// TestDiffRefusesALineItCannotRead damages one event-time line of a run in four ways
// and compares it with the same run without that line: an unreadable result is an
// error naming the file and line, exit 2, never a row left out of an "identical".
func TestDiffRefusesALineItCannotRead(t *testing.T) {
	a := replayTo(t, "a.jsonl", "--format", "jsonl")
	src, _ := os.ReadFile(a)
	lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
	n := -1
	for i, l := range lines {
		if strings.HasPrefix(l, `{"sink":"event-time"`) {
			n = i
			break
		}
	}
	if n < 0 {
		t.Fatalf("no event-time line in\n%s", src)
	}
	without := filepath.Join(t.TempDir(), "without.jsonl")
	os.WriteFile(without, []byte(strings.Join(append(append([]string{}, lines[:n]...), lines[n+1:]...), "\n")+"\n"), 0o644)
	for name, damaged := range map[string]string{
		"truncated":    lines[n][:len(lines[n])-5],
		"unknown sink": strings.Replace(lines[n], `"event-time"`, `"event-tme"`, 1),
		"no sink":      strings.Replace(lines[n], `"sink":"event-time",`, ``, 1),
		"not JSON":     "event-time> " + lines[n][:20],
	} {
		bad := filepath.Join(t.TempDir(), "damaged.jsonl")
		os.WriteFile(bad, []byte(strings.Join(append(append(append([]string{}, lines[:n]...), damaged), lines[n+1:]...), "\n")+"\n"), 0o644)
		code, out, errOut := runCLI(t, "diff", without, bad)
		want := "labtui: " + bad + ":" + strconv.Itoa(n+1) + ": "
		if code != 2 || out != "" || !strings.HasPrefix(errOut, want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2 and %q…", name, code, out, errOut, want)
		}
	}
}

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileRecording is the seed burst with a tenant, a gateway and request ids that
// hold terminal escape sequences (clear the screen, retitle the window, ring the bell,
// move the cursor), as anyone who can produce to the topic can make them.
func hostileRecording(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(seedBurst)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.NewReplacer(
		`"acme"`, `"ac\u001b[2Jme\u001b]0;pwned\u0007"`,
		`"gw-1"`, `"gw-\u001b[31m1"`,
		`"r-103"`, `"r-\u001b[H103"`,
	).Replace(string(data))
	path := filepath.Join(t.TempDir(), "hostile.jsonl")
	os.WriteFile(path, []byte(s), 0o644)
	return path
}

// noRawEscape fails if out holds a control character other than a newline, and
// checks that each name shows escaped instead.
func noRawEscape(t *testing.T, what, out string, shown ...string) {
	t.Helper()
	for i, r := range out {
		if r < 0x20 && r != '\n' || r == 0x7f {
			t.Errorf("%s writes a raw control character %#x at byte %d: %q", what, r, i, out[max(0, i-20):min(len(out), i+20)])
			break
		}
	}
	for _, s := range shown {
		if !strings.Contains(out, s) {
			t.Errorf("%s does not show %q escaped:\n%s", what, s, out)
		}
	}
}

func TestDiffMovedAndSkewShowNamesWithEscapeSequencesEscaped(t *testing.T) {
	rec := hostileRecording(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	for _, run := range []struct {
		out   string
		field string
	}{{a, "completed_ts"}, {b, "started_ts"}} {
		code, stdout, stderr := runCLI(t, "replay", rec, "--format", "jsonl", "--trace", "--timestamp", run.field)
		if code != 0 {
			t.Fatalf("replay exit %d: %s", code, stderr)
		}
		os.WriteFile(run.out, []byte(stdout), 0o644)
	}
	tenant := `ac\x1b[2Jme\x1b]0;pwned\x07`

	_, stdout, stderr := runCLI(t, "diff", a, b, "--records", "-1")
	noRawEscape(t, "diff", stdout+stderr, tenant)

	code, stdout, stderr := runCLI(t, "moved", a, b, "--limit", "-1")
	if code != 0 {
		t.Fatalf("moved exit %d: %s", code, stderr)
	}
	noRawEscape(t, "moved", stdout+stderr, tenant)

	code, stdout, stderr = runCLI(t, "skew", rec, "--out", filepath.Join(dir, "skew.svg"), "--width", "100", "--height", "30",
		"--hiccup", "10:00:40", "--flush", "10:01:15")
	if code != 0 {
		t.Fatalf("skew exit %d: %s", code, stderr)
	}
	noRawEscape(t, "skew", stdout+stderr, `gw-\x1b[31m1`)
}

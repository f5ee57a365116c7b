package cli

import (
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSkewWritesTheSVGAndPrintsTheBraillePicture(t *testing.T) {
	out := filepath.Join(t.TempDir(), "skew.svg")
	code, stdout, stderr := runCLI(t, "skew", seedBurst, "--out", out, "--width", "80", "--height", "24",
		"--hiccup", "10:00:40", "--flush", "10:01:15")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden, err := os.ReadFile("../skew/testdata/seed-burst-80x24.txt")
	if err != nil {
		t.Fatal(err)
	}
	if stdout != string(golden) {
		t.Fatalf("picture:\n%s\nwant the golden one:\n%s", stdout, golden)
	}
	if stderr != "wrote "+out+": 6 records, held gw-1, 2 event-time and 2 processing-time windows\n" {
		t.Fatalf("stderr %q", stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := xml.NewDecoder(f)
	circles := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("SVG is not well-formed: %v", err)
		}
		if e, ok := tok.(xml.StartElement); ok && e.Name.Local == "circle" {
			circles++
		}
	}
	if circles != 6+3 { // the records and the legend's three
		t.Fatalf("%d circles", circles)
	}
}

func TestSkewZoomAndQuiet(t *testing.T) {
	out := filepath.Join(t.TempDir(), "zoom.svg")
	code, stdout, stderr := runCLI(t, "skew", seedBurst, "-q", "--out", out, "--from", "10:01", "--to", "10:02")
	if code != 0 || stdout != "" || !strings.HasPrefix(stderr, "wrote "+out+": 2 records, ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, args := range [][]string{{"--from", "10:01"}, {"--from", "10:02", "--to", "10:01"}, {"--hiccup", "ten past"}} {
		code, _, stderr := runCLI(t, append([]string{"skew", seedBurst, "-q", "--out", ""}, args...)...)
		if code == 0 || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

func TestParseClock(t *testing.T) {
	day := int64(1_795_910_400_000) // 2026-11-29 00:00 UTC
	for in, want := range map[string]int64{
		"10:00":                     day + 36_000_000,
		"10:00:40":                  day + 36_040_000,
		"10:01:15.250":              day + 36_075_250,
		"2026-11-29T10:00:40Z":      day + 36_040_000,
		"2026-11-29T11:00:40+01:00": day + 36_040_000,
	} {
		if got, err := parseClock(in, day); err != nil || got != want {
			t.Errorf("%s: %d, %v; want %d", in, got, err, want)
		}
	}
	if _, err := parseClock("25:99", day); err == nil {
		t.Error("25:99 parsed")
	}
}

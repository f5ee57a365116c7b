package tui

import (
	"context"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/export"
	"github.com/labtui/labtui/internal/jobspec"
)

func TestExportAfterBothReplaysHasTheDiffTheMovedRequestsAndTheSkewPicture(t *testing.T) {
	dir := t.TempDir()
	fb := replayingBackend(t)
	tm := start(t, fb, Config{Recording: seedBurst, ExportDir: dir}, 120, 40)
	waitFor(t, tm, "running", "10:01:09.000")
	press(tm, "r")
	waitFor(t, tm, "replay done: 12 records with completed_ts")
	press(tm, "t")
	waitFor(t, tm, "replay done: 12 records with started_ts")
	press(tm, "d")
	press(tm, "left")
	waitFor(t, tm, "changed minute") // the moved requests are in: both comparisons are done
	press(tm, "e")
	waitFor(t, tm, "exported")
	finalView(t, tm)

	md, err := os.ReadFile(filepath.Join(dir, export.MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"### 4.3: run 2's diff against the recorded hour seed-burst.jsonl re-enacted at its recorded times with completed_ts",
		"**Event time.** event-time: 2 (tenant, minute) rows, 1 identical, 1 differ; every difference explained.",
		"2 records ($0.20) late in the re-enactment: the watermark had passed 10:00:59.999 when they arrived",
		"**Processing time.** processing-time: 3 (tenant, minute) rows, 0 identical, 2 only in the re-enactment, 1 only in the replay",
		"| 11:00 | acme | $0.6000 | 6 | still open |",
		"6 requests in both runs; 1 changed minute ($0.10) (compared: completed_ts: run 2 (replay) · started_ts: run 3 (replay)",
		"| r-105 | acme | 0.1000 | 10:00:58.000 | 10:01:09.000 | 10:01 | 10:00 | no |",
		"![run 2 · replay · completed_ts · seed-burst.jsonl · event time against processing time](lab-04-skew.svg)",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the markdown lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("markdown:\n%s", md)
	}
	f, err := os.Open(filepath.Join(dir, export.SkewFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, root := xml.NewDecoder(f), ""
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s is not well-formed XML: %v", export.SkewFile, err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Errorf("the picture's root element is %q", root)
	}
}

// TestAnExportDuringAComparisonWaitsForIt presses e while the replay's reference is
// still being re-enacted: the sheet is written once the comparison is done, with it,
// not with what stood before.
func TestAnExportDuringAComparisonWaitsForIt(t *testing.T) {
	dir := t.TempDir()
	release := make(chan struct{})
	slow := func(ctx context.Context, path string, job jobspec.Options) ([]jobspec.Result, error) {
		<-release
		return testReenact(ctx, path, job)
	}
	fb := replayingBackend(t)
	tm := start(t, fb, Config{Recording: seedBurst, ExportDir: dir, Reenact: slow}, 120, 40)
	waitFor(t, tm, "running", "10:01:09.000")
	press(tm, "r")
	waitFor(t, tm, "replay done: 12 records with completed_ts")
	press(tm, "e")
	waitFor(t, tm, "exporting once the comparison under way is done")
	if _, err := os.Stat(filepath.Join(dir, export.MarkdownFile)); err == nil {
		t.Fatal("the sheet was written while the comparison was under way")
	}
	close(release)
	waitFor(t, tm, "exported")
	finalView(t, tm)
	md, err := os.ReadFile(filepath.Join(dir, export.MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "### 4.3: run 2's diff against the recorded hour seed-burst.jsonl re-enacted") {
		t.Errorf("the sheet lacks the comparison:\n%s", md)
	}
}

package export

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/reenact"
	"github.com/labtui/labtui/internal/skew"
	"github.com/labtui/labtui/internal/state"
)

// seedPicture is the skew picture of the course's seed burst at recorded pace.
func seedPicture(t *testing.T) skew.Model {
	t.Helper()
	src, err := recording.Open(context.Background(), "../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var rs []jobspec.Result
	if _, err := reenact.Run(context.Background(), src, reenact.Config{Job: jobspec.Options{Trace: true}},
		func(r jobspec.Result) { rs = append(rs, r) }, func(int, error) {}); err != nil {
		t.Fatal(err)
	}
	return skew.Build(rs, skew.Options{Held: "gw-1", Hiccup: ms(40), Flush: ms(75)})
}

// replayEvidence is what labtui keeps of a completed_ts and a started_ts replay of the
// seed burst: the comparison with the live run, and the moved requests.
func replayEvidence() state.State {
	st := state.New()
	st.Steps["4.3"] = state.Step{Done: true}
	st.Evidence.Replays = []state.Replay{{Path: "seed-burst.jsonl", Timestamp: "completed_ts", Records: 12, Done: true, At: ms(3600),
		Compare: &state.Comparison{
			Reference: "a re-enactment of seed-burst.jsonl at recorded pace with completed_ts (the live run of the recorded hour)",
			EventTime: state.DiffReport{Summary: "event-time: 2 (tenant, minute) rows, 1 identical, 1 differ; every difference explained",
				Rows: 2, Identical: 1, Differ: 1, Lines: []string{
					"~ 10:00 acme       the live run $0.20 ×2               the replay $0.40 ×4 open          Δ +$0.20 +2",
					"      2 records ($0.20) late in the live run: the watermark had passed 10:00:59.999 when they arrived",
					"  = 1 identical row, 10:01",
				}},
			ProcessingTime: state.DiffReport{Summary: "processing-time: 3 (tenant, minute) rows, 0 identical, 2 only in the live run, 1 only in the replay; every difference explained",
				Lines:        []string{"  ~ 2 rows only in the live run, 10:00 to 10:01 (6 records, $0.60): the replay counted every one of them in its processing-time minute 11:00 instead"},
				OmittedLines: 4},
			ProcessingMinutes: []minutes.Row{{WindowStart: ms(3600), WindowEnd: ms(3660), Tenant: "acme", Cells: [2]minutes.Cell{{USD: 0.6, Requests: 6, Open: true}}}},
		}}}
	st.Evidence.Moved = []state.Moved{{RequestID: "r-105", Tenant: "acme", Gateway: "gw-0", USD: 0.1, CompletedMinute: ms(60),
		StartedMinute: ms(0), CompletedTS: ms(69), StartedTS: ms(58)}}
	st.Evidence.MovedSummary = &state.MovedSummary{Summary: "6 requests in both runs; 1 changed minute ($0.10)",
		Compared: "completed_ts: run 2 (replay) · started_ts: run 3 (replay)", Both: 6, Moved: 3, USD: 0.3, Listed: 1}
	return st
}

func TestExportWritesTheComparisonTheMovedRequestsAndTheSkewPicture(t *testing.T) {
	dir := t.TempDir()
	pic := &Picture{Model: seedPicture(t), Title: "run 1 · start · completed_ts", Exercise: "4.3"}
	paths, err := WriteWith(dir, replayEvidence(), time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC), pic)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 3 || paths[2] != filepath.Join(dir, SkewFile) {
		t.Fatalf("paths = %v", paths)
	}
	md, _ := os.ReadFile(paths[0])
	for _, want := range []string{
		"### 4.3: run 0's diff against a re-enactment of seed-burst.jsonl at recorded pace with completed_ts",
		"**Event time.** event-time: 2 (tenant, minute) rows, 1 identical, 1 differ; every difference explained.",
		"```text\n~ 10:00 acme       the live run $0.20 ×2",
		"      2 records ($0.20) late in the live run: the watermark had passed 10:00:59.999 when they arrived",
		"**Processing time.** processing-time: 3 (tenant, minute) rows",
		"| 11:00 | acme | $0.6000 | 6 | still open |",
		"… 4 more lines in the JSON",
		"6 requests in both runs; 1 changed minute ($0.10) (compared: completed_ts: run 2 (replay) · started_ts: run 3 (replay))",
		"| r-105 | acme | 0.1000 | 10:00:58.000 | 10:01:09.000 | 10:01 | 10:00 | no |",
		"(2 more moved requests in the JSON.)",
		"![run 1 · start · completed_ts](lab-04-skew.svg)",
		"run 1 · start · completed_ts: 6 records, 2 dropped as late.",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the markdown lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("markdown:\n%s", md)
	}
	// The picture sits in the appendix, under 4.3.
	if i, j := strings.Index(string(md), "## Appendix"), strings.Index(string(md), "### 4.3: event time against processing time"); j < i || i < 0 {
		t.Error("the picture is not in the appendix under 4.3")
	}
	svg, err := os.Open(paths[2])
	if err != nil {
		t.Fatal(err)
	}
	defer svg.Close()
	wellFormed(t, svg)
	var doc Document
	js, _ := os.ReadFile(paths[1])
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	if p := doc.Exercises[2].Evidence.Picture; p == nil || p.File != SkewFile || p.Records != 6 || p.Held != "gw-1" {
		t.Errorf("4.3's picture = %+v", p)
	}
	if s := doc.Exercises[3].Evidence.MovedSummary; s == nil || s.Moved != 3 {
		t.Errorf("4.4's moved summary = %+v", s)
	}
}

func TestExportWithoutAPictureWritesNoSVG(t *testing.T) {
	dir := t.TempDir()
	paths, err := Write(dir, replayEvidence(), time.Now())
	if err != nil || len(paths) != 2 {
		t.Fatalf("Write = %v, %v", paths, err)
	}
	if _, err := os.Stat(filepath.Join(dir, SkewFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an SVG was written: %v", err)
	}
}

// wellFormed reads r to the end as XML and checks its root is an svg element.
func wellFormed(t *testing.T, r io.Reader) {
	t.Helper()
	d := xml.NewDecoder(r)
	root := ""
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Errorf("the root element is %q, want svg", root)
	}
}

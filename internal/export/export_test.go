package export

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/labs/lab4"
)

// ms is 10:00:00.000 UTC on the course's day, plus offset seconds.
func ms(offsetSec int64) int64 { return 1795946400000 + offsetSec*1000 }

func sample() state.State {
	st := state.New()
	st.Answers["4.2a"] = "No: r-103 and r-104 were dropped as late."
	st.Steps["4.2"] = state.Step{Done: true, At: ms(95)}
	st.Evidence.Hiccup = &state.Hiccup{
		Instance: "gw-1", DurationMS: 35000, At: ms(40),
		Table: state.Table{Run: 1, Reason: "start", Timestamp: "completed_ts", Rows: []minutes.Row{
			{WindowStart: ms(0), WindowEnd: ms(60), Tenant: "acme",
				Cells: [2]minutes.Cell{{USD: 0.2, Requests: 2, Fired: 1}, {USD: 0.2, Requests: 2, Fired: 1}}},
			{WindowStart: ms(40), Mark: "hiccup gw-1 10:00:40"},
			{WindowStart: ms(60), WindowEnd: ms(120), Tenant: "acme", Differs: true,
				Cells: [2]minutes.Cell{{USD: 0.4, Requests: 4, Fired: 1}, {USD: 0.2, Requests: 2, Fired: 1}}},
		}},
		Late: []state.Late{{RequestID: "r-103", Tenant: "acme", Gateway: "gw-1", Timestamp: ms(44), Watermark: ms(69), USD: 0.1}},
	}
	return st
}

func TestWriteBothFilesWithAnswersAndEvidence(t *testing.T) {
	dir := t.TempDir()
	paths, err := Write(dir, sample(), time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2 || paths[0] != filepath.Join(dir, MarkdownFile) {
		t.Fatalf("paths = %v", paths)
	}
	md, _ := os.ReadFile(paths[0])
	for _, want := range []string{
		"## 4.2", "> Inject the 30-second retry delay",
		"No: r-103 and r-104 were dropped as late.",
		"| 10:01 | acme | $0.4000 (4) | $0.2000 (2) | differs |",
		"**hiccup gw-1 10:00:40**",
		"| r-103 | acme | gw-1 | 10:00:44.000 |  | 10:01:09.000 | 0.1000 |",
		"**4.4b** In one sentence: why does TenantCost use completed_ts?",
		"**Evidence:** none yet; labtui counts ",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	var doc Document
	js, _ := os.ReadFile(paths[1])
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Exercises) != len(lab4.Exercises()) || !doc.Exercises[1].Done || doc.Exercises[1].Evidence.Hiccup.Late[0].Watermark != ms(69) {
		t.Errorf("json = %s", js)
	}
	if doc.Exercises[1].Questions[0].Answer != sample().Answers["4.2a"] {
		t.Errorf("answer 4.2a = %q", doc.Exercises[1].Questions[0].Answer)
	}
}

func TestReplaysGoToTheExerciseOfTheirTimestampField(t *testing.T) {
	st := state.New()
	st.Evidence.Replays = []state.Replay{{Path: "h.jsonl.gz", Timestamp: "completed_ts", Done: true}, {Path: "h.jsonl.gz", Timestamp: "started_ts", Done: true}}
	doc := Build(st, time.Now())
	if r := doc.Exercises[2].Evidence.Replays; len(r) != 1 || r[0].Timestamp != "completed_ts" {
		t.Errorf("4.3 replays = %+v", r)
	}
	if r := doc.Exercises[3].Evidence.Replays; len(r) != 1 || r[0].Timestamp != "started_ts" {
		t.Errorf("4.4 replays = %+v", r)
	}
	if doc.Exercises[0].Evidence != nil {
		t.Errorf("4.1 has evidence %+v", doc.Exercises[0].Evidence)
	}
}

// TestAnUnwritableExportFolderNamesTheFixAndNoTemporaryFile exports where no file can
// be made: one sentence with the folder, the reason and --export-dir.
func TestAnUnwritableExportFolderNamesTheFixAndNoTemporaryFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(file, nil, 0o644)
	dirs := []string{filepath.Join(file, "out")}
	if _, err := os.Stat("/proc/self"); err == nil {
		dirs = append(dirs, "/proc")
	}
	for _, dir := range dirs {
		_, err := Write(dir, state.New(), time.Unix(0, 0))
		if err == nil {
			t.Fatalf("exporting to %s succeeded", dir)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "cannot write the answers to "+dir+" (") || !strings.HasSuffix(msg, "): choose a folder you can write with --export-dir") ||
			strings.Contains(msg, ".tmp") {
			t.Errorf("%s: %q", dir, msg)
		}
	}
}

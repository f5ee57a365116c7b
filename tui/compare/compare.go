// Package compare works out what the diff view and the export show of the replays of a
// recording: the reference run (the recording re-enacted at the pace it was recorded,
// deterministically: the live run of the recorded hour), each replay's two sinks lined up
// against it with every difference explained, and the requests whose event-time minute
// moved between a completed_ts and a started_ts run. It has no Bubble Tea in it: the TUI
// calls it from commands, off the update loop.
package compare

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/labtui/labtui/diff"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/recording"
	"github.com/labtui/labtui/replay"
	"github.com/labtui/labtui/state"
)

// Names are what a replay's diff calls its two runs: the reference is the live run of
// the recorded hour, re-enacted.
var Names = diff.Names{A: "the live run", B: "the replay"}

// MovedNames are what the moved-requests list calls its two runs.
var MovedNames = diff.Names{A: "completed_ts", B: "started_ts"}

// Reference re-enacts the recording at path at recorded pace through a new job with the
// options given, field as its event timestamp and a trace per record, and returns every
// result, the windows left open at the end as pending. Malformed lines are skipped, as
// the replay into the broker skips them.
func Reference(ctx context.Context, path string, job meter.Options, field meter.TimestampField) ([]meter.Result, error) {
	src, err := recording.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	job.Trace, job.Timestamp = true, field
	var out []meter.Result
	_, err = replay.Run(ctx, src, replay.Config{Pace: replay.Recorded, Job: job}, func(r meter.Result) { out = append(out, r) },
		func(int, error) {})
	if err != nil {
		return nil, fmt.Errorf("re-enact %s: %w", path, err)
	}
	return out, nil
}

// Output is a run's whole output so far: the results it wrote and the windows it still
// has open (PendingResults, from the latest status). It never writes into results.
func Output(results, open []meter.Result) []meter.Result {
	out := make([]meter.Result, 0, len(results)+len(open))
	return append(append(out, results...), open...)
}

// Replay is one replay compared with the reference run of its recording.
type Replay struct {
	// Event and Processing compare the event-time and the processing-time sinks, the
	// reference as A and the replay as B.
	Event, Processing *diff.Report
	// Minutes are the replay's processing-time windows, fired or still open, by minute
	// then tenant: where the whole recorded hour landed.
	Minutes []meter.Result
}

// Compare lines up both sinks of a replay's output against the reference's.
func Compare(ref, replay []meter.Result) Replay {
	return Replay{
		Event:      diff.Compare(ref, replay, diff.Options{}),
		Processing: diff.Compare(ref, replay, diff.Options{Sink: meter.ProcessingTimeResult}),
		Minutes:    processingMinutes(replay),
	}
}

// processingMinutes returns the processing-time windows of a run, the last line of each
// (tenant, minute) winning, by minute then tenant.
func processingMinutes(rs []meter.Result) []meter.Result {
	type key struct {
		tenant string
		start  int64
	}
	at := make(map[key]int)
	var out []meter.Result
	for _, r := range rs {
		if r.Kind != meter.ProcessingTimeResult && (r.Kind != meter.PendingResult || r.Window != meter.ProcessingTimeResult) {
			continue
		}
		k := key{r.Minute.TenantID, r.Minute.WindowStart}
		if i, ok := at[k]; ok {
			out[i] = r
			continue
		}
		at[k] = len(out)
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b meter.Result) int {
		return cmp.Or(cmp.Compare(a.Minute.WindowStart, b.Minute.WindowStart), cmp.Compare(a.Minute.TenantID, b.Minute.TenantID))
	})
	return out
}

// ReportLines is the report for a person, as `labtui diff` writes it, without its first
// line (the summary): runs of identical rows folded, every other row followed by the
// sentences that explain it and up to records of its records (0 for none).
func ReportLines(r *diff.Report, names diff.Names, records int) []string {
	var buf bytes.Buffer
	_ = r.WriteText(&buf, diff.TextOptions{Names: names, Records: records}) // a bytes.Buffer does not fail
	lines := strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	return lines[1:]
}

// Evidence is what the export keeps of the comparison: both summaries, the reports cut
// to state.MaxReportLines between rows, and the replay's processing-time minutes.
func (c Replay) Evidence(reference string) state.Comparison {
	ev := state.Comparison{Reference: reference, EventTime: report(c.Event), ProcessingTime: report(c.Processing)}
	for i, r := range c.Minutes {
		if i == state.MaxProcessingMinutes {
			break
		}
		ev.ProcessingMinutes = append(ev.ProcessingMinutes, state.Row{WindowStart: r.Minute.WindowStart, WindowEnd: r.Minute.WindowEnd,
			Tenant: r.Minute.TenantID, Processing: &state.Cell{USD: r.Minute.USD, Requests: r.Minute.Requests, Open: r.Kind == meter.PendingResult}})
	}
	return ev
}

func report(r *diff.Report) state.DiffReport {
	c := r.Counts
	d := state.DiffReport{Summary: r.Summary(Names), Rows: c.Rows, Identical: c.Identical, Differ: c.Differ, OnlyA: c.OnlyA,
		OnlyB: c.OnlyB, PendingOnly: c.PendingOnly, Unexplained: c.Unexplained}
	lines := ReportLines(r, Names, 0)
	d.Lines, d.OmittedLines = cutBetweenRows(lines, state.MaxReportLines)
	return d
}

// cutBetweenRows keeps at most limit lines, ending where a row ends (a row's own line is
// not indented by six spaces; the sentences under it are), and counts the rest.
func cutBetweenRows(lines []string, limit int) ([]string, int) {
	if len(lines) <= limit {
		return lines, 0
	}
	n := limit
	for n > 0 && strings.HasPrefix(lines[n], "      ") {
		n--
	}
	if n == 0 {
		n = limit
	}
	return lines[:n], len(lines) - n
}

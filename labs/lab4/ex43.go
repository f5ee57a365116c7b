package lab4

import (
	"fmt"
	"strings"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
)

// ex43 is exercise 4.3: the course's text and questions, and how it is done in labtui.
var ex43 = Exercise{
	ID: Replay,
	Instruction: "Replay the recorded hour from the earliest offset into both jobs. Diff the event-time " +
		"output against the live run; explain the processing-time output.",
	Evidence: "a replay of the recorded hour with completed_ts, read to the end and diffed against the reference you chose " +
		"(by default the hour re-enacted at its recorded times), with the processing-time minutes the whole hour landed in",
	Questions: []Question{
		{ID: "4.3a", Prompt: "How does the replayed event-time output compare with the live run?"},
		{ID: "4.3b", Prompt: "Explain the processing-time output of the replay."},
	},
	Guide: Guide{
		Uses:  []string{"r", "d", "l", "w"},
		Title: "replay the recorded hour",
		Keys:  "r, then d and ←/→",
		Short: "Press r to replay the recorded hour (t while the job reads started_ts); d diffs it against the reference, ←/→ tabs. w, p, enter, r: the second result.",
		Do: "Press r: the recorded hour is written into a fresh topic and the job restarts on it from the " +
			"earliest offset, as fast as it can read. When it is done, d diffs the replay against the reference " +
			"(the same hour re-enacted at its recorded times); ←/→ switches between the event-time and the " +
			"processing-time tab. r replays with the timestamp field the job reads now: after t (4.4) it reads started_ts, " +
			"and t again replays with completed_ts.",
		Look: "Event time: the same minutes and dollars as the reference, but for differences the diff explains: " +
			"at full speed the three partitions are read unevenly and the watermark follows the one furthest ahead, " +
			"so a replay drops records as late that the hour's live run kept; the diff and the late pane (l) say " +
			"which partition ran ahead and how many were late only because of it. w, p, enter puts watermarks per " +
			"partition on the source, which removes those: r again gives the second result for your answer, and p " +
			"here picks the replay the step names. Processing time: one or two enormous minutes, the whole " +
			"hour billed to the wall-clock minutes the replay ran in. The recorded hour holds its own hiccup, gw-1 held " +
			"10:20:40-10:21:15: the reference, under for_monotonous_timestamps(), drops its retry burst as late; a replay under " +
			"a bound above the hold (after 4.2's w) keeps it, and the diff counts those rows as the strategies' difference.",
	},
	Tables: replayTables,
	Rule:   replayRule,
	WhyNot: func(s Session, run Run) string { return replayWhyNot(s, run, Replay, jobspec.CompletedTS, "r") },
}

// replayRule is 4.3's finding from a finished completed_ts replay and its comparison as
// the evidence keeps it, or nothing until the comparison is there. It is the evidence's,
// not the diff view's, so a replay whose comparison the view let go can still back 4.3
// (pinned, or chosen by the rule).
func replayRule(s Session, run Run, _ int64) Found {
	if !run.ReplayDone() || run.Timestamp() != jobspec.CompletedTS {
		return Found{}
	}
	c := s.Comparison(run.Ref().ID)
	if c == nil || emptySide(c.EventTime) != "" {
		return Found{}
	}
	f := &state.Finding{Run: run.Ref(), Met: true, TakenAt: s.Now()}
	for i, r := range c.ProcessingMinutes {
		if i == 12 {
			break
		}
		f.Rows = append(f.Rows, r)
	}
	ev := c.EventTime
	f.Replay = &state.ReplayFacts{AgainstRun: c.AgainstRun, ReferenceWatermarks: c.ReferenceWatermarks, Rows: ev.Rows, Identical: ev.Identical, Unexplained: ev.Unexplained,
		ProcessingUSD: c.ProcessingUSD, ProcessingRequests: c.ProcessingRequests, ProcessingStarts: append([]int64(nil), c.ProcessingStarts...)}
	explainLate(f, run)
	return Found{Finding: f}
}

// replayWhyNot says what run lacks for exercise ex (4.3 or 4.4), whose replay reads
// field and is started with key.
func replayWhyNot(s Session, run Run, ex string, field jobspec.TimestampField, key string) string {
	switch {
	case !run.Replay() && run.ReadsRecording():
		// A w or x restart on the replay's topic reads the recorded hour again from the
		// earliest offset, but reports no replay progress and has no comparison.
		return "a restart on the replay's topic, not a replay: " + key + " replays with this strategy"
	case !run.Replay():
		return "not a replay"
	case run.Timestamp() != field:
		// r replays with the field the job reads now: after t it would replay this
		// run's field again, so say which key goes to the other.
		return fmt.Sprintf("reads %s: %s replays with %s, which t switches to and replays", run.Timestamp(), ex, field)
	case !run.ReplayDone():
		return "its replay has not finished"
	case ex == Moved:
		return "no request found yet whose cost moved minutes"
	}
	c := s.Comparison(run.Ref().ID)
	if c == nil {
		return "its comparison with the reference is not worked out (or was let go)"
	}
	if side := emptySide(c.EventTime); side != "" {
		return side + " wrote no event-time window: a comparison with an empty run shows nothing"
	}
	return "nothing for " + ex
}

// emptySide names the side of an event-time comparison that wrote no window: "the
// replay" or "the reference", or "" when both wrote some. A comparison with a run that
// wrote nothing ("0 of 300 rows identical" against a replay whose job read nothing) says
// nothing of how the outputs compare, so it backs no exercise.
func emptySide(ev state.DiffReport) string {
	switch {
	case ev.Identical+ev.Differ+ev.OnlyB == 0:
		return "the replay"
	case ev.Identical+ev.Differ+ev.OnlyA == 0:
		return "the reference"
	}
	return ""
}

// explainLate keeps in f what explains run's late records, when anything does.
func explainLate(f *state.Finding, run Run) {
	if l := run.LateFacts(); LateWhy(l) != "" {
		f.Late = &l
	}
}

// recordedHour is the recorded hour the lab replays (labs/04-event-time-and-processing-
// time/data/README.md): its file name, and the hiccup recorded in it, gw-1 held across a
// minute boundary as in the course's story, whose retry burst a strategy drops as late
// or keeps.
var recordedHour = struct {
	File     string
	Instance string
	From, To int64
}{File: "recorded-hour.jsonl.gz", Instance: "gw-1", From: 1795947640000, To: 1795947675000}

// Reenacted is how a replay's default reference reads in a sentence.
const Reenacted = "the recorded hour re-enacted at its recorded times"

// against names a replay's reference in a sentence, with its watermark strategy: the
// run the learner chose, or the recording re-enacted.
func against(r state.ReplayFacts) string {
	if r.AgainstRun != nil {
		if w := r.AgainstRun.Watermarks; w != "" {
			return RunName(*r.AgainstRun) + " under " + w
		}
		return RunName(*r.AgainstRun)
	}
	if r.ReferenceWatermarks != "" {
		return Reenacted + " under " + r.ReferenceWatermarks
	}
	return Reenacted
}

// monotonous reports whether a strategy's name is for_monotonous_timestamps(), wherever
// it is generated.
func monotonous(strategy string) bool {
	return strings.HasPrefix(strategy, "for_monotonous_timestamps()")
}

// referenceStrategy is the strategy the reference ran under, "" when not known.
func referenceStrategy(r state.ReplayFacts) string {
	if r.AgainstRun != nil {
		return r.AgainstRun.Watermarks
	}
	return r.ReferenceWatermarks
}

func replaySentence(run state.RunRef, r state.ReplayFacts) string {
	s := fmt.Sprintf("In %s, the event-time output against %s: %d of %d (tenant, minute) rows identical", RunName(run), against(r),
		r.Identical, r.Rows)
	if n := r.Rows - r.Identical; n > 0 {
		s += fmt.Sprintf(", %d not", n)
		ref := referenceStrategy(r)
		switch {
		case r.Unexplained == 0 && ref != "" && run.Watermarks != "" && ref != run.Watermarks:
			// Two strategies keep and drop different records: the difference is theirs
			// as much as the order the records arrived in.
			s += fmt.Sprintf(", every difference explained (see the appendix): the reference ran under %s and this replay under %s, "+
				"so records one drops as late the other keeps, besides the order the records arrived in", ref, run.Watermarks)
			if run.Recording == recordedHour.File && monotonous(ref) != monotonous(run.Watermarks) {
				s += fmt.Sprintf(" (the recorded hour holds its own hiccup, %s held %s–%s: its retry burst arrives behind "+
					"for_monotonous_timestamps()'s watermark and within a bound above the hold)", recordedHour.Instance,
					seconds(recordedHour.From), seconds(recordedHour.To))
			}
		case r.Unexplained == 0:
			s += ", every difference explained by the records' arrival (see the appendix)"
		default:
			s += fmt.Sprintf(", %d unexplained", r.Unexplained)
		}
	}
	if len(r.ProcessingStarts) > 0 {
		s += fmt.Sprintf("; its processing-time windows put the whole recording, $%.4f and %s requests, into %s of the wall clock the replay ran at",
			r.ProcessingUSD, count(r.ProcessingRequests), minuteSpan(r.ProcessingStarts))
	}
	return s + "."
}

// replayTables are 4.3's tables: the processing-time windows of finding f's replay (the
// sheet's); the course's "identical" and "one or two enormous minutes" beside the
// learner's completed_ts replay compared with its reference, the replay of the run
// backing 4.3 (f's) when the evidence keeps it, or else the latest; and every replay the
// learner ran (ev.Replayed, the sheet's). Each only when there is what it shows.
// Without f, the completed_ts replays a file saved before findings existed kept come
// first (the sheet's).
func replayTables(f *state.Finding, ev state.Evidence) []Table {
	var out []Table
	backing := 0
	if f != nil {
		backing = f.Run.ID
		if len(f.Rows) > 0 {
			t := processingTable(f.Rows)
			t.Title = "The replay's processing-time windows, the wall-clock minutes the whole recording landed in:"
			out = append(out, t)
		}
	} else {
		out = savedReplays(ev.Replays, jobspec.CompletedTS)
	}
	if s, ok := replaySumsOf(ev.Replays, backing); ok {
		out = append(out, courseReplayTable(s))
	}
	if len(ev.Replayed) > 0 {
		out = append(out, replayedTable(ev))
	}
	return out
}

// courseReplayTable is the course's "identical" and "one or two enormous minutes" beside
// replay s compared with its reference.
func courseReplayTable(s replaySums) Table {
	c := s.replay.Compare
	proc := fmt.Sprintf("%s, $%.2f in all", plural(s.minutes, "minute"), s.total)
	if s.minutes > 0 {
		proc += fmt.Sprintf(", $%.2f in %s", s.biggestUSD, hhmm(s.biggest))
	}
	return Table{
		Title:  fmt.Sprintf("the course against yours: run %d, the replay with completed_ts, against %s", s.replay.Table.Run, c.Reference),
		Header: []string{"window", "the course", "yours"},
		Rows: [][]string{
			{"event time", "identical", fmt.Sprintf("%d of %d rows identical, %d differ", c.EventTime.Identical, c.EventTime.Rows, c.EventTime.Differ)},
			{"processing time", "1 or 2 enormous minutes", proc},
		},
		Note: c.EventTime.Summary,
	}
}

// processingTable is a replay's processing-time windows (at most ListedRows), the
// wall-clock minutes its records landed in, with no title.
func processingTable(rows []minutes.Row) Table {
	t := Table{Header: []string{"minute", "tenant", "USD", "requests"}, Unnamed: 1, SheetOnly: true}
	for i, r := range rows {
		if i == listedRows {
			t.More = fmt.Sprintf("%d more in the JSON", len(rows)-i)
			break
		}
		p := r.Cells[minutes.Processing]
		open := ""
		if p.Open {
			open = "still open"
		}
		t.Rows = append(t.Rows, []string{hhmm(r.WindowStart), r.Tenant, fmt.Sprintf("$%.4f", p.USD), count(p.Requests), open})
	}
	return t
}

// savedReplays are the replays with field that a file saved before findings existed
// kept, a table each: the replay, and its processing-time windows when it was compared
// (the sheet's). They are every replay with field the evidence keeps: with no finding,
// the sheet shows them all as saved.
func savedReplays(replays []state.Replay, field jobspec.TimestampField) []Table {
	var out []Table
	for _, r := range replays {
		if r.Timestamp != field.String() {
			continue
		}
		t := Table{SheetOnly: true}
		if c := r.Compare; c != nil && len(c.ProcessingMinutes) > 0 {
			t = processingTable(c.ProcessingMinutes)
		}
		t.Title = fmt.Sprintf("Saved before this version of labtui: a replay of %s with %s, %s records.", r.Path, r.Timestamp, count(r.Records))
		out = append(out, t)
	}
	return out
}

// replayedTable is every replay of a recording the learner ran (ev.Replayed), a row
// each, oldest first, with which exercises each backs (ev.Findings): 4.3 is answered by
// the replays together (one after the parse, one with watermarks per partition at the
// source), and an answer may quote one that no longer backs the step.
func replayedTable(ev state.Evidence) Table {
	names := NamesIn(ev)
	t := Table{Title: fmt.Sprintf("Every replay you ran, oldest first (%d; labtui keeps the latest %d), and the exercise each backs:",
		len(ev.Replayed), state.MaxReplayed),
		Header:    []string{"run", "watermarks", "records", "late records", "late USD", "largest partition lead", "backs"},
		SheetOnly: true}
	for _, l := range ev.Replayed {
		r := l.Run
		what := r.Kind
		if r.Recording != "" {
			what += " of " + r.Recording
		}
		records := count(l.Records)
		if l.Error != "" {
			records += " (stopped: " + l.Error + ")"
		}
		t.Rows = append(t.Rows, []string{names.Of(r) + ": " + JoinSet(what, r.Timestamp), r.Watermarks, records, count(int64(l.LateCount)),
			fmt.Sprintf("$%.4f", l.LateUSD), leadOf(l.Lead), backs(r, ev.Findings)})
	}
	return t
}

// leadOf is "partition 2, 241.3 s ahead of partition 0", or what is known of it.
func leadOf(l *state.Lead) string {
	if l == nil {
		return "none reported"
	}
	return fmt.Sprintf("partition %d, %.1f s ahead of partition %d", l.Ahead, float64(l.ByMS)/1000, l.Behind)
}

// backs lists the exercises whose finding run r backs, "(your pick)" beside those the
// learner pinned to it, "—" for none.
func backs(r state.RunRef, findings map[string]*state.Finding) string {
	var out []string
	for _, e := range exercises {
		f := findings[e.ID]
		if f == nil || f.Run.ID != r.ID || f.Run.StartedAt != r.StartedAt {
			continue
		}
		if f.Pinned {
			out = append(out, e.ID+" (your pick)")
		} else {
			out = append(out, e.ID)
		}
	}
	if len(out) == 0 {
		return "—"
	}
	return strings.Join(out, ", ")
}

// replaySums is 4.3's table in numbers: a completed_ts replay compared with its
// reference, and where its processing-time windows put the recorded hour.
type replaySums struct {
	replay *state.Replay
	// minutes is how many wall-clock minutes the processing-time windows filled, total
	// their dollars, and biggest the minute with the most dollars, biggestUSD its dollars.
	minutes           int
	total, biggestUSD float64
	biggest           int64
}

// replaySumsOf picks the completed_ts replay with a comparison that is run id's, or else
// the latest, and sums its processing-time windows by minute; false when there is none.
func replaySumsOf(replays []state.Replay, id int) (replaySums, bool) {
	var r *state.Replay
	for i := len(replays) - 1; i >= 0; i-- {
		if x := &replays[i]; x.Compare != nil && x.Timestamp == jobspec.CompletedTS.String() && (r == nil || x.Table.Run == id) {
			if r = x; x.Table.Run == id {
				break
			}
		}
	}
	if r == nil {
		return replaySums{}, false
	}
	s := replaySums{replay: r}
	perMinute := map[int64]float64{}
	for _, row := range r.Compare.ProcessingMinutes {
		perMinute[row.WindowStart] += row.Cells[minutes.Processing].USD
		s.total += row.Cells[minutes.Processing].USD
	}
	s.minutes = len(perMinute)
	first := true
	for m, usd := range perMinute {
		if first || usd > s.biggestUSD || (usd == s.biggestUSD && m < s.biggest) {
			s.biggest, s.biggestUSD, first = m, usd, false
		}
	}
	return s, true
}

// Package lab4 is Lab 4's exercises, each whole in a file of its own: the course's text
// and questions, how it is done in labtui, what counts as its evidence, and how its
// evidence reads in words. Evidence is kept as data (state.Finding); this package is the
// one place that turns it into sentences, for the lab panel and the answer sheet alike.
package lab4

import (
	"fmt"
	"strings"
	"time"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/internal/thousands"
)

// Sentence is finding f in one sentence, or a few: what it proves, from its own
// numbers. A finding saved before findings were data is its saved sentence.
func Sentence(f *state.Finding) string {
	if f == nil {
		return ""
	}
	var s string
	switch {
	case f.Agreement != nil:
		s = agreementSentence(f.Run, *f.Agreement)
	case f.Hiccup != nil:
		s = hiccupSentence(f.Run, *f.Hiccup)
	case f.Replay != nil:
		s = replaySentence(f.Run, *f.Replay)
	case f.Moved != nil:
		s = movedSentence(f.Run, *f.Moved)
	case f.Failure != nil:
		s = failureSentence(f.Run, *f.Failure)
	default:
		return f.Saved
	}
	if f.Late != nil {
		if why := LateWhy(*f.Late); why != "" {
			s += " " + why
		}
	}
	return s
}

// RunName names a run in a sentence: "run 2 (replay of hour.jsonl.gz, started_ts)".
func RunName(r state.RunRef) string {
	what := KindWords(r.Kind)
	if r.Recording != "" {
		what += " of " + r.Recording
	}
	return fmt.Sprintf("run %d (%s, %s)", r.ID, what, r.Timestamp)
}

// RunNames names runs in the sheet's tables: "run 4", or "run 1 of 1 Dec 13:20", with
// when it began, for a number the evidence names for two runs that began at different
// times (a file saved over several sessions before runs were numbered on across them has
// a run 1 of each).
type RunNames struct{ twice map[int]bool }

// NamesIn names runs as the tables of evidence ev do: by the runs its findings and its
// replays (ev.Findings, ev.Replayed) name.
func NamesIn(ev state.Evidence) RunNames {
	began := map[int]int64{}
	twice := map[int]bool{}
	see := func(r state.RunRef) {
		if at, ok := began[r.ID]; ok && at != r.StartedAt {
			twice[r.ID] = true
		}
		began[r.ID] = r.StartedAt
	}
	for _, f := range ev.Findings {
		if f != nil {
			see(f.Run)
		}
	}
	for _, l := range ev.Replayed {
		see(l.Run)
	}
	return RunNames{twice: twice}
}

// Of is run r's name: "run 4", or "run 1 of 1 Dec 13:20".
func (n RunNames) Of(r state.RunRef) string {
	name := fmt.Sprintf("run %d", r.ID)
	if n.twice[r.ID] && r.StartedAt != 0 {
		name += " of " + time.UnixMilli(r.StartedAt).UTC().Format("2 Jan 15:04")
	}
	return name
}

// JoinSet joins the parts that are set with ", ": a file saved before a run kept its
// timestamp field or its watermarks leaves them out, not an empty ", ,".
func JoinSet(parts ...string) string {
	var set []string
	for _, p := range parts {
		if p != "" {
			set = append(set, p)
		}
	}
	return strings.Join(set, ", ")
}

// kindWords are the kinds of run (state.RunRef.Kind, the restart's cause in a word)
// that read as jargon on their own: "run 2: kill" does not say whether run 2 was killed
// or began after the kill.
var kindWords = map[string]string{
	"kill":      "restarted after a kill",
	"failure":   "restarted after a failure",
	"strategy":  "restarted with other watermarks",
	"timestamp": "restarted with the other timestamp field",
	"live":      "back on the live topic",
}

// KindWords is how a run began, in words, for the screen and the sheet: "restarted
// after a kill" for the kind "kill"; "start", "replay" and a backend's reason (already
// words) as they are. The saved kind stays the one word.
func KindWords(kind string) string {
	if w, ok := kindWords[kind]; ok {
		return w
	}
	return kind
}

// count writes n with thousands separated by commas: 16,499.
func count(n int64) string { return thousands.Format(n) }

// plural is "1 request" or "3 requests".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%s %ss", count(int64(n)), word)
}

// hhmm is a time as UTC hh:mm.
func hhmm(ms int64) string { return jobspec.Clock(ms)[:5] }

// seconds is a time as UTC hh:mm:ss.
func seconds(ms int64) string { return jobspec.Clock(ms)[:8] }

// minuteList names minutes: "15:14", "15:14 and 15:16", "15:14, 15:15 and 15:16".
func minuteList(starts []int64) string {
	names := make([]string, len(starts))
	for i, m := range starts {
		names[i] = hhmm(m)
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// minuteSpan names minutes: "the minute 10:01", "the 3 minutes 10:01, 10:02 and 10:04".
func minuteSpan(starts []int64) string {
	if len(starts) == 1 {
		return "the minute " + hhmm(starts[0])
	}
	return fmt.Sprintf("the %d minutes %s", len(starts), minuteList(starts))
}

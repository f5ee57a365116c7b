// Package export writes a learner's Lab 4 answers and the evidence labtui captured as
// lab-04-answers.md (to read and hand in) and lab-04-answers.json (to check by script),
// and, when there is one, the skew picture of a run as lab-04-skew.svg beside them.
package export

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/labtui/labtui/internal/fileerr"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/labs/lab4"
)

// File names of the export, written in the export directory.
const (
	MarkdownFile = "lab-04-answers.md"
	JSONFile     = "lab-04-answers.json"
)

// Document is the export's JSON: per exercise, the instruction, whether its evidence
// exists, the learner's answers and the evidence.
type Document struct {
	Lab        string     `json:"lab"`
	ExportedAt time.Time  `json:"exported_at"`
	Exercises  []Exercise `json:"exercises"`
	// Unasked are the saved answers to questions this labtui does not ask, by ID:
	// kept, never dropped.
	Unasked []Answer `json:"unasked,omitempty"`
}

// Exercise is one "Try it" step in the export.
type Exercise struct {
	ID          string `json:"id"`
	Instruction string `json:"instruction"`
	// Rule is what labtui counts as the exercise's evidence.
	Rule      string   `json:"rule"`
	Done      bool     `json:"done"`
	Questions []Answer `json:"questions"`
	// Finding is the exercise's one evidence record: the run that backs it, its numbers
	// and the sentence they read as.
	Finding  *Finding  `json:"finding,omitempty"`
	Evidence *Evidence `json:"evidence,omitempty"`
}

// Finding is a finding as the export writes it: its data, and the sentence it reads
// as, rendered from that data (for a file saved before findings were data, the
// sentence it saved).
type Finding struct {
	state.Finding
	Sentence string `json:"sentence"`
	// Earlier says the sentence was saved by an earlier labtui, before findings were
	// data: its run numbers are that session's own.
	Earlier bool `json:"earlier,omitempty"`
}

// Answer is a question and what the learner wrote.
type Answer struct {
	ID     string `json:"id"`
	Prompt string `json:"prompt"`
	Answer string `json:"answer"`
}

// Evidence is the part of state.Evidence that belongs to one exercise.
type Evidence struct {
	Agreement *state.Table  `json:"agreement,omitempty"`
	Hiccup    *state.Hiccup `json:"hiccup,omitempty"`
	// HiccupTable is 4.2's table beside the course's, as the lab panel shows it.
	HiccupTable *state.HiccupTable `json:"hiccup_table,omitempty"`
	Replays     []state.Replay     `json:"replays,omitempty"`
	Moved       []state.Moved      `json:"moved,omitempty"`
	// Replayed is every replay of a recording the learner ran, a line each, oldest first
	// (4.3's evidence: the replays answer it together).
	Replayed []state.ReplayRun `json:"replayed,omitempty"`
	// MovedSummary totals the moved requests when the two runs were compared whole.
	MovedSummary *state.MovedSummary `json:"moved_summary,omitempty"`
	// Picture is the skew picture written beside the answers, when it is this
	// exercise's evidence.
	Picture *PictureRef `json:"picture,omitempty"`
}

// Build arranges st per exercise, with no local path in it: a recording is named by its
// file name alone.
func Build(st state.State, now time.Time) Document {
	st = withoutPaths(st)
	doc := Document{Lab: "04-event-time-and-processing-time", ExportedAt: now.UTC()}
	for _, ex := range lab4.Exercises() {
		step := st.Steps[ex.ID]
		e := Exercise{ID: ex.ID, Instruction: ex.Instruction, Rule: ex.Evidence, Done: step.Done, Finding: findingOf(st.Evidence.Findings[ex.ID])}
		for _, q := range ex.Questions {
			e.Questions = append(e.Questions, Answer{ID: q.ID, Prompt: q.Prompt, Answer: st.Answers[q.ID]})
		}
		e.Evidence = evidenceFor(ex.ID, st.Evidence)
		doc.Exercises = append(doc.Exercises, e)
	}
	doc.Unasked = unasked(st)
	return doc
}

// findingOf is f as the export writes it, nil for none.
func findingOf(f *state.Finding) *Finding {
	if f == nil {
		return nil
	}
	out := &Finding{Finding: *f.Clone(), Sentence: shown(lab4.Sentence(f))}
	out.Earlier = out.Agreement == nil && out.Hiccup == nil && out.Replay == nil && out.Moved == nil && out.Failure == nil
	return out
}

// evidenceFor picks the evidence of exercise id, or nil when there is none.
func evidenceFor(id string, ev state.Evidence) *Evidence {
	var e Evidence
	switch id {
	case lab4.Agreement:
		e.Agreement = ev.Agreement
	case lab4.Hiccup:
		e.Hiccup, e.HiccupTable = ev.Hiccup, ev.HiccupTable
	case lab4.Replay:
		e.Replays = replaysWith(ev.Replays, "completed_ts")
		e.Replayed = ev.Replayed
	case lab4.Moved:
		e.Replays = replaysWith(ev.Replays, "started_ts")
		e.Moved, e.MovedSummary = ev.Moved, ev.MovedSummary
	}
	if e.Agreement == nil && e.Hiccup == nil && len(e.Replays) == 0 && len(e.Moved) == 0 && e.MovedSummary == nil && len(e.Replayed) == 0 {
		return nil
	}
	return &e
}

// tables is the session's evidence e keeps, with every exercise's findings, as the
// exercises' tables read it; the findings alone for a nil e.
func (e *Evidence) tables(findings map[string]*state.Finding) state.Evidence {
	if e == nil {
		return state.Evidence{Findings: findings}
	}
	return state.Evidence{Agreement: e.Agreement, Hiccup: e.Hiccup, HiccupTable: e.HiccupTable, Replays: e.Replays, Replayed: e.Replayed,
		Moved: e.Moved, MovedSummary: e.MovedSummary, Findings: findings}
}

func replaysWith(rs []state.Replay, field string) []state.Replay {
	var out []state.Replay
	for _, r := range rs {
		if r.Timestamp == field {
			out = append(out, r)
		}
	}
	return out
}

// earlierPicture is the picture an earlier export wrote into dir, while its run still
// backs the exercise it was drawn for and its file is there; nil otherwise.
func earlierPicture(dir string, st state.State) *state.Picture {
	p := st.Evidence.Picture
	if p == nil || filepath.Base(p.File) != p.File {
		return nil
	}
	f := st.Evidence.Findings[p.Exercise]
	if f == nil || f.Run.ID != p.Run.ID || f.Run.StartedAt != p.Run.StartedAt {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, p.File)); err != nil {
		return nil
	}
	return p
}

// Write writes both files into dir, each atomically, and returns their paths.
func Write(dir string, st state.State, now time.Time) ([]string, error) {
	return WriteWith(dir, st, now, nil)
}

// WriteWith is Write with a skew picture: when pic is not nil it is written first, as
// SkewFile, and the answers refer to it from the evidence of its exercise. The paths
// returned are the markdown's, the JSON's, then the picture's.
func WriteWith(dir string, st state.State, now time.Time, pic *Picture) ([]string, error) {
	paths, err := writeWith(dir, st, now, pic)
	var we *fileerr.WriteError
	if errors.As(err, &we) {
		return nil, fmt.Errorf("cannot write the answers to %s (%s): choose a folder you can write with --export-dir", dir, fileerr.Reason(err))
	}
	return paths, err
}

func writeWith(dir string, st state.State, now time.Time, pic *Picture) ([]string, error) {
	doc := Build(st, now)
	svg := ""
	if pic != nil {
		var err error
		if svg, err = pic.writeSVG(dir); err != nil {
			return nil, err
		}
		doc.attach(pic.ref(SkewFile), pic.Exercise)
	} else if p := earlierPicture(dir, st); p != nil {
		doc.attach(&PictureRef{File: p.File, Title: p.Title, Records: p.Records, Held: p.Held, Late: p.Late}, p.Exercise)
	}
	js, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode the export: %w", err)
	}
	md := Markdown(doc)
	paths := []string{filepath.Join(dir, MarkdownFile), filepath.Join(dir, JSONFile)}
	if err := state.WriteFileAtomic(paths[0], []byte(md)); err != nil {
		return nil, err
	}
	if err := state.WriteFileAtomic(paths[1], append(js, '\n')); err != nil {
		return nil, err
	}
	if svg != "" {
		paths = append(paths, svg)
	}
	return paths, nil
}

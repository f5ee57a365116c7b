package tui

import (
	"fmt"
	"path/filepath"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/skew"
	"github.com/labtui/labtui/tui/components/diffview"
	"github.com/labtui/labtui/tui/history"
)

// analysis is what labtui works out from the runs off the update loop, and keeps: the
// reference run of each (recording, timestamp field), each replay's comparison with its
// reference, the moved requests and the latest skew picture. It is written only from
// Update; commands get copies of what they need.
type analysis struct {
	refs  map[refKey]*refEntry
	diffs map[int]*diffEntry
	moved movedEntry
	skew  skewEntry
	// ticking says a view tick is on its way.
	ticking bool
}

func newAnalysis() *analysis {
	return &analysis{refs: map[refKey]*refEntry{}, diffs: map[int]*diffEntry{}}
}

// refKey names a reference run: a recording re-enacted with one timestamp field.
type refKey struct {
	path  string
	field meter.TimestampField
}

// refEntry is a reference run, or the re-enactment under way.
type refEntry struct {
	results []meter.Result
	err     error
	pending bool
}

// diffEntry is a replay run's comparison with its reference: n is how many of the run's
// results it compared.
type diffEntry struct {
	n       int
	pending bool
	content *diffview.Content
}

// movedEntry is the latest moved-requests list; key names the two runs it compared.
type movedEntry struct {
	key     string
	pending bool
	err     error
	moved   *diffview.Moved
}

// skewEntry is the latest picture: of run runID with n results, drawn at w x h.
type skewEntry struct {
	runID, n int
	w, h     int
	withRef  bool
	pending  bool
	model    *skew.Model
	title    string
	built    time.Time
	took     time.Duration
}

// settleDelay is how long after a replay reports Done its last results are waited for
// before it is compared: the backend sends them in its next batches.
const settleDelay = time.Second

// settledMsg says a replay finished settleDelay ago.
type settledMsg struct{}

// diffRun is the newest run whose replay was read to the end, or nil.
func (m Model) diffRun() *history.Run {
	runs := m.hist.Runs()
	for i := len(runs) - 1; i >= 0; i-- {
		if r := runs[i]; r.ReplayDone && r.Results.Len() > 0 {
			return r
		}
	}
	return nil
}

// recordingOf is the recording a replay run read.
func (m Model) recordingOf(r *history.Run) string {
	if r.ReplayPath != "" {
		return r.ReplayPath
	}
	return m.cfg.Recording
}

// analyze starts whatever the diff view and the export lack: the references of the
// finished replays, their comparisons, the moved requests; and says in the view what is
// under way. It is cheap to call again: work already done or under way is not started twice.
func (m Model) analyze() (Model, tea.Cmd) {
	var cmds []tea.Cmd
	// Every finished replay kept is compared, newest first, so each has its evidence
	// even when the next replay began before it had settled.
	runs := m.hist.Runs()
	for i := len(runs) - 1; i >= 0; i-- {
		if r := runs[i]; r.ReplayDone && r.Results.Len() > 0 {
			cmds = append(cmds, m.compareRun(r))
		}
	}
	cmds = append(cmds, m.findMoved())
	return m.showAnalysis(), tea.Batch(cmds...)
}

// reference returns the reference run of key, starting its re-enactment when there is
// none; ok is false until it is there.
func (m Model) reference(key refKey) (ref *refEntry, cmd tea.Cmd, ok bool) {
	ref = m.an.refs[key]
	switch {
	case ref == nil:
		m.an.refs[key] = &refEntry{pending: true}
		return nil, m.referenceCmd(key), false
	case ref.pending || ref.err != nil:
		return ref, nil, false
	}
	return ref, nil, true
}

// compareRun compares a replay run with its reference unless that is done for the
// results it has now, or under way.
func (m Model) compareRun(run *history.Run) tea.Cmd {
	e := m.an.diffs[run.ID]
	if e != nil && (e.pending || e.n == run.Results.Len()) {
		return nil
	}
	ref, cmd, ok := m.reference(refKey{m.recordingOf(run), run.Timestamp})
	if !ok {
		return cmd
	}
	if e == nil {
		e = &diffEntry{}
		m.an.diffs[run.ID] = e
	}
	e.pending = true
	return m.compareCmd(run, ref.results)
}

// movedSource is one side of the moved-requests list: a replay run's output, or the
// reference when no whole run is kept.
type movedSource struct {
	name    string
	key     string
	results []meter.Result
}

// findMoved lists the requests whose minute moved once a started_ts replay finished:
// from the newest completed_ts and started_ts replays whose results are kept whole, or
// from the recording's re-enactments where one is missing.
func (m Model) findMoved() tea.Cmd {
	var started *history.Run
	runs := m.hist.Runs()
	for i := len(runs) - 1; i >= 0 && started == nil; i-- {
		if r := runs[i]; r.ReplayDone && r.Timestamp == meter.StartedTS {
			started = r
		}
	}
	if started == nil {
		return nil
	}
	path := m.recordingOf(started)
	var cmds []tea.Cmd
	source := func(field meter.TimestampField, run *history.Run) (movedSource, bool) {
		if run != nil && run.Results.Complete() && run.Results.Len() > 0 {
			return movedSource{name: fmt.Sprintf("run %d (replay)", run.ID), key: fmt.Sprintf("run %d/%d", run.ID, run.Results.Len()),
				results: run.Results.Snapshot()}, true
		}
		ref, cmd, ok := m.reference(refKey{path, field})
		cmds = append(cmds, cmd)
		if !ok {
			return movedSource{}, false
		}
		return movedSource{name: "the recording re-enacted", key: "ref " + path + " " + field.String(), results: ref.results}, true
	}
	a, okA := source(meter.CompletedTS, m.hist.LatestReplay(meter.CompletedTS))
	b, okB := source(meter.StartedTS, started)
	if !okA || !okB {
		return tea.Batch(cmds...)
	}
	key := a.key + " | " + b.key
	if mv := &m.an.moved; mv.key == key {
		return nil
	}
	m.an.moved = movedEntry{key: key, pending: true, moved: m.an.moved.moved}
	title := fmt.Sprintf("completed_ts: %s · started_ts: %s · %s", a.name, b.name, filepath.Base(path))
	return m.movedCmd(key, title, a.results, b.results)
}

// showAnalysis puts the latest results in the diff view, with notes on what is under
// way or missing.
func (m Model) showAnalysis() Model {
	dv := m.diffView
	run := m.diffRun()
	note := ""
	var e *diffEntry
	if run != nil {
		e = m.an.diffs[run.ID]
	}
	switch {
	case run == nil && m.replaying:
		note = "The replay is under way: it is compared with the live run when it has finished."
	case run == nil:
		note = "No replay has finished yet. Press r to replay the recorded hour from the earliest offset; " +
			"it is then compared, minute by minute, with the live run of that hour (its re-enactment at recorded pace)."
	case e == nil || e.content == nil || e.pending:
		note = m.referenceNote(refKey{m.recordingOf(run), run.Timestamp}, fmt.Sprintf("comparing run %d with the live run…", run.ID))
	}
	if e != nil && e.content != nil {
		dv = dv.SetContent(e.content)
	}
	dv = dv.SetNote(diffview.EventTab, note).SetNote(diffview.ProcessingTab, note)
	mv := m.an.moved
	note = ""
	switch {
	case mv.err != nil:
		note = "the moved requests could not be listed: " + mv.err.Error()
	case mv.key == "" && mv.moved == nil:
		note = "Press t to switch the job to started_ts and replay: the requests whose event-time minute moved are listed here."
		if run := m.diffRun(); run != nil && run.Timestamp == meter.StartedTS {
			note = m.referenceNote(refKey{m.recordingOf(run), meter.CompletedTS}, "listing the requests whose minute moved…")
		}
	case mv.pending:
		note = "listing the requests whose minute moved…"
	}
	if mv.moved != nil {
		dv = dv.SetMoved(mv.moved)
	}
	m.diffView = dv.SetNote(diffview.MovedTab, note)
	return m
}

// referenceNote says what the reference of key is doing, or else says otherwise.
func (m Model) referenceNote(key refKey, otherwise string) string {
	ref := m.an.refs[key]
	switch {
	case ref == nil:
		return otherwise
	case ref.err != nil:
		return "the live run could not be re-enacted: " + ref.err.Error()
	case ref.pending:
		return fmt.Sprintf("re-enacting %s at recorded pace with %s: the live run to compare with…", filepath.Base(key.path), key.field)
	}
	return otherwise
}

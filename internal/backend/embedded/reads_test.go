package embedded

import (
	"context"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/watermark"
)

// TestAReplayReportsHowUnevenlyItReadThePartitions replays the recorded hour as fast as
// the broker serves it and checks what the replay's last progress says of its reading
// (each partition's records and largest timestamp, the largest lead of one partition over
// another, and the late records only that lead made late) against a recomputation from
// the records in the order the job read them.
// hourRead is a replay of the recorded hour as fast as the broker serves it: the events
// in the order the job read them, its late records (request id: the end of the window it
// missed) and its last progress.
type hourRead struct {
	order []read
	late  map[string]int64
	last  *backend.ReplayProgress
	// status came with the last progress; firedRequests adds up the processing-time
	// windows fired before it.
	status        *backend.Status
	firedRequests int64
}

type read struct {
	p    int32
	ev   gateway.Event
	okay bool
}

func replayHour(t *testing.T, wm watermark.Strategy) hourRead {
	t.Helper()
	var h hourRead // order is appended on the job's goroutine, read after the replay
	h.late = map[string]int64{}
	lab, err := New(Config{BrokerAddr: "127.0.0.1:0", Job: jobspec.Options{Watermarks: wm}, Consumed: func(r *kgo.Record, _ int64) {
		ev, err := gateway.ParseEvent(r.Value)
		h.order = append(h.order, read{p: r.Partition, ev: ev, okay: err == nil})
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		for u := range lab.Updates() {
			for _, r := range u.Results {
				if r.Kind == jobspec.LateResult {
					h.late[r.Record.RequestID] = r.Record.EventWindowEnd
				}
				if r.Kind == jobspec.ProcessingTimeResult && h.last == nil {
					h.firedRequests += r.Minute.Requests
				}
			}
			if u.Replay != nil && u.Replay.Done {
				h.last, h.status = u.Replay, u.Status
			}
		}
	}()
	if err := lab.Replay(context.Background(), recordedHour, jobspec.CompletedTS); err != nil {
		t.Fatal(err)
	}
	lab.Close()
	<-drained
	if h.last == nil || h.last.Reads == nil {
		t.Fatalf("the replay's last progress reports no reads: %+v", h.last)
	}
	return h
}

// recompute works out from the order the job read the events what Reads reports: each
// partition's records and largest timestamp, the largest lead, and the late records
// whose window their own partition's events had not closed (by request id).
func (h hourRead) recompute() (records, maxTS map[int32]int64, lead jobspec.Lead, ahead map[string]bool, judged int) {
	records, maxTS, ahead = map[int32]int64{}, map[int32]int64{}, map[string]bool{}
	halves := map[string]int{}
	var events int64
	for _, r := range h.order {
		if !r.okay {
			continue
		}
		events++
		// A request's late record is judged as its second half arrives, before the
		// job takes that half's timestamp in.
		if halves[r.ev.RequestID]++; halves[r.ev.RequestID] == 2 {
			if end, ok := h.late[r.ev.RequestID]; ok {
				judged++
				if end > maxTS[r.p] {
					ahead[r.ev.RequestID] = true
				}
			}
		}
		records[r.p]++
		if old, ok := maxTS[r.p]; !ok || r.ev.TS > old {
			maxTS[r.p] = r.ev.TS
		}
		var top int64
		topP := int32(-1)
		for p, m := range maxTS {
			if topP < 0 || m > top || m == top && p < topP {
				top, topP = m, p
			}
		}
		if by := top - maxTS[r.p]; by > lead.By {
			lead = jobspec.Lead{Ahead: topP, Behind: r.p, By: by, Read: events}
		}
	}
	return records, maxTS, lead, ahead, judged
}

// TestAReplayReportsHowUnevenlyItReadThePartitions replays the recorded hour as fast as
// the broker serves it and checks what the replay's last progress says of its reading
// (each partition's records and largest timestamp, the largest lead of one partition over
// another, and the late records only that lead made late) against a recomputation from
// the records in the order the job read them.
func TestAReplayReportsHowUnevenlyItReadThePartitions(t *testing.T) {
	h := replayHour(t, watermark.Strategy{})
	got := *h.last.Reads
	records, maxTS, want, ahead, judged := h.recompute()
	if got.Max.By != want.By || got.Max.Behind != want.Behind || got.Max.Read != want.Read {
		t.Errorf("largest lead %+v, recomputed %+v", got.Max, want)
	}
	if got.Late != int64(len(h.late)) || judged != len(h.late) || got.AheadLate != int64(len(ahead)) {
		t.Errorf("late %d (%d only because of a lead), recomputed %d judged of %d, %d because of a lead", got.Late, got.AheadLate, judged, len(h.late), len(ahead))
	}
	for _, pr := range got.Partitions {
		if pr.Records != records[pr.Partition] || pr.MaxTS != maxTS[pr.Partition] {
			t.Errorf("partition %d read %+v, recomputed %d records up to %d", pr.Partition, pr, records[pr.Partition], maxTS[pr.Partition])
		}
	}
	// The Done comes with the status as it stands: the open processing-time windows and
	// those fired before hold every request the job assembled.
	if h.status == nil {
		t.Fatal("the replay's Done came without a status")
	}
	open := int64(0)
	for _, r := range h.status.Open {
		if r.Window == jobspec.ProcessingTimeResult {
			open += r.Minute.Requests
		}
	}
	if open+h.firedRequests != h.status.Job.Records {
		t.Errorf("with the Done the processing-time windows hold %d+%d requests, the job assembled %d",
			h.firedRequests, open, h.status.Job.Records)
	}
	// Every request of the hour is assembled, except those a half of which the assembler
	// forgot: a lead of more than its 10 minutes, which a loaded machine sometimes reads.
	// Each such request lost at least one half, so at most Forgotten requests are missing.
	const hour = 71641
	if job := h.status.Job; job.Records > hour || job.Records < hour-job.Forgotten || job.Forgotten == 0 && job.Records != hour {
		t.Errorf("the job assembled %d of the hour's %d requests and forgot %d halves", job.Records, hour, job.Forgotten)
	}
	t.Logf("largest lead %.1f s of partition %d over %d; %d late, %d only because of it; %d first halves forgotten",
		float64(got.Max.By)/1000, got.Max.Ahead, got.Max.Behind, got.Late, got.AheadLate, h.status.Job.Forgotten)
}

// TestWithWatermarksAtTheSourceNoRecordALeadMadeLateIsLate is what LateWhy tells the
// learner: a replay after the parse drops records as late that only another partition's
// lead made late; the same hour replayed with watermarks per partition on the source
// drops none of them, and none at all that its own reading judges late by a lead.
func TestWithWatermarksAtTheSourceNoRecordALeadMadeLateIsLate(t *testing.T) {
	_, _, _, ahead, _ := replayHour(t, watermark.Strategy{}).recompute()
	src := replayHour(t, watermark.Strategy{At: watermark.Source})
	for id := range src.late {
		if ahead[id] {
			t.Errorf("%s, late after the parse only because of a lead, is late at the source too", id)
		}
	}
	if r := src.last.Reads; r.AheadLate != 0 {
		t.Errorf("at the source %d records were late because of a lead", r.AheadLate)
	}
	t.Logf("after the parse %d records were late only because of a lead; at the source %d were late", len(ahead), len(src.late))
}

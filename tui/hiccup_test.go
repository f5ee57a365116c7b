package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

// hiccupStatus is gw-1 held with left to go and held events.
func hiccupStatus(now int64, left time.Duration, held int) *backend.Status {
	s := status(now, now-1000)
	s.Instances[1].Hiccup, s.Instances[1].HiccupLeft, s.Instances[1].Held = true, left, held
	return s
}

func TestHiccupCountsDownInTheHeader(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: hiccupStatus(at("00:52"), 23*time.Second+400*time.Millisecond, 140)})
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "HICCUP 24s left, 140 held")
	fb.Send(backend.Update{Status: hiccupStatus(at("00:53"), 22*time.Second+400*time.Millisecond, 152)})
	waitFor(t, tm, "HICCUP 23s left, 152 held")
	_, view := finalView(t, tm)
	teatest.RequireEqualOutput(t, []byte(view))
}

func TestInjectPicksAnInstanceAndMarkPutsALineInBothPanes(t *testing.T) {
	script := courseScript()
	fb := fakebackend.New(script[0], script[1])
	tm := start(t, fb, Config{Hiccup: 35 * time.Second}, 80, 24)
	waitFor(t, tm, "09:59", "running")
	fb.Send(backend.Update{Status: status(at("00:40"), at("00:39.8"))})
	waitFor(t, tm, "10:00:39.800")

	press(tm, "i")
	waitFor(t, tm, "hiccup of 35s on", "[gw-1]", "[at :40, in 15 s")
	press(tm, "down")
	waitFor(t, tm, "[now]")
	press(tm, "enter")
	waitFor(t, tm, "hiccup on gw-1 for 35s")
	press(tm, "m")
	waitFor(t, tm, "marked")
	for _, u := range script[2:] {
		fb.Send(u)
	}
	waitFor(t, tm, "02:01.500")
	fm, view := finalView(t, tm)
	teatest.RequireEqualOutput(t, []byte(view))

	calls := fb.Called("Inject")
	if len(calls) != 1 || calls[0].Instance != "gw-1" || calls[0].Duration != 35*time.Second {
		t.Fatalf("Inject calls = %+v", calls)
	}
	if !strings.Contains(view, "── hiccup gw-1 10:00:40 ───────────────│── hiccup gw-1 10:00:40 ─") {
		t.Errorf("the mark is not in both panes:\n%s", view)
	}
	if !fm.sess.Done("4.2") {
		t.Error("4.2 is not ticked after a hiccup and a differing minute")
	}
}

func TestPickerDigitAndEscape(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))})
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "running", "10:00:09.000")
	press(tm, "i")
	waitFor(t, tm, "[gw-1]")
	press(tm, "esc")
	press(tm, "i")
	press(tm, "2")
	waitFor(t, tm, "[gw-2]")
	press(tm, "n")
	press(tm, "enter")
	waitFor(t, tm, "hiccup on gw-2")
	finalView(t, tm)
	if c := fb.Called("Inject"); len(c) != 1 || c[0].Instance != "gw-2" {
		t.Errorf("Inject calls = %+v", c)
	}
}

func TestThePickersDefaultPlansTheCoursesHiccupAtSecond40(t *testing.T) {
	clock := newTestClock(time.UnixMilli(at("00:25")))
	fb := fakebackend.New(backend.Update{Status: status(at("00:25"), at("00:24"))})
	tm := start(t, fb, Config{Clock: clock}, 160, 48)
	waitFor(t, tm, "running")
	press(tm, "i")
	waitFor(t, tm, "[at the next :40, in 15 s, so the hold crosses a minute as in the course]")
	press(tm, "enter")
	waitFor(t, tm, "gw-1 6.7 req/s hiccup at 10:00:40, in 15 s", "hiccup on gw-1 at 10:00:40 for 35s: the hold crosses a minute, as in the course")
	clock.Set(time.UnixMilli(at("00:33")))
	waitFor(t, tm, "hiccup at 10:00:40, in 7 s")
	if c := fb.Called("Inject"); len(c) != 0 {
		t.Fatalf("the hiccup started before :40: %+v", c)
	}
	clock.Set(time.UnixMilli(at("00:40")))
	waitFor(t, tm, "hiccup on gw-1 for 35s")
	fm, view := finalView(t, tm)
	if c := fb.Called("Inject"); len(c) != 1 || c[0].Instance != "gw-1" || c[0].Duration != DefaultHiccup {
		t.Errorf("Inject calls = %+v", c)
	}
	if fm.planned != nil || strings.Contains(view, "hiccup at") {
		t.Errorf("the plan is still shown after the hiccup started:\n%s", view)
	}
}

func TestAPlannedHiccupLessThanTenSecondsAwayWaitsForTheNextMinute(t *testing.T) {
	clock := newTestClock(time.UnixMilli(at("00:35")))
	fb := fakebackend.New(backend.Update{Status: status(at("00:35"), at("00:34"))})
	tm := start(t, fb, Config{Clock: clock}, 80, 24)
	waitFor(t, tm, "running")
	press(tm, "i")
	waitFor(t, tm, "[at :40, in 65 s: the hold crosses a minute, as in the course]")
	press(tm, "enter")
	waitFor(t, tm, "hiccup at 10:01:40, in 65 s")
	press(tm, "q")
	tm.FinalModel(t, teatest.WithFinalTimeout(60*time.Second))
	if c := fb.Called("Inject"); len(c) != 0 {
		t.Errorf("quitting started the planned hiccup: %+v", c)
	}
}

// TestTheMarkNamesTheHoldsOwnStart: the injection is noted at the status before the
// hold began (10:00:39.900 here), the run's hiccup at the first status that shows it
// (10:00:40.100); the walk's mark said 13:36:39 beside "held 13:36:40–13:37:15". The mark
// names the run's start of the hold.
func TestTheMarkNamesTheHoldsOwnStart(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: status(at("00:39.9"), at("00:39.8"))})
	tm := start(t, fb, Config{Hiccup: 35 * time.Second}, 160, 48)
	waitFor(t, tm, "10:00:39.800")
	press(tm, "i")
	waitFor(t, tm, "hiccup of 35s on")
	press(tm, "down")
	waitFor(t, tm, "[now]")
	press(tm, "enter")
	waitFor(t, tm, "hiccup on gw-1 for 35s")
	fb.Send(backend.Update{Status: held(status(at("00:40.1"), at("00:40")))})
	waitFor(t, tm, "10:00:40.000")
	press(tm, "m")
	waitFor(t, tm, `marked "hiccup gw-1 10:00:40"`)
}

// TestThePickersDefaultStaysClearOfARestartsCatchUpMinute: the job came back at 10:02:10
// after x and re-read its backlog, which processing time bills to 10:02. At 10:02:25 the
// next :40 (10:02:40) would hold gw-1 in that minute, so the default is 10:03:40, and
// the picker and the status say why.
func TestThePickersDefaultStaysClearOfARestartsCatchUpMinute(t *testing.T) {
	clock := newTestClock(time.UnixMilli(at("02:25")))
	st := status(at("02:25"), at("02:20"))
	st.Job.Events = 2400
	fb := fakebackend.New(
		backend.Update{Status: status(at("02:00"), at("01:59")), Results: []jobspec.Result{fired(jobspec.ProcessingTimeResult, "acme", 1, 0.5, 5)}},
		backend.Update{Run: 2, Restarted: &backend.Restart{Run: 2, Cause: backend.CauseKill, Reason: "job restarted with empty state", At: at("02:10")}},
		backend.Update{Run: 2, Status: st})
	tm := start(t, fb, Config{Clock: clock}, 160, 48)
	waitFor(t, tm, "10:02:25")
	press(tm, "i")
	waitFor(t, tm, "[at the next :40, in 75 s, clear of 10:02's catch-up, so the hold crosses a minute as in the course]")
	press(tm, "enter")
	waitFor(t, tm, "hiccup on gw-1 at 10:03:40 for 35s: the hold crosses a minute, as in the course, and begins after 10:02, the minute run 2 re-read")
	waits := clock.Waits()
	clock.Set(time.UnixMilli(at("02:40")))
	// The plan has seen 10:02:40 once it waits again: had it started the hiccup, it
	// would have called Inject instead.
	waitUntil(t, func() bool { return clock.Waits() > waits })
	if c := fb.Called("Inject"); len(c) != 0 {
		t.Fatalf("the hiccup started in the catch-up minute: %+v", c)
	}
	clock.Set(time.UnixMilli(at("03:40")))
	waitFor(t, tm, "hiccup on gw-1 for 35s")
	finalView(t, tm)
	if c := fb.Called("Inject"); len(c) != 1 || c[0].Instance != "gw-1" {
		t.Errorf("Inject calls = %+v", c)
	}
}

// TestAPlanWithTheGeneratorOffSaysSoInTheStatusLine: the status line warns that the hold
// would hold nothing, in place of when it starts, which the log keeps.
func TestAPlanWithTheGeneratorOffSaysSoInTheStatusLine(t *testing.T) {
	cfg := Config{Clock: newTestClock(time.UnixMilli(at("00:25")))}
	log := logTo(&cfg)
	m := New(fakebackend.New(), cfg)
	defer m.cancel()
	st := status(at("00:25"), at("00:24"))
	st.Generator = false
	m, _ = m.apply(backend.Update{Status: st})
	mm, _ := m.plan("gw-1", 35*time.Second)
	if got := mm.(Model).status; !strings.HasPrefix(got, "hiccup on gw-1 planned at 10:00:40, but the generator is off") {
		t.Errorf("the status line says %q", got)
	}
	if !strings.Contains(log.String(), "hiccup on gw-1 at 10:00:40 for 35s: the hold crosses a minute") {
		t.Errorf("the log lacks when the hold starts:\n%s", log)
	}
}

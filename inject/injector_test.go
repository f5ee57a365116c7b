package inject

import (
	"context"
	"errors"
	"github.com/labtui/labtui/internal/testkit"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pipeDialer dials in-memory connections whose far ends swallow what is written; they
// are closed at cleanup.
func pipeDialer(t *testing.T) func(context.Context, string, string) (net.Conn, error) {
	return func(context.Context, string, string) (net.Conn, error) {
		near, far := net.Pipe()
		go io.Copy(io.Discard, far)
		t.Cleanup(func() { far.Close() })
		return near, nil
	}
}

func newTestInjector(t *testing.T) (*Injector, *testkit.ManualClock) {
	clock := testkit.NewManualClock(time.Unix(1795946400, 0))
	return New(3, WithClock(clock), withBaseDialer(pipeDialer(t))), clock
}

type heldCounts map[int]int64

func (h heldCounts) InFlight(instance int) int64 { return h[instance] }

func TestAHiccupDropsConnectionsAndRefusesDialsUntilItEnds(t *testing.T) {
	testkit.CheckGoroutines(t)
	in, clock := newTestInjector(t)
	ctx := t.Context()
	c1, err := in.Dialer(1)(ctx, "tcp", "broker:9092")
	if err != nil {
		t.Fatal(err)
	}
	c0, err := in.Dialer(0)(ctx, "tcp", "broker:9092")
	if err != nil {
		t.Fatal(err)
	}
	defer c0.Close()

	if _, err := in.Start(1, 35*time.Second); err != nil {
		t.Fatal(err)
	}

	if _, err := c1.Write([]byte("produce")); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("writing on gw-1's connection after the hiccup began = %v, want it closed", err)
	}
	if _, err := c0.Write([]byte("produce")); err != nil {
		t.Errorf("gw-0's connection was disturbed by gw-1's hiccup: %v", err)
	}
	_, err = in.Dialer(1)(ctx, "tcp", "broker:9092")
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "dial" || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("dial during the hiccup = %v, want a refused dial", err)
	}
	if !strings.Contains(err.Error(), "broker:9092") {
		t.Errorf("refusal %q does not name the broker", err)
	}

	state := in.State(heldCounts{1: 42})
	if s := state[1]; !s.On || s.Left != 35*time.Second || s.Held != 42 || s.Dropped != 1 || s.Refused != 1 {
		t.Errorf("gw-1 state = %+v, want on, 35s left, 42 held, 1 dropped, 1 refused", s)
	}
	if s := state[0]; s.On || s.Dropped != 0 {
		t.Errorf("gw-0 state = %+v, want off and untouched", s)
	}

	clock.Advance(35 * time.Second)
	c, err := in.Dialer(1)(ctx, "tcp", "broker:9092")
	if err != nil {
		t.Fatalf("dial after the hiccup ended: %v", err)
	}
	c.Close()
	if s := in.State(nil)[1]; s.On || s.Left != 0 {
		t.Errorf("gw-1 state after the hiccup = %+v, want off", s)
	}
}

func TestStopEndsAHiccupEarly(t *testing.T) {
	in, clock := newTestInjector(t)
	if _, err := in.Start(2, time.Minute); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	if s := in.State(nil)[2]; !s.On || s.Left != 59*time.Second {
		t.Fatalf("state = %+v, want on with 59s left", s)
	}
	if err := in.stop(2); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Dialer(2)(t.Context(), "tcp", "b:1"); err != nil {
		t.Errorf("dial after Stop: %v", err)
	}
	if s := in.State(nil)[2]; s.On || !s.Until.Equal(clock.Now()) {
		t.Errorf("state after Stop = %+v, want off, ended now", s)
	}
	if e := in.Ended(); len(e) != 1 || e[0].Stopped != 59*time.Second ||
		e[0].String() != "hiccup ended on gw-2 at "+hms(clock.Now())+" (held 1s, stopped 59s early): its producer reconnects and sends what it held" {
		t.Errorf("ended %+v %v", e, e)
	}
}

func TestUnknownInstancesAndBadDurationsAreRefusedInPlainWords(t *testing.T) {
	in, _ := newTestInjector(t)
	if _, err := in.Start(3, time.Second); err == nil || !strings.Contains(err.Error(), "gw-3 does not exist: the gateway instances are gw-0 … gw-2") {
		t.Errorf("Start(3) = %v", err)
	}
	if _, err := in.Start(0, 0); err == nil || !strings.Contains(err.Error(), "positive") {
		t.Errorf("Start(0, 0) = %v", err)
	}
	if err := in.Run(t.Context(), time.Now(), []Hiccup{{Instance: 5, At: 0, For: time.Second}}, nil); err == nil {
		t.Error("Run accepted a plan naming gw-5")
	}
}

func TestRunStartsEachHiccupWhenItsTimeComes(t *testing.T) {
	testkit.CheckGoroutines(t)
	in, clock := newTestInjector(t)
	plan, err := ParseHiccups([]string{"gw-2@20s+5s", "gw-1@10s+35s"})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- in.Run(t.Context(), clock.Now(), plan, nil) }()

	testkit.Eventually(t, "Run waits for gw-1's start", func() bool { return clock.Sleeping() == 1 })
	clock.Advance(10 * time.Second)
	testkit.Eventually(t, "gw-1's hiccup is on", func() bool { return in.State(nil)[1].On })
	testkit.Eventually(t, "Run waits for gw-2's start", func() bool { return clock.Sleeping() == 1 })
	if in.State(nil)[2].On {
		t.Fatal("gw-2's hiccup started 10 s early")
	}
	clock.Advance(10 * time.Second)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	s := in.State(nil)
	if !s[2].On || s[2].Left != 5*time.Second || !s[1].On || s[1].Left != 25*time.Second {
		t.Errorf("state at 20 s = %+v", s)
	}
}

func TestRunReturnsWhenItsContextEnds(t *testing.T) {
	testkit.CheckGoroutines(t)
	in, clock := newTestInjector(t)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- in.Run(ctx, clock.Now(), []Hiccup{{Instance: 0, At: time.Hour, For: time.Second}}, nil)
	}()
	testkit.Eventually(t, "Run waits", func() bool { return clock.Sleeping() == 1 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run after cancel = %v", err)
	}
}

// TestAHiccupOnASecondStartsAtTheFirstSuchSecondAtLeastMinLeadAfterTheStart is the
// course's hold, 10:00:40 to 10:01:15, scheduled from a run that starts at any moment.
func TestAHiccupOnASecondStartsAtTheFirstSuchSecondAtLeastMinLeadAfterTheStart(t *testing.T) {
	h := Hiccup{Instance: 1, OnSecond: true, Second: 40, For: 35 * time.Second}
	cases := map[string]string{
		"10:00:00":     "10:00:40",
		"10:00:29.999": "10:00:40",
		"10:00:30":     "10:00:40", // exactly MinLead before
		"10:00:30.001": "10:01:40",
		"10:00:55":     "10:01:40",
	}
	for from, want := range cases {
		start, _ := time.Parse("15:04:05.999", from)
		if got := h.StartsAt(start).Format("15:04:05.000"); got != want+".000" {
			t.Errorf("from %s: starts at %s, want %s", from, got, want)
		}
	}
	rel := Hiccup{Instance: 1, At: 50 * time.Second, For: time.Second}
	start, _ := time.Parse("15:04:05", "10:00:55")
	if got := rel.StartsAt(start).Format("15:04:05"); got != "10:01:45" {
		t.Errorf("a relative hiccup starts at %s", got)
	}
}

func TestParseHiccup(t *testing.T) {
	good := map[string]Hiccup{
		"gw-1@40s+35s":    {Instance: 1, At: 40 * time.Second, For: 35 * time.Second},
		"gw-0@0s+1m":      {Instance: 0, At: 0, For: time.Minute},
		" gw-2@1m30s ":    {Instance: 2, At: 90 * time.Second, For: defaultDuration},
		"gw-10@50s+500ms": {Instance: 10, At: 50 * time.Second, For: 500 * time.Millisecond},
		"gw-1@:40+35s":    {Instance: 1, OnSecond: true, Second: 40, For: 35 * time.Second},
		"gw-0@:00":        {Instance: 0, OnSecond: true, Second: 0, For: defaultDuration},
	}
	for spec, want := range good {
		got, err := ParseHiccup(spec)
		if err != nil || got != want {
			t.Errorf("ParseHiccup(%q) = %+v, %v; want %+v", spec, got, err, want)
		}
	}
	for _, h := range good {
		if back, err := ParseHiccup(h.String()); err != nil || back != h {
			t.Errorf("%+v written as %q reads back as %+v, %v", h, h.String(), back, err)
		}
	}
	if s := (Hiccup{Instance: 1, OnSecond: true, Second: 5, For: 35 * time.Second}).String(); s != "gw-1@:05+35s" {
		t.Errorf("String() = %q", s)
	}
	bad := map[string]string{
		"gw-1":          "does not say when it starts",
		"gateway1@40s":  "names no instance",
		"gw-1@40+35s":   `no valid start time "40"`,
		"gw-1@-5s":      "no valid start time",
		"gw-1@40s+":     "no valid duration",
		"gw-1@40s+0s":   "no valid duration",
		"gw-1@40s+soon": "no valid duration",
		"gw-1@:60+35s":  `no valid second ":60"`,
		"gw-1@:-1":      "no valid second",
		"gw-1@:4o":      "no valid second",
	}
	for spec, want := range bad {
		_, err := ParseHiccup(spec)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "write it as gw-1@40s+35s") {
			t.Errorf("ParseHiccup(%q) = %v, want an error saying %q and showing the form", spec, err, want)
		}
	}
	plan, err := ParseHiccups([]string{"gw-2@50s,gw-0@10s+5s", "gw-1@30s"})
	if err != nil || len(plan) != 3 || plan[0].Instance != 0 || plan[1].Instance != 1 || plan[2].Instance != 2 {
		t.Errorf("ParseHiccups = %v, %v; want three hiccups in start order", plan, err)
	}
}

// TestALaterHiccupNeverShortensAnEarlierOne is issue 16's case: gw-1 held for 30 s, then
// 5 s in a 10 s hiccup on the same instance. The hold still ends at 30 s, and the log
// line says so; a later hiccup that reaches past it extends it. Ended tells of the one
// end, once, with the whole hold.
func TestALaterHiccupNeverShortensAnEarlierOne(t *testing.T) {
	in, clock := newTestInjector(t)
	t0 := clock.Now()
	first, err := in.Start(1, 30*time.Second)
	if err != nil || first.Joined || !first.Until.Equal(t0.Add(30*time.Second)) {
		t.Fatalf("first hold %+v, %v", first, err)
	}
	clock.Advance(5 * time.Second)
	second, err := in.Start(1, 10*time.Second)
	if err != nil || !second.Joined || !second.Until.Equal(t0.Add(30*time.Second)) {
		t.Fatalf("second hold %+v, %v: want it to join the first, ending at +30s", second, err)
	}
	if got, want := second.String(), "hiccup on gw-1 for 10s joins the one on since "+hms(t0)+", which lasts longer: still held until "+hms(t0.Add(30*time.Second)); got != want {
		t.Errorf("log line %q\nwant     %q", got, want)
	}
	clock.Advance(20 * time.Second) // +25s: the second hiccup's own end has passed
	if s := in.State(nil)[1]; !s.On || s.Left != 5*time.Second {
		t.Fatalf("at +25s state %+v, want on with 5s left", s)
	}
	if e := in.Ended(); len(e) != 0 {
		t.Fatalf("ended at +25s: %v", e)
	}
	third, _ := in.Start(1, 20*time.Second) // to +45s, past the +30s end
	if !third.Joined || !third.Until.Equal(t0.Add(45*time.Second)) || !third.Before.Equal(t0.Add(30*time.Second)) {
		t.Fatalf("third hold %+v", third)
	}
	if got, want := third.String(), "hiccup on gw-1 for 20s joins the one on since "+hms(t0)+" and extends it: held until "+hms(t0.Add(45*time.Second))+" (was "+hms(t0.Add(30*time.Second))+")"; got != want {
		t.Errorf("log line %q\nwant     %q", got, want)
	}
	clock.Advance(20 * time.Second) // +45s
	e := in.Ended()
	if len(e) != 1 || e[0].Instance != 1 || !e[0].Since.Equal(t0) || !e[0].Until.Equal(t0.Add(45*time.Second)) {
		t.Fatalf("ended %+v", e)
	}
	if got, want := e[0].String(), "hiccup ended on gw-1 at "+hms(t0.Add(45*time.Second))+" (held 45s): its producer reconnects and sends what it held"; got != want {
		t.Errorf("end line %q\nwant     %q", got, want)
	}
	if e := in.Ended(); len(e) != 0 {
		t.Errorf("the end was told twice: %v", e)
	}
	fresh, _ := in.Start(1, time.Second)
	if fresh.Joined || fresh.String() != "hiccup on gw-1 for 1s, until "+hms(clock.Now().Add(time.Second)) {
		t.Errorf("a hiccup after the end: %+v %q", fresh, fresh)
	}
}

func hms(t time.Time) string { return t.Format("15:04:05") }

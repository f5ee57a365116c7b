package watermark

import (
	"testing"
	"time"
)

func TestAnOmittedIntervalIsFlinksDefaultAndOffIsNone(t *testing.T) {
	for _, c := range []struct {
		interval, period time.Duration
	}{{0, DefaultInterval}, {Off, 0}, {50 * time.Millisecond, 50 * time.Millisecond}} {
		s := Strategy{Interval: c.interval}
		if got := s.Period(); got != c.period {
			t.Errorf("Interval %v: period %v, want %v", c.interval, got, c.period)
		}
		if got := s.WithDefaults().Period(); got != c.period {
			t.Errorf("Interval %v with defaults: period %v, want %v", c.interval, got, c.period)
		}
	}
	if (Strategy{}).WithDefaults() != (Strategy{Interval: DefaultInterval}) {
		t.Errorf("an omitted interval and the default one do not compare equal")
	}
}

func TestNameIsTheJobsCode(t *testing.T) {
	for s, want := range map[Strategy]string{
		{}:                                 "for_monotonous_timestamps()",
		{At: Source}:                       "for_monotonous_timestamps() per partition at the source",
		{OutOfOrderness: 40 * time.Second}: "for_bounded_out_of_orderness(40 s)",
		{OutOfOrderness: 1234 * time.Millisecond, At: Source}: "for_bounded_out_of_orderness(1.234 s) per partition at the source",
	} {
		if got := s.Name(); got != want {
			t.Errorf("%+v: %q, want %q", s, got, want)
		}
	}
}

func TestValidateRefusesWhatFlinkWouldInOneSentence(t *testing.T) {
	for _, ok := range []Strategy{{}, {Interval: Off}, {At: Source, Idleness: 30 * time.Second, Partitions: 3}} {
		if err := ok.Validate(); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}
	for _, c := range []struct {
		s    Strategy
		want string
	}{
		{Strategy{OutOfOrderness: -time.Second}, "out-of-orderness must not be negative, got -1s"},
		{Strategy{Interval: -200 * time.Millisecond}, "watermark interval must not be negative, got -200ms"},
		{Strategy{At: Source, Idleness: -time.Second}, "idleness must not be negative, got -1s"},
		{Strategy{Interval: 1500 * time.Microsecond}, "watermark interval must be whole milliseconds, as Flink counts them, got 1.5ms"},
		{Strategy{Idleness: time.Second}, "idleness needs watermarks at the source (--watermarks source): after the parse one generator sees every partition, so no partition can be left out"},
		{Strategy{Partitions: -1}, "partitions must not be negative, got -1"},
	} {
		if err := c.s.Validate(); err == nil || err.Error() != c.want {
			t.Errorf("%+v: %v, want %q", c.s, err, c.want)
		}
	}
}

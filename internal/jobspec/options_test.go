package jobspec

import (
	"testing"
	"time"

	"github.com/labtui/labtui/internal/watermark"
)

func TestUnsetTakesTheDefaultAndZeroStaysZero(t *testing.T) {
	d := Options{}.WithDefaults()
	if d.ForgetAfter != Ms(DefaultForgetAfter) || d.Watermarks.Interval != watermark.DefaultInterval || d.WindowSize != Minute {
		t.Fatalf("defaults %+v", d)
	}
	z := Options{ForgetAfter: Ms(0), Watermarks: watermark.Strategy{Interval: watermark.Off}}.WithDefaults()
	if z.ForgetAfter != Ms(0) || z.Watermarks.Interval != watermark.Off {
		t.Fatalf("zero became %s and %s", z.ForgetAfter, z.Watermarks.Interval)
	}
	if s := (Millis{}).String() + " " + Ms(0).String() + " " + Ms(200).String(); s != "unset 0s 200ms" {
		t.Fatalf("strings %q", s)
	}
}

func TestNegativeOptionsAreRefusedInOneSentence(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{ForgetAfter: Ms(-1)}, "forget-after must not be negative, got -1ms"},
		{Options{Watermarks: watermark.Strategy{Interval: -200 * time.Millisecond}}, "watermark interval must not be negative, got -200ms"},
		{Options{Watermarks: watermark.Strategy{OutOfOrderness: -5 * time.Millisecond}}, "out-of-orderness must not be negative, got -5ms"},
		{Options{WindowSize: -1}, "window size must not be negative, got -1 ms"},
	} {
		if err := c.o.Validate(); err == nil || err.Error() != c.want {
			t.Errorf("Validate(%+v) = %v, want %q", c.o, err, c.want)
		}
	}
}

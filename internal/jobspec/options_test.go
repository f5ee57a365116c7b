package jobspec

import "testing"

func TestUnsetTakesTheDefaultAndZeroStaysZero(t *testing.T) {
	d := Options{}.WithDefaults()
	if d.ForgetAfter != Ms(DefaultForgetAfter) || d.Watermarks.Interval != Ms(DefaultWatermarkInterval) || d.WindowSize != Minute {
		t.Fatalf("defaults %+v", d)
	}
	z := Options{ForgetAfter: Ms(0), Watermarks: Watermarks{Interval: Ms(0)}}.WithDefaults()
	if z.ForgetAfter != Ms(0) || z.Watermarks.Interval != Ms(0) {
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
		{Options{Watermarks: Watermarks{Interval: Ms(-200)}}, "watermark interval must not be negative, got -200ms"},
		{Options{Watermarks: Watermarks{OutOfOrderness: -5}}, "out-of-orderness must not be negative, got -5 ms"},
		{Options{WindowSize: -1}, "window size must not be negative, got -1 ms"},
	} {
		if err := c.o.Validate(); err == nil || err.Error() != c.want {
			t.Errorf("Validate(%+v) = %v, want %q", c.o, err, c.want)
		}
	}
}

package inject

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labtui/labtui/generator"
)

// Hiccup is one planned fault: instance Instance is cut off from Kafka At after the
// start of the run, For that long. An OnSecond hiccup starts instead at second Second of
// a minute on the clock, the first such second at least MinLead after the start: the
// course's hold, 10:00:40 to 10:01:15, is gw-1@:40+35s, and a hold that crosses a minute
// boundary is what makes the two windows disagree.
type Hiccup struct {
	Instance int
	At       time.Duration
	OnSecond bool
	Second   int
	For      time.Duration
}

// minLead is how long after the start an OnSecond hiccup starts at the earliest, so the
// generator has been producing and the job reading for a while.
const minLead = 10 * time.Second

// StartsAt returns when the hiccup starts in a run that started at start.
func (h Hiccup) StartsAt(start time.Time) time.Time {
	if !h.OnSecond {
		return start.Add(h.At)
	}
	t := start.Truncate(time.Minute).Add(time.Duration(h.Second) * time.Second)
	for t.Before(start.Add(minLead)) {
		t = t.Add(time.Minute)
	}
	return t
}

// String writes the hiccup in the flag syntax ParseHiccup reads, such as gw-1@40s+35s or
// gw-1@:40+35s.
func (h Hiccup) String() string {
	if h.OnSecond {
		return fmt.Sprintf("%s@:%02d+%v", generator.InstanceName(h.Instance), h.Second, h.For)
	}
	return fmt.Sprintf("%s@%v+%v", generator.InstanceName(h.Instance), h.At, h.For)
}

// ParseHiccup reads a hiccup written as INSTANCE@START+DURATION, such as gw-1@40s+35s
// (gw-1, 40 s after the start, for 35 s) or gw-1@:40+35s (gw-1, at second 40 of a minute,
// the first one at least MinLead after the start, for 35 s). Without +DURATION the hiccup
// lasts DefaultDuration. Errors are plain sentences that show the expected form.
func ParseHiccup(spec string) (Hiccup, error) {
	const form = "write it as gw-1@40s+35s (40 s after the start) or gw-1@:40+35s (at second 40 of a minute): the instance, when it starts, and for how long"
	name, when, ok := strings.Cut(strings.TrimSpace(spec), "@")
	if !ok {
		return Hiccup{}, fmt.Errorf("hiccup %q does not say when it starts; %s", spec, form)
	}
	instance, err := generator.ParseInstance(name)
	if err != nil {
		return Hiccup{}, fmt.Errorf("hiccup %q names no instance (%v); %s", spec, err, form)
	}
	at, length, hasLength := strings.Cut(when, "+")
	h := Hiccup{Instance: instance, For: defaultDuration}
	if sec, aligned := strings.CutPrefix(at, ":"); aligned {
		n, err := strconv.Atoi(sec)
		if err != nil || n < 0 || n > 59 {
			return Hiccup{}, fmt.Errorf("hiccup %q has no valid second %q, such as :40 (0 to 59); %s", spec, at, form)
		}
		h.OnSecond, h.Second = true, n
	} else if h.At, err = time.ParseDuration(at); err != nil || h.At < 0 {
		return Hiccup{}, fmt.Errorf("hiccup %q has no valid start time %q, such as 40s or 1m30s; %s", spec, at, form)
	}
	if hasLength {
		if h.For, err = time.ParseDuration(length); err != nil || h.For <= 0 {
			return Hiccup{}, fmt.Errorf("hiccup %q has no valid duration %q, such as 35s; %s", spec, length, form)
		}
	}
	return h, nil
}

// ParseHiccups reads several hiccups, each given as ParseHiccup reads them or as a
// comma-separated list of them, and returns them in order of At (Run orders them by when
// they start, which for an OnSecond hiccup depends on the start).
func ParseHiccups(specs []string) ([]Hiccup, error) {
	var plan []Hiccup
	for _, spec := range specs {
		for part := range strings.SplitSeq(spec, ",") {
			if strings.TrimSpace(part) == "" {
				continue
			}
			h, err := ParseHiccup(part)
			if err != nil {
				return nil, err
			}
			plan = append(plan, h)
		}
	}
	slices.SortStableFunc(plan, func(a, b Hiccup) int { return cmp.Compare(a.At, b.At) })
	return plan, nil
}

// Check reports the first hiccup of plan that names an instance the injector does not
// serve.
func (in *Injector) Check(plan []Hiccup) error {
	for _, h := range plan {
		if err := in.check(h.Instance); err != nil {
			return fmt.Errorf("hiccup %v: %w", h, err)
		}
	}
	return nil
}

// Run starts each hiccup of plan when its time after start comes on the injector's
// clock, in order of start time, and returns when the last has started or ctx is done.
// A plan that names an instance the injector does not serve fails before anything
// starts. started, which may be nil, is told of each hiccup as it starts, with the
// hold it made.
func (in *Injector) Run(ctx context.Context, start time.Time, plan []Hiccup, started func(Hiccup, Hold)) error {
	if err := in.Check(plan); err != nil {
		return err
	}
	return Schedule(ctx, in.clock, start, plan, func(h Hiccup) error {
		hold, err := in.Start(h.Instance, h.For)
		if err != nil {
			return err
		}
		if started != nil {
			started(h, hold)
		}
		return nil
	})
}

// Schedule calls begin for each hiccup of plan when its time after start comes on
// clock, in order of start time, and returns when the last has begun, begin failed, or
// ctx is done. It is the one scheduler of hiccups: Run uses it with the injector, the
// TUI with a backend's Inject.
func Schedule(ctx context.Context, clock generator.Clock, start time.Time, plan []Hiccup, begin func(Hiccup) error) error {
	plan = slices.Clone(plan)
	slices.SortStableFunc(plan, func(a, b Hiccup) int { return a.StartsAt(start).Compare(b.StartsAt(start)) })
	for _, h := range plan {
		if err := clock.SleepUntil(ctx, h.StartsAt(start)); err != nil {
			return fmt.Errorf("hiccup plan stopped before %v: %w", h, err)
		}
		if err := begin(h); err != nil {
			return err
		}
	}
	return nil
}

package inject

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/labtui/labtui/generator"
)

// Hiccup is one planned fault: instance Instance is cut off from Kafka At after the
// start of the run, For that long.
type Hiccup struct {
	Instance int
	At       time.Duration
	For      time.Duration
}

// String writes the hiccup in the flag syntax ParseHiccup reads, such as gw-1@40s+35s.
func (h Hiccup) String() string {
	return fmt.Sprintf("%s@%v+%v", generator.InstanceName(h.Instance), h.At, h.For)
}

// ParseHiccup reads a hiccup written as INSTANCE@START+DURATION, such as gw-1@40s+35s
// (gw-1, 40 s after the start, for 35 s). Without +DURATION the hiccup lasts
// DefaultDuration. Errors are plain sentences that show the expected form.
func ParseHiccup(spec string) (Hiccup, error) {
	const form = "write it as gw-1@40s+35s: the instance, when it starts after the run begins, and for how long"
	name, when, ok := strings.Cut(strings.TrimSpace(spec), "@")
	if !ok {
		return Hiccup{}, fmt.Errorf("hiccup %q does not say when it starts; %s", spec, form)
	}
	instance, err := generator.ParseInstance(name)
	if err != nil {
		return Hiccup{}, fmt.Errorf("hiccup %q names no instance (%v); %s", spec, err, form)
	}
	at, length, hasLength := strings.Cut(when, "+")
	h := Hiccup{Instance: instance, For: DefaultDuration}
	if h.At, err = time.ParseDuration(at); err != nil || h.At < 0 {
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
// comma-separated list of them, and returns them in order of start time.
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
// starts.
func (in *Injector) Run(ctx context.Context, start time.Time, plan []Hiccup) error {
	if err := in.Check(plan); err != nil {
		return err
	}
	plan = slices.Clone(plan)
	slices.SortStableFunc(plan, func(a, b Hiccup) int { return cmp.Compare(a.At, b.At) })
	for _, h := range plan {
		if err := in.clock.SleepUntil(ctx, start.Add(h.At)); err != nil {
			return fmt.Errorf("hiccup plan stopped before %v: %w", h, err)
		}
		if err := in.Start(h.Instance, h.For); err != nil {
			return err
		}
	}
	return nil
}

package inject

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Stall is one planned stalled partition: the gateway fleet stops writing to Partition
// (generator.Generator.StallPartition) At after the start of the run, or at second Second
// of a minute (OnSecond, as a Hiccup), For that long. With watermarks at the source the
// partition holds the source's watermark back and every event-time window waits, until
// it sends again or --idleness leaves it out.
type Stall struct {
	Partition int32
	At        time.Duration
	OnSecond  bool
	Second    int
	For       time.Duration
}

// StartsAt returns when the stall starts in a run that started at start, as a hiccup
// with the same timing does.
func (s Stall) StartsAt(start time.Time) time.Time {
	return Hiccup{At: s.At, OnSecond: s.OnSecond, Second: s.Second}.StartsAt(start)
}

// String writes the stall in the flag syntax ParseStall reads, such as 2@:30+2m.
func (s Stall) String() string {
	if s.OnSecond {
		return fmt.Sprintf("%d@:%02d+%v", s.Partition, s.Second, s.For)
	}
	return fmt.Sprintf("%d@%v+%v", s.Partition, s.At, s.For)
}

// parseStall reads a stall written as PARTITION@START+DURATION, such as 2@40s+2m
// (partition 2, 40 s after the start, for 2 minutes) or 2@:30+2m (at second 30 of a
// minute, the first one at least MinLead after the start). The duration is required.
// Errors are plain sentences that show the expected form.
func parseStall(spec string) (Stall, error) {
	const form = "write it as 2@40s+2m (partition 2, 40 s after the start, for 2 minutes) or 2@:30+2m (at second 30 of a minute)"
	p, when, ok := strings.Cut(strings.TrimSpace(spec), "@")
	if !ok {
		return Stall{}, fmt.Errorf("stall %q does not say when it starts; %s", spec, form)
	}
	n, err := strconv.ParseInt(p, 10, 32)
	if err != nil || n < 0 {
		return Stall{}, fmt.Errorf("stall %q names no partition %q (a number from 0); %s", spec, p, form)
	}
	at, length, hasLength := strings.Cut(when, "+")
	if !hasLength {
		return Stall{}, fmt.Errorf("stall %q does not say for how long; %s", spec, form)
	}
	s := Stall{Partition: int32(n)}
	if sec, aligned := strings.CutPrefix(at, ":"); aligned {
		v, err := strconv.Atoi(sec)
		if err != nil || v < 0 || v > 59 {
			return Stall{}, fmt.Errorf("stall %q has no valid second %q, such as :30 (0 to 59); %s", spec, at, form)
		}
		s.OnSecond, s.Second = true, v
	} else if s.At, err = time.ParseDuration(at); err != nil || s.At < 0 {
		return Stall{}, fmt.Errorf("stall %q has no valid start time %q, such as 40s or 1m30s; %s", spec, at, form)
	}
	if s.For, err = time.ParseDuration(length); err != nil || s.For <= 0 {
		return Stall{}, fmt.Errorf("stall %q has no valid duration %q, such as 2m; %s", spec, length, form)
	}
	return s, nil
}

// ParseStalls reads several stalls, each as ParseStall reads them or as a comma-separated
// list of them.
func ParseStalls(specs []string) ([]Stall, error) {
	var plan []Stall
	for _, spec := range specs {
		for part := range strings.SplitSeq(spec, ",") {
			if strings.TrimSpace(part) == "" {
				continue
			}
			s, err := parseStall(part)
			if err != nil {
				return nil, err
			}
			plan = append(plan, s)
		}
	}
	return plan, nil
}

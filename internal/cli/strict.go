package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"
	"github.com/labtui/labtui/internal/broker"
)

// wholeMilliseconds refuses a duration with a part finer than a millisecond: labtui's
// clocks, timers and windows count whole milliseconds, as Flink's do, so 999us would
// be 0 (periodic watermarks off) and 1ns no idleness at all, silently. A negative
// duration is left to the option's own rule, which refuses it as negative.
func wholeMilliseconds(f *pflag.Flag, describe func(string) string) error {
	if f.Value.Type() != "duration" {
		return nil
	}
	d, err := time.ParseDuration(f.Value.String())
	if err != nil || d < 0 || d%time.Millisecond == 0 {
		return nil
	}
	return fmt.Errorf("%s is not accepted: labtui counts time in whole milliseconds, as Flink does, so give a duration such as %s or %s",
		describe(f.Value.String()), d.Truncate(time.Millisecond), (d + time.Millisecond).Truncate(time.Millisecond))
}

// otherVariables are the LABTUI_* variables that are no option of labtui's own: read
// by labtui otherwise (LABTUI_CONFIG), by the lab's scripts and the PyFlink job they
// start, and by its tests. A variable set beside them is misspelt.
var otherVariables = []string{
	"LABTUI_CONFIG", "LABTUI_BIN", "LABTUI_CACHE", "LABTUI_LONG_TESTS", "LABTUI_HEAPPROFILE",
	"LABTUI_REAL_KAFKA", "LABTUI_REAL_CLUSTER", "LABTUI_TEST_KAFKA", "LABTUI_TEST_BE_LABTUI", "LABTUI_TEST_HOLD_STATE_DIR",
	"LABTUI_FAKE_DOCKER_DIR", "LABTUI_SIMULATED", "LABTUI_REPLAYS",
	"LABTUI_KAFKA_VERSION", "LABTUI_KAFKA_PORT", "LABTUI_KAFKA_CP", "LABTUI_BROKER_DIR", "LABTUI_FLINK_VERSION",
	"LABTUI_CONNECTOR_VERSION", "LABTUI_CONNECTOR_JAR", "LABTUI_PYFLINK_VERSION", "LABTUI_JARS", "LABTUI_JOB_JVM_ARGS",
	"LABTUI_PYTHON", "LABTUI_PYTHON_EXECUTABLE", "LABTUI_FAIRNESS_TOPIC",
	// compose/docker-compose.yml's build network, and backend-compose.sh's cache and mirror.
	"LABTUI_BUILD_NETWORK", "LABTUI_COMPOSE_CACHE", "LABTUI_DEBIAN_MIRROR",
	// The PyFlink job's own settings (job/gateway_meter.py's env_default names; a test
	// checks every one of them is known).
	"LABTUI_BOOTSTRAP", "LABTUI_GROUP_ID", "LABTUI_WATERMARK_INTERVAL_MS", "LABTUI_OUT_OF_ORDERNESS_MS",
	"LABTUI_IDLENESS_MS", "LABTUI_FORGET_AFTER_MS", "LABTUI_BUNDLE_SIZE", "LABTUI_BUNDLE_TIME_MS",
	"LABTUI_PYTHON_EXECUTION_MODE", "LABTUI_PYTHON_WORKERS", "LABTUI_RESULTS_TOPIC", "LABTUI_RUN_ID", "LABTUI_STARTING_OFFSETS",
}

// unknownVariables refuses a LABTUI_* variable that is set (not empty) and is neither an
// option of a labtui command nor one of otherVariables: a misspelt one would otherwise
// be ignored, and the lab would run without the setting the learner meant.
func unknownVariables(options []string, environ []string) error {
	known := map[string]bool{}
	for _, v := range otherVariables {
		known[v] = true
	}
	for _, o := range options {
		known[envName(o)] = true
	}
	var set []string
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "LABTUI_") && value != "" {
			set = append(set, name)
		}
	}
	first, hint, rest := unknown(set, known)
	if first == "" {
		return nil
	}
	more := ""
	if len(rest) > 0 {
		more = fmt.Sprintf(", and so are %s", strings.Join(rest, ", "))
	}
	return fmt.Errorf("%s is set, but it is no setting of labtui's%s%s: unset it, or spell it as LABTUI_ and an option's long name in capitals, - as _ (labtui COMMAND --help lists them)",
		first, hint, more)
}

// checkFaults refuses a hiccup of an instance the lab does not have, or a stall of a
// partition its topic does not have, before anything starts: found only when the fault
// was due, they stopped a lab that had started and written its state.
func (a *app) checkFaults(o labOptions) error {
	hiccups, err := inject.ParseHiccups(o.Faults.Hiccups)
	if err != nil {
		return err
	}
	n := o.Lab.Instances
	for i, h := range hiccups {
		if h.Instance >= n {
			return fmt.Errorf("%s is not accepted: the lab's gateway instances are gw-0 … %s (%s %d), so give one of them",
				a.faultSource("hiccup", o.Faults.Hiccups, i), generator.InstanceName(n-1), a.sourceOf("instances", "--instances"), n)
		}
	}
	stalls, err := inject.ParseStalls(o.Faults.Stalls)
	if err != nil {
		return err
	}
	for i, st := range stalls {
		if st.Partition >= broker.DefaultPartitions {
			return fmt.Errorf("%s is not accepted: the lab's topic has partitions 0 to %d, so give one of them",
				a.faultSource("stall-partition", o.Faults.Stalls, i), broker.DefaultPartitions-1)
		}
	}
	return nil
}

// sourceOf names where option key was set ("--instances", "LABTUI_INSTANCES", …), or
// def when it was left at its default.
func (a *app) sourceOf(key, def string) string {
	if w, ok := a.where[key]; ok {
		return w
	}
	return def
}

// faultSource is the i-th fault of the option key as the learner gave it, with where it
// came from: "--hiccup gw-9@1s+1s", "hiccup: gw-9@1s+1s in FILE".
func (a *app) faultSource(key string, specs []string, i int) string {
	var parts []string
	for _, spec := range specs {
		for part := range strings.SplitSeq(spec, ",") {
			if strings.TrimSpace(part) != "" {
				parts = append(parts, strings.TrimSpace(part))
			}
		}
	}
	spec := ""
	if i < len(parts) {
		spec = parts[i]
	}
	w := a.sourceOf(key, "--"+key)
	switch {
	case strings.HasPrefix(w, "--"):
		return w + " " + spec
	case strings.HasPrefix(w, "LABTUI_"):
		return w + "=" + spec
	default: // "key in FILE"
		name, file, _ := strings.Cut(w, " in ")
		return name + ": " + spec + " in " + file
	}
}

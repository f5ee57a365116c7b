package cli

import (
	"math"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"
	clusterlab "github.com/labtui/labtui/internal/backend/clusterplatform"
)

// rule is what one option accepts: accept ends the sentence "LABTUI_KEY=VALUE is not
// accepted: give ACCEPT", and ok says whether one value (one item of a list) is accepted, as its flag
// prints it once parsed. A nil ok accepts whatever the option's type parses.
type rule struct {
	accept string
	ok     func(string) bool
}

// rules holds every option that takes less than its type parses, by key, or by
// "COMMAND/KEY" where one command reads a key differently. Keys not listed take what
// their type parses (typeRules). An option of a few names (a choiceValue) takes only
// those: its rule only says which.
var rules = map[string]rule{
	// The job's options (replay, run, record, skew, moved, the TUI).
	"out-of-orderness":   {"a duration of 0 or more, such as 0s (for_monotonous_timestamps()), 500ms or 40s", durationAtLeast(0)},
	"watermark-interval": {"a duration of 0 or more, such as 200ms (Flink's default) or 1s; 0 turns periodic watermarks off", durationAtLeast(0)},
	"forget-after":       {"a duration of 0 or more, such as 10m (the default) or 0s (forget at the next watermark)", durationAtLeast(0)},
	"timestamp":          {accept: "completed_ts or started_ts"},
	"watermarks":         {accept: "stream (after the parse, the course's Lab 4 job) or source (per partition on the Kafka source)"},
	"idleness":           {"a duration of 0 (none) or more, such as 30s; with --watermarks source", durationAtLeast(0)},
	"format":             {accept: "text or jsonl"},
	"pace":               {accept: "recorded or fast"},
	"replay/partitions":  {"0 (what the recording says) or the topic's partition count, from 1 to 2147483647", intBetween(0, math.MaxInt32)},

	// The embedded lab.
	"rate": {"a number of requests per second above 0 and at most " + strconv.Itoa(generator.MaxLiveRate) + ", such as 20 (record --simulate makes a recording at any rate)",
		floatBetween(0, generator.MaxLiveRate)},
	"record/rate":      {"a number of requests per second above 0, such as 20 (at most " + strconv.Itoa(generator.MaxLiveRate) + " unless --simulate)", floatAbove(0)},
	"instances":        {"a whole number of gateway instances from 1 to " + strconv.Itoa(generator.MaxInstances), intBetween(1, generator.MaxInstances)},
	"tenants":          {"a comma-separated list of tenant names, such as acme,globex", nonEmpty},
	"starting-offsets": {accept: "earliest or latest"},
	"hiccup":           {"INSTANCE@AFTER+FOR, such as gw-1@40s+35s, or gw-1@:40+35s at second 40 of a minute", hiccupSpec},
	"stall-partition":  {"PARTITION@AFTER+FOR, such as 2@40s+2m, or 2@:30+2m at second 30 of a minute", stallSpec},
	"broker-addr":      {"a host:port on loopback, such as 127.0.0.1:9092, localhost:9093 or [::1]:9092 (port 0 picks a free one)", loopbackAddr},
	"backend":          {"embedded, compose, cluster or remote", oneOf("embedded", "compose", "cluster", "remote")},
	"generate-for":     {"0 (the whole run) or a positive duration such as 2m30s", durationAtLeast(0)},
	"kill-after":       {"0 (never) or a positive duration such as 3m40s", durationAtLeast(0)},
	"replay-after":     {"0 (never) or a positive duration such as 1m", durationAtLeast(0)},
	"doctor/backend":   {"compose, cluster or remote", oneOf("compose", "cluster", "remote")},
	"flink":            {"the http or https URL of Flink's REST API, such as http://127.0.0.1:8081", httpURL},
	"session":          {"1 to 40 of a-z, 0-9, '-' and '_', such as ana or class3-ana", sessionName},
	"hiccup-duration":  {"a duration of 1s or more, such as 35s", durationAtLeast(time.Second)},
	"run/duration":     {"0 (run until ctrl-c) or a positive duration such as 3m", durationAtLeast(0)},
	"record/duration":  {"a positive duration such as 1m or 1h", durationAbove(0)},
	"record/start":     {"an RFC 3339 time such as 2026-11-29T10:00:00Z", rfc3339OrEmpty},

	// feed.
	"brokers": {"bootstrap servers, comma-separated, such as 127.0.0.1:9092", nonEmpty},
	"topic":   {"a topic name, such as gateway-events", nonEmpty},
	"shift":   {"auto, 0, or a whole number of minutes such as 120m", shiftSpec},
	"lead":    {"a duration of 0 or more, such as 5s", durationAtLeast(0)},

	// diff, moved and skew.
	"sink":        {accept: "event-time or processing-time"},
	"records":     {"a whole number of records, or -1 for all", intAtLeast(-1)},
	"limit":       {"a whole number of requests, or -1 for all", intAtLeast(-1)},
	"names":       {`two names separated by a comma, such as "live run,replay"`, twoNames},
	"width":       {"a whole number of cells, 0 for $COLUMNS", intAtLeast(0)},
	"skew/hiccup": clockRule,
	"flush":       clockRule,
	"from":        clockRule,
	"to":          clockRule,
	"height":      {"a whole number of lines, 0 for $LINES", intAtLeast(0)},
}

// typeRules say what an option of each pflag type takes when rules has nothing more
// particular.
var typeRules = map[string]string{
	"duration":    "a duration such as 500ms, 40s or 2m",
	"bool":        "true or false",
	"int":         "a whole number",
	"int64":       "a whole number",
	"float64":     "a number",
	"stringSlice": "a comma-separated list",
}

// ruleFor returns the rule of the option key of the command named cmd.
func ruleFor(cmd, key string, f *pflag.Flag) rule {
	if r, ok := rules[cmd+"/"+key]; ok {
		return r
	}
	if r, ok := rules[key]; ok {
		return r
	}
	return rule{accept: typeRules[f.Value.Type()]}
}

func durationAtLeast(min time.Duration) func(string) bool {
	return func(s string) bool {
		d, err := time.ParseDuration(s)
		return err == nil && d >= min
	}
}

func durationAbove(min time.Duration) func(string) bool {
	return func(s string) bool {
		d, err := time.ParseDuration(s)
		return err == nil && d > min
	}
}

// floatBetween accepts a number above lo and at most hi.
func floatBetween(lo, hi float64) func(string) bool {
	return func(s string) bool {
		f, err := strconv.ParseFloat(s, 64)
		return err == nil && f > lo && f <= hi
	}
}

func floatAbove(min float64) func(string) bool {
	return func(s string) bool {
		f, err := strconv.ParseFloat(s, 64)
		return err == nil && f > min && !math.IsInf(f, 0)
	}
}

func intBetween(min, max int) func(string) bool {
	return func(s string) bool {
		n, err := strconv.Atoi(s)
		return err == nil && n >= min && n <= max
	}
}

func intAtLeast(min int) func(string) bool { return intBetween(min, math.MaxInt) }

func oneOf(values ...string) func(string) bool {
	return func(s string) bool {
		for _, v := range values {
			if s == v {
				return true
			}
		}
		return false
	}
}

func nonEmpty(s string) bool { return strings.TrimSpace(s) != "" }

// sessionName is a remote session's name, a part of its topics' names.
func sessionName(s string) bool { return s != "" && clusterlab.SessionName(s) == s }

func hiccupSpec(s string) bool {
	_, err := inject.ParseHiccups([]string{s})
	return err == nil
}

// loopbackAddr is what the embedded broker listens on: broker.Start's rule.
func loopbackAddr(s string) bool {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return false
	}
	n, err := strconv.Atoi(port)
	return err == nil && n >= 0 && n <= 65535 && (host == "" || host == "127.0.0.1" || host == "localhost" || host == "::1")
}

func rfc3339OrEmpty(s string) bool {
	if s == "" {
		return true
	}
	_, err := time.Parse(time.RFC3339, s)
	return err == nil
}

func shiftSpec(s string) bool {
	_, err := feedShift(s, 0, 0)
	return err == nil
}

// clockRule is skew's: a UTC clock time on the recording's first day, or RFC 3339.
var clockRule = rule{"a UTC clock time HH:MM[:SS[.mmm]] or an RFC 3339 time", func(s string) bool {
	_, err := parseClock(s, 0)
	return s == "" || err == nil
}}

func twoNames(s string) bool {
	_, err := parseNames(s)
	return err == nil
}

// httpURL accepts an http or https URL with a host.
func httpURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

func stallSpec(s string) bool {
	_, err := inject.ParseStalls([]string{s})
	return err == nil
}

package cli

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/labtui/labtui/gateway"
	"github.com/labtui/labtui/livejob"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/replay"
)

// settings is every option labtui reads, typed, settled once per command by loadConfig
// from the command line, the LABTUI_* environment and the config file. A command reads
// only the fields of its own flags; the others hold their zero values.
type settings struct {
	// where says where each option that was set came from ("--rate", "LABTUI_RATE",
	// "rate in FILE"); an option left at its flag's default is absent.
	where map[string]string
	// configFile is the config file read, "" for none.
	configFile string

	// Every command.
	StateDir    string // --state-dir, LABTUI_STATE_DIR; "" for state.Dir()
	ComposeFile string
	KeepCluster bool
	Prices      gateway.PriceTable // the config file's prices over the defaults; nil for none

	// The GatewayMeter job.
	OutOfOrderness    time.Duration
	WatermarkInterval time.Duration
	ForgetAfter       time.Duration
	Timestamp         meter.TimestampField
	WatermarksAt      meter.WatermarkSite
	Idleness          time.Duration
	Trace             bool
	Drain             bool
	// Partitions is replay's --partitions: the topic's partition count, 0 for what the
	// recording says.
	Partitions int

	// The embedded lab.
	Rate       float64
	Instances  int
	Tenants    []string
	Seed       int64
	StartAt    livejob.StartAt
	BrokerAddr string
	Hiccups    []string // run's and record's --hiccup specs, for inject.ParseHiccups
	Stalls     []string // run's --stall-partition specs, for inject.ParseStalls

	// The TUI.
	Backend        string
	HiccupDuration time.Duration
	Recording      string
	ExportDir      string
	StartGenerator bool

	// run, replay, record.
	Headless bool
	Duration time.Duration
	Format   meter.Format
	Pace     replay.Pace // replay's and feed's --pace
	Out      string      // record's recording, skew's SVG
	Simulate bool
	Start    string

	// The cluster and remote backends, doctor and cluster install.
	ClusterCache  string // --cluster-cache; "" for labcluster.DefaultCache()
	ClusterRunDir string // --cluster-run-dir; "" for a new folder in the cache
	Flink         string // --flink, the remote Flink's REST API
	Session       string // --session, the learner's name on a shared cluster
	Record        string // run --headless --record: the recording of the topic
	GenerateFor   time.Duration
	KillAfter     time.Duration
	ReplayAfter   time.Duration // run --headless: the r key at this time

	// feed.
	Brokers    string
	Topic      string
	Shift      string
	Lead       time.Duration
	ShiftedOut string

	// diff, moved, skew.
	Sink       meter.Kind
	Records    int
	Identical  bool
	Brief      bool
	Names      string
	Limit      int
	Replay     string
	Held       string
	HiccupMark string // skew's --hiccup, a clock time
	Flush      string
	From       string
	To         string
	Width      int
	Height     int
	Quiet      bool
}

// set reports whether the option key was given (on the command line, in the
// environment or in the config file) rather than left at its default.
func (s settings) set(key string) bool {
	_, ok := s.where[key]
	return ok
}

// readSettings reads the settled flags into settings. Every value was checked by
// loadConfig, so the parses here cannot fail.
func readSettings(fs *pflag.FlagSet, where map[string]string) settings {
	g := flagGetter{fs}
	s := settings{
		where: where,

		StateDir:    g.str("state-dir"),
		ComposeFile: g.str("compose-file"),
		KeepCluster: g.bool("keep-cluster"),

		OutOfOrderness:    g.duration("out-of-orderness"),
		WatermarkInterval: g.duration("watermark-interval"),
		ForgetAfter:       g.duration("forget-after"),
		Idleness:          g.duration("idleness"),
		Trace:             g.bool("trace"),
		Drain:             g.bool("drain"),
		Partitions:        g.int("partitions"),

		Rate:       g.float("rate"),
		Instances:  g.int("instances"),
		Tenants:    g.strs("tenants"),
		Seed:       g.int64("seed"),
		BrokerAddr: g.str("broker-addr"),

		Backend:        g.str("backend"),
		HiccupDuration: g.duration("hiccup-duration"),
		Recording:      g.str("recording"),
		ExportDir:      g.str("export-dir"),
		StartGenerator: g.bool("start-generator"),

		Headless: g.bool("headless"),
		Duration: g.duration("duration"),
		Out:      g.str("out"),
		Simulate: g.bool("simulate"),
		Start:    g.str("start"),

		ClusterCache:  g.str("cluster-cache"),
		ClusterRunDir: g.str("cluster-run-dir"),
		Flink:         g.str("flink"),
		Session:       g.str("session"),
		Record:        g.str("record"),
		GenerateFor:   g.duration("generate-for"),
		KillAfter:     g.duration("kill-after"),
		ReplayAfter:   g.duration("replay-after"),

		Brokers:    g.str("brokers"),
		Topic:      g.str("topic"),
		Shift:      g.str("shift"),
		Lead:       g.duration("lead"),
		ShiftedOut: g.str("shifted-out"),

		Records:   g.int("records"),
		Identical: g.bool("identical"),
		Brief:     g.bool("brief"),
		Names:     g.str("names"),
		Limit:     g.int("limit"),
		Replay:    g.str("replay"),
		Held:      g.str("held"),
		Flush:     g.str("flush"),
		From:      g.str("from"),
		To:        g.str("to"),
		Width:     g.int("width"),
		Height:    g.int("height"),
		Quiet:     g.bool("quiet"),
	}
	if fs.Lookup("stall-partition") != nil {
		s.Stalls, _ = fs.GetStringArray("stall-partition")
	}
	if f := fs.Lookup("hiccup"); f != nil {
		if f.Value.Type() == "stringArray" {
			s.Hiccups, _ = fs.GetStringArray("hiccup")
		} else {
			s.HiccupMark = f.Value.String()
		}
	}
	s.Timestamp, _ = meter.ParseTimestampField(g.str("timestamp"))
	s.WatermarksAt, _ = meter.ParseWatermarkSite(g.str("watermarks"))
	s.Format, _ = meter.ParseFormat(g.str("format"))
	s.Pace, _ = replay.ParsePace(g.str("pace"))
	if g.str("starting-offsets") == "latest" {
		s.StartAt = livejob.Latest
	}
	s.Sink = meter.EventTimeResult
	if g.str("sink") == "processing-time" {
		s.Sink = meter.ProcessingTimeResult
	}
	return s
}

// flagGetter reads a flag's value by type; a flag the command does not have reads as
// the zero value.
type flagGetter struct{ fs *pflag.FlagSet }

func (g flagGetter) str(name string) string             { v, _ := g.fs.GetString(name); return v }
func (g flagGetter) strs(name string) []string          { v, _ := g.fs.GetStringSlice(name); return v }
func (g flagGetter) bool(name string) bool              { v, _ := g.fs.GetBool(name); return v }
func (g flagGetter) int(name string) int                { v, _ := g.fs.GetInt(name); return v }
func (g flagGetter) int64(name string) int64            { v, _ := g.fs.GetInt64(name); return v }
func (g flagGetter) float(name string) float64          { v, _ := g.fs.GetFloat64(name); return v }
func (g flagGetter) duration(name string) time.Duration { v, _ := g.fs.GetDuration(name); return v }

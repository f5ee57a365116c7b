package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/livejob"
	"github.com/labtui/labtui/internal/reenact"
	"github.com/labtui/labtui/internal/watermark"
)

// option is one row of the table every option of every command is tried with: a good
// value (as text) and what the command's options then hold, and values the option
// refuses.
type option struct {
	cmd  string // "" for the bare labtui (the TUI)
	key  string
	good string
	got  func(settled) any
	want any
	bad  []string
}

var options = []option{
	// labtui, the TUI; the job's and the lab's options are checked here once.
	{"", "backend", "compose", func(s settled) any { return s.opts.(*tuiOptions).Backend }, "compose", []string{"kubernetes"}},
	{"", "broker-addr", "[::1]:9093", func(s settled) any { return s.opts.(*tuiOptions).Lab.BrokerAddr }, "[::1]:9093", []string{" ", "0.0.0.0:9092", "10.0.0.1:9092", "127.0.0.1", "127.0.0.1:99999"}},
	{"", "compose-file", "/x/compose.yml", func(s settled) any { return s.global.ComposeFile }, "/x/compose.yml", nil},
	{"", "export-dir", "/x/answers", func(s settled) any { return s.opts.(*tuiOptions).ExportDir }, "/x/answers", nil},
	{"", "forget-after", "0s", func(s settled) any { return s.opts.(*tuiOptions).Job.ForgetAfter }, time.Duration(0), []string{"-1s", "banana"}},
	{"", "hiccup-duration", "10s", func(s settled) any { return s.opts.(*tuiOptions).HiccupDuration }, 10 * time.Second, []string{"500ms", "banana"}},
	{"", "instances", "5", func(s settled) any { return s.opts.(*tuiOptions).Lab.Instances }, 5, []string{"0", "65", "many"}},
	{"", "keep-cluster", "true", func(s settled) any { return s.global.KeepCluster }, true, []string{"yes"}},
	{"", "out-of-orderness", "40s", func(s settled) any { return s.opts.(*tuiOptions).Job.Watermarks.OutOfOrderness }, 40 * time.Second, []string{"banana", "-1s", "40"}},
	{"", "rate", "50", func(s settled) any { return s.opts.(*tuiOptions).Lab.Rate }, 50.0, []string{"banana", "0", "-3", "100000", "50001"}},
	{"", "recording", "/x/hour.jsonl", func(s settled) any { return s.opts.(*tuiOptions).Recording }, "/x/hour.jsonl", nil},
	{"", "seed", "7", func(s settled) any { return s.opts.(*tuiOptions).Lab.Seed }, int64(7), []string{"seven"}},
	{"", "start-generator", "false", func(s settled) any { return s.opts.(*tuiOptions).StartGenerator }, false, []string{"nope"}},
	{"", "starting-offsets", "latest", func(s settled) any { return s.opts.(*tuiOptions).Lab.StartAt }, livejob.Latest, []string{"middle"}},
	{"", "state-dir", "/x/state", func(s settled) any { return s.global.StateDir }, "/x/state", nil},
	{"", "tenants", "acme,globex", func(s settled) any { return s.opts.(*tuiOptions).Lab.Tenants }, []string{"acme", "globex"}, []string{" "}},
	{"", "timestamp", "started_ts", func(s settled) any { return s.opts.(*tuiOptions).Job.Timestamp }, jobspec.StartedTS, []string{"ts"}},
	{"", "watermark-interval", "0s", func(s settled) any { return s.opts.(*tuiOptions).Job.Watermarks.Interval }, watermark.Off, []string{"-200ms", "-1ns"}},
	{"", "watermarks", "source", func(s settled) any { return s.opts.(*tuiOptions).Job.Watermarks.At }, watermark.Source, []string{"partition"}},
	{"", "idleness", "30s", func(s settled) any { return s.opts.(*tuiOptions).Job.Watermarks.Idleness }, 30 * time.Second, []string{"-1s", "soon"}},

	{"doctor", "backend", "cluster", func(s settled) any { return s.opts.(*doctorOptions).Backend }, "cluster", []string{"embedded", "clustr"}},
	{"doctor", "cluster-cache", "/x/cache", func(s settled) any { return s.opts.(*doctorOptions).ClusterCache }, "/x/cache", nil},
	{"doctor", "session", "class3-ana", func(s settled) any { return s.opts.(*doctorOptions).Remote.Session }, "class3-ana", []string{"Ana", "a b", strings.Repeat("a", 41)}},
	{"doctor", "flink", "http://127.0.0.1:8081", func(s settled) any { return s.opts.(*doctorOptions).Remote.Flink }, "http://127.0.0.1:8081", []string{"127.0.0.1:8081", "ftp://x"}},

	{"broker", "broker-addr", "127.0.0.1:9094", func(s settled) any { return *s.opts.(*string) }, "127.0.0.1:9094", []string{" "}},

	{"diff", "brief", "true", func(s settled) any { return s.opts.(*diffOptions).Brief }, true, []string{"quiet"}},
	{"diff", "identical", "true", func(s settled) any { return s.opts.(*diffOptions).Identical }, true, []string{"all"}},
	{"diff", "names", "live run,replay", func(s settled) any { return s.opts.(*diffOptions).Names }, "live run,replay", []string{"one"}},
	{"diff", "records", "-1", func(s settled) any { return s.opts.(*diffOptions).Records }, -1, []string{"-2", "all"}},
	{"diff", "sink", "processing-time", func(s settled) any { return s.opts.(*diffOptions).Sink }, jobspec.ProcessingTimeResult, []string{"wall-clock"}},

	{"export", "export-dir", "/x/out", func(s settled) any { return *s.opts.(*string) }, "/x/out", nil},

	{"feed", "brokers", "a:1,b:2", func(s settled) any { return s.opts.(*feedOptions).Brokers }, "a:1,b:2", []string{" "}},
	{"feed", "lead", "0s", func(s settled) any { return s.opts.(*feedOptions).Lead }, time.Duration(0), []string{"-1s"}},
	{"feed", "pace", "fast", func(s settled) any { return s.opts.(*feedOptions).Pace }, reenact.Fast, []string{"slow"}},
	{"feed", "shift", "120m", func(s settled) any { return s.opts.(*feedOptions).Shift }, "120m", []string{"90s", "later"}},
	{"feed", "shifted-out", "/x/fed.jsonl", func(s settled) any { return s.opts.(*feedOptions).ShiftedOut }, "/x/fed.jsonl", nil},
	{"feed", "topic", "t2", func(s settled) any { return s.opts.(*feedOptions).Topic }, "t2", []string{" "}},

	{"moved", "limit", "-1", func(s settled) any { return s.opts.(*movedOptions).Limit }, -1, []string{"-5"}},
	{"moved", "replay", "/x/r.jsonl", func(s settled) any { return s.opts.(*movedOptions).Replay }, "/x/r.jsonl", nil},
	{"moved", "forget-after", "0s", func(s settled) any { return s.opts.(*movedOptions).Job.ForgetAfter }, time.Duration(0), []string{"-1s"}},

	{"record", "duration", "1h", func(s settled) any { return s.opts.(*recordOptions).Duration }, time.Hour, []string{"0s", "-5s", "banana"}},
	{"record", "hiccup", "gw-1@40s+35s", func(s settled) any { return s.opts.(*recordOptions).Faults.Hiccups }, []string{"gw-1@40s+35s"}, []string{"gw-1"}},
	{"record", "out", "/x/o.jsonl", func(s settled) any { return s.opts.(*recordOptions).Out }, "/x/o.jsonl", nil},
	{"record", "simulate", "true", func(s settled) any { return s.opts.(*recordOptions).Simulate }, true, []string{"maybe"}},
	{"record", "start", "2026-11-29T10:00:00Z", func(s settled) any { return s.opts.(*recordOptions).Start }, "2026-11-29T10:00:00Z", []string{"10:00"}},

	{"replay", "drain", "true", func(s settled) any { return s.opts.(*replayOptions).Drain }, true, []string{"banana"}},
	{"replay", "format", "jsonl", func(s settled) any { return s.opts.(*replayOptions).Format }, jobspec.JSONL, []string{"xml"}},
	{"replay", "pace", "fast", func(s settled) any { return s.opts.(*replayOptions).Pace }, reenact.Fast, []string{"slow"}},
	{"replay", "partitions", "3", func(s settled) any { return s.opts.(*replayOptions).Partitions }, 3, []string{"-1", "2147483648", "three"}},
	{"replay", "trace", "true", func(s settled) any { return s.opts.(*replayOptions).Trace }, true, []string{"yes"}},
	{"replay", "out-of-orderness", "1s", func(s settled) any { return s.opts.(*replayOptions).Job.Watermarks.OutOfOrderness }, time.Second, []string{"banana"}},

	{"", "cluster-run-dir", "/x/run", func(s settled) any { return s.opts.(*tuiOptions).ClusterRunDir }, "/x/run", nil},
	{"run", "record", "/x/rec.jsonl", func(s settled) any { return s.opts.(*runOptions).Record }, "/x/rec.jsonl", nil},
	{"run", "generate-for", "2m30s", func(s settled) any { return s.opts.(*runOptions).GenerateFor }, 150 * time.Second, []string{"-1s", "soon"}},
	{"run", "kill-after", "3m40s", func(s settled) any { return s.opts.(*runOptions).KillAfter }, 220 * time.Second, []string{"-1s", "later"}},
	{"run", "replay-after", "1m", func(s settled) any { return s.opts.(*runOptions).ReplayAfter }, time.Minute, []string{"-1s", "later"}},
	{"run", "duration", "3m", func(s settled) any { return s.opts.(*runOptions).Duration }, 3 * time.Minute, []string{"-5s", "banana"}},
	{"run", "headless", "true", func(s settled) any { return s.opts.(*runOptions).Headless }, true, []string{"sure"}},
	{"run", "hiccup", "gw-1@:40+35s", func(s settled) any { return s.opts.(*runOptions).Faults.Hiccups }, []string{"gw-1@:40+35s"}, []string{"gw-9@x"}},
	{"run", "stall-partition", "2@:30+2m", func(s settled) any { return s.opts.(*runOptions).Faults.Stalls }, []string{"2@:30+2m"}, []string{"two@1s+1m", "2@40s"}},
	{"run", "format", "jsonl", func(s settled) any { return s.opts.(*runOptions).Format }, jobspec.JSONL, []string{"csv"}},
	{"run", "trace", "true", func(s settled) any { return s.opts.(*runOptions).Trace }, true, []string{"yes"}},
	{"run", "rate", "100", func(s settled) any { return s.opts.(*runOptions).Lab.Rate }, 100.0, []string{"banana", "100000"}},
	{"record", "rate", "1e9", func(s settled) any { return s.opts.(*recordOptions).Lab.Rate }, 1e9, []string{"banana", "0"}},

	{"skew", "flush", "10:01:15", func(s settled) any { return s.opts.(*skewOptions).Flush }, "10:01:15", []string{"soon"}},
	{"skew", "from", "10:01", func(s settled) any { return s.opts.(*skewOptions).From }, "10:01", []string{"ten"}},
	{"skew", "to", "10:02", func(s settled) any { return s.opts.(*skewOptions).To }, "10:02", []string{"25:99"}},
	{"skew", "hiccup", "10:00:40", func(s settled) any { return s.opts.(*skewOptions).Hiccup }, "10:00:40", []string{"ten past"}},
	{"skew", "held", "gw-1", func(s settled) any { return s.opts.(*skewOptions).Held }, "gw-1", nil},
	{"skew", "height", "10", func(s settled) any { return s.opts.(*skewOptions).Height }, 10, []string{"-1"}},
	{"skew", "width", "80", func(s settled) any { return s.opts.(*skewOptions).Width }, 80, []string{"-1", "wide"}},
	{"skew", "out", "x.svg", func(s settled) any { return s.opts.(*skewOptions).Out }, "x.svg", nil},
	{"skew", "quiet", "true", func(s settled) any { return s.opts.(*skewOptions).Quiet }, true, []string{"hush"}},
}

// TestEveryOptionFromEverySource gives each option a good value and each value it
// refuses, once on the command line, once in its LABTUI_* variable and once in the
// config file: the good one reaches the command's options, typed, with where it came from; a bad
// one is exit status 2 and one sentence that names the source, the value and what the
// option takes.
func TestEveryOptionFromEverySource(t *testing.T) {
	for _, o := range options {
		for _, src := range []string{"flag", "env", "file"} {
			name := strings.TrimSpace(o.cmd+" "+o.key) + " from the " + src
			t.Run(name+" (good)", func(t *testing.T) {
				s, code, errOut, path := settleWith(t, o, src, o.good)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				if got := o.got(s); !reflect.DeepEqual(got, o.want) {
					t.Errorf("the options hold %#v, want %#v", got, o.want)
				}
				if w, want := s.where[o.key], sourceName(o.key, src, path); w != want {
					t.Errorf("where = %q, want %q", w, want)
				}
			})
			for _, bad := range o.bad {
				t.Run(name+" ("+bad+")", func(t *testing.T) {
					_, code, errOut, path := settleWith(t, o, src, bad)
					want := valueName(o.key, src, path, bad) + " is not accepted: give " + ruleText(o.cmd, o.key)
					if code != 2 || errOut != "labtui: "+want+"\n" {
						t.Errorf("exit %d, stderr %q\nwant exit 2 and %q", code, errOut, want)
					}
				})
			}
		}
	}
}

// TestTheTableHasEveryOption fails when a command gains a flag the table above does
// not try: add a row for it (and a rule in rules.go if it takes less than its type).
func TestTheTableHasEveryOption(t *testing.T) {
	tried := map[string]bool{}
	for _, o := range options {
		tried[o.key] = true
		tried[o.cmd+"/"+o.key] = true
	}
	a := &app{}
	root := a.rootCmd()
	var missing []string
	eachCommand(root, func(c *cobra.Command) {
		name := c.Name()
		if c == root {
			name = ""
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Name == "config" || f.Name == "help" {
				return
			}
			_, own := rules[name+"/"+f.Name]
			if !tried[f.Name] || (own && !tried[name+"/"+f.Name]) {
				missing = append(missing, strings.TrimSpace(name+" --"+f.Name))
			}
		})
	})
	if len(missing) > 0 {
		sort.Strings(missing)
		t.Errorf("options no row tries: %s", strings.Join(missing, ", "))
	}
}

func TestPrecedenceFlagThenEnvironmentThenFile(t *testing.T) {
	file := "rate: 30\nseed: 3\ninstances: 4\n"
	env := map[string]string{"LABTUI_RATE": "40", "LABTUI_SEED": "5", "LABTUI_INSTANCES": ""}
	s, code, errOut, path := settleCLI(t, env, file, "run", "--rate", "50")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if lab := s.opts.(*runOptions).Lab; lab.Rate != 50 || lab.Seed != 5 || lab.Instances != 4 {
		t.Errorf("rate %v seed %v instances %v, want 50 (flag), 5 (environment), 4 (file: an empty variable is unset)", lab.Rate, lab.Seed, lab.Instances)
	}
	if s.where["rate"] != "--rate" || s.where["seed"] != "LABTUI_SEED" || s.where["instances"] != "instances in "+path {
		t.Errorf("where %v", s.where)
	}
}

func TestUnsetIsTheDefaultAndZeroIsZero(t *testing.T) {
	s, code, errOut, _ := settleCLI(t, nil, "", "replay")
	job := s.opts.(*replayOptions).Job
	_, set := s.where["forget-after"]
	if code != 0 || job.ForgetAfter != 10*time.Minute || job.Watermarks.Interval != 200*time.Millisecond || set {
		t.Fatalf("unset: exit %d %s: forget-after %v (set %v), interval %v", code, errOut, job.ForgetAfter, set, job.Watermarks.Interval)
	}
	o, err := job.options(nil)
	if err != nil || o.ForgetAfter.Or(-1) != 10*60*1000 || o.Watermarks.Period() != 200*time.Millisecond {
		t.Fatalf("unset job options %v %v: %v", o.ForgetAfter, o.Watermarks.Interval, err)
	}
	for _, src := range []string{"flag", "env", "file"} {
		o := option{cmd: "replay", key: "forget-after"}
		s, code, errOut, _ := settleWith(t, o, src, "0s")
		job := s.opts.(*replayOptions).Job
		if _, set := s.where["forget-after"]; code != 0 || job.ForgetAfter != 0 || !set {
			t.Fatalf("%s: exit %d %s: forget-after %v", src, code, errOut, job.ForgetAfter)
		}
		if o, err := job.options(nil); err != nil || !o.ForgetAfter.IsSet() || o.ForgetAfter.Or(-1) != 0 {
			t.Fatalf("%s: job options forget after %v: %v", src, o.ForgetAfter, err)
		}
	}
}

func TestConfigFileListsAndTypes(t *testing.T) {
	file := "tenants: [acme, globex]\nhiccup:\n  - gw-1@40s+35s\n  - gw-2@2m+10s\nrate: 1e2\ntrace: true\nduration: 90s\n"
	s, code, errOut, _ := settleCLI(t, nil, file, "run")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if o := s.opts.(*runOptions); !reflect.DeepEqual(o.Lab.Tenants, []string{"acme", "globex"}) || !reflect.DeepEqual(o.Faults.Hiccups, []string{"gw-1@40s+35s", "gw-2@2m+10s"}) ||
		o.Lab.Rate != 100 || !o.Trace || o.Duration != 90*time.Second {
		t.Errorf("options %+v", o)
	}
	for _, tc := range []struct{ file, want string }{
		{"duration: 90\n", "duration: 90 in PATH is not accepted: give 0 (run until ctrl-c) or a positive duration such as 3m"},
		{"rate: [1, 2]\n", "rate in PATH is a list, not one value: give a number of requests per second above 0 and at most 50000, such as 20"},
		{"rate:\n", "rate in PATH has no value: give a number of requests per second above 0 and at most 50000, such as 20"},
		{"trace: yes\n", "trace: yes in PATH is not accepted: give true or false"},
		{"out-of-ordernes: 40s\n", `config file PATH has the unknown key "out-of-ordernes" (did you mean out-of-orderness?): its keys are the long flag names of labtui's commands (labtui COMMAND --help) and prices`},
		{"rte: 1\nfoo: 2\n", `config file PATH has the unknown key "foo" and 1 more (rte): its keys are`},
		{"prices:\n  flat-10c: [1]\n", "prices.flat-10c in PATH must be [input_usd_per_1k, output_usd_per_1k]"},
	} {
		_, code, errOut, path := settleCLI(t, nil, tc.file, "run")
		if want := strings.ReplaceAll(tc.want, "PATH", path); code != 2 || !strings.HasPrefix(errOut, "labtui: "+want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q, want 2 and %q", tc.file, code, errOut, want)
		}
	}
}

// TestBadValuesAsAUserTypesThem runs the commands of issue 16's report to the end: each
// stops at once with exit status 2 and the one sentence.
func TestBadValuesAsAUserTypesThem(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{"LABTUI_OUT_OF_ORDERNESS": "banana"}, []string{"replay", seedBurst}, "LABTUI_OUT_OF_ORDERNESS=banana is not accepted"},
		{map[string]string{"LABTUI_TRACE": "yes"}, []string{"replay", seedBurst}, "LABTUI_TRACE=yes is not accepted: give true or false"},
		{map[string]string{"LABTUI_DRAIN": "banana"}, []string{"replay", seedBurst}, "LABTUI_DRAIN=banana is not accepted: give true or false"},
		{map[string]string{"LABTUI_DURATION": "banana"}, []string{"run", "--headless"}, "LABTUI_DURATION=banana is not accepted: give 0 (run until ctrl-c)"},
		{nil, []string{"run", "--headless", "--duration", "-5s"}, "--duration -5s is not accepted: give 0 (run until ctrl-c)"},
		{map[string]string{"LABTUI_RATE": "banana"}, []string{"run", "--headless"}, "LABTUI_RATE=banana is not accepted: give a number of requests per second above 0"},
		{nil, []string{"replay", "--trace=maybe", seedBurst}, "--trace maybe is not accepted: give true or false"},
		{nil, []string{"replay", "--no-such-flag", seedBurst}, "unknown flag: --no-such-flag"},
	} {
		for k, v := range tc.env {
			t.Setenv(k, v)
		}
		code, out, errOut := runCLI(t, tc.args...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, "labtui: "+tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v %v: exit %d, stdout %q, stderr %q, want 2 and %q", tc.env, tc.args, code, out, errOut, tc.want)
		}
		for k := range tc.env {
			os.Unsetenv(k)
		}
	}
}

// settleWith settles option o given value from src ("flag", "env" or "file").
func settleWith(t *testing.T, o option, src, value string) (settled, int, string, string) {
	t.Helper()
	var args []string
	if o.cmd != "" {
		args = append(args, o.cmd)
	}
	var env map[string]string
	file := ""
	switch src {
	case "flag":
		args = append(args, "--"+o.key+"="+value)
	case "env":
		env = map[string]string{envName(o.key): value}
	case "file":
		file = o.key + ": " + yamlScalar(value) + "\n"
	}
	return settleCLI(t, env, file, args...)
}

// settled is what loadConfig left for the command that ran: its options, those every
// command has, and where each option that was set came from.
type settled struct {
	opts   any
	global globalOptions
	where  map[string]string
}

// settleCLI runs labtui with args, the variables env and a config file holding file
// (none for ""), but every command stops after loadConfig, leaving its options. It
// returns them, the exit code, stderr and the config file's path.
func settleCLI(t *testing.T, env map[string]string, file string, args ...string) (settled, int, string, string) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for k, v := range env {
		t.Setenv(k, v)
	}
	path := ""
	if file != "" {
		path = filepath.Join(t.TempDir(), "config.yaml")
		if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append([]string{"--config", path}, args...)
	}
	var out, errb bytes.Buffer
	a := &app{stdout: &out, stderr: &errb}
	root := a.rootCmd()
	var got settled
	eachCommand(root, func(c *cobra.Command) {
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(*cobra.Command, []string) error {
			got = settled{opts: a.options[c], global: a.global, where: a.where}
			return nil
		}
	})
	code := a.execute(context.Background(), root, args)
	return got, code, errb.String(), path
}

func eachCommand(c *cobra.Command, fn func(*cobra.Command)) {
	fn(c)
	for _, sub := range c.Commands() {
		eachCommand(sub, fn)
	}
}

func sourceName(key, src, path string) string {
	switch src {
	case "flag":
		return "--" + key
	case "env":
		return envName(key)
	}
	return key + " in " + path
}

func valueName(key, src, path, value string) string {
	switch src {
	case "flag":
		return "--" + key + " " + quoteIfNeeded(value)
	case "env":
		return envName(key) + "=" + quoteIfNeeded(value)
	}
	return key + ": " + quoteIfNeeded(value) + " in " + path
}

func ruleText(cmd, key string) string {
	if r, ok := rules[cmd+"/"+key]; ok {
		return r.accept
	}
	if r, ok := rules[key]; ok {
		return r.accept
	}
	a := &app{}
	root := a.rootCmd()
	c := root
	if cmd != "" {
		c, _, _ = root.Find([]string{cmd})
	}
	f := c.Flags().Lookup(key)
	if f == nil {
		f = c.PersistentFlags().Lookup(key)
	}
	return typeRules[f.Value.Type()]
}

// yamlScalar writes value as a YAML scalar: plain where YAML reads it back as the same
// text or number, double-quoted where spaces would be lost.
func yamlScalar(value string) string {
	if strings.TrimSpace(value) != value || value == "" || strings.ContainsAny(value[:1], "[{&*!|>'\"%@`") {
		return strconv.Quote(value)
	}
	return value
}

// TestAnOptionOfAFewNamesTakesOnlyThose: the parsers behind --timestamp, --watermarks,
// --format, --pace, --sink and --starting-offsets read "" as the default, but an empty
// value given on the command line or in the file is refused, as any other name is.
func TestAnOptionOfAFewNamesTakesOnlyThose(t *testing.T) {
	for _, o := range []option{{cmd: "replay", key: "timestamp"}, {cmd: "replay", key: "watermarks"}, {cmd: "replay", key: "format"},
		{cmd: "feed", key: "pace"}, {cmd: "diff", key: "sink"}, {cmd: "run", key: "starting-offsets"}} {
		for _, src := range []string{"flag", "file"} {
			_, code, errOut, path := settleWith(t, o, src, "")
			want := valueName(o.key, src, path, "") + " is not accepted: give " + ruleText(o.cmd, o.key)
			if code != 2 || errOut != "labtui: "+want+"\n" {
				t.Errorf("%s --%s \"\" from the %s: exit %d, %q; want 2 and %q", o.cmd, o.key, src, code, errOut, want)
			}
		}
	}
}

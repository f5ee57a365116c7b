package cli

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/livejob"
	"github.com/labtui/labtui/internal/watermark"
)

// Each command's options are a struct whose fields its flags are bound to. loadConfig
// settles every flag once, from the command line, the LABTUI_* environment or the
// config file, so when a command runs its struct holds the settled, typed values; an
// option a command does not have is no field of its struct. Groups of flags that
// several commands share (the job's, the embedded lab's, the real labs') are structs of
// their own with a bind method.

// globalOptions are what every command has: the root's persistent flags, and the
// config file's prices.
type globalOptions struct {
	StateDir    string // "" for state.Dir()
	ComposeFile string
	KeepCluster bool
	// Prices is the config file's prices over the defaults; nil for none.
	Prices gateway.PriceTable
}

func (o *globalOptions) bind(f *pflag.FlagSet) {
	f.StringVar(&o.StateDir, "state-dir", "", "where answers autosave and the log goes (default $XDG_STATE_HOME/labtui)")
	f.StringVar(&o.ComposeFile, "compose-file", "", "the compose lab's docker-compose.yml (default: the one built into labtui)")
	f.BoolVar(&o.KeepCluster, "keep-cluster", false, "leave the compose lab running when labtui quits")
	f.MarkHidden("compose-file")
	f.MarkHidden("keep-cluster")
}

// jobFlags configure the GatewayMeter job. Its watermark flags are bound to the
// strategy's own fields.
type jobFlags struct {
	Watermarks  watermark.Strategy
	Timestamp   jobspec.TimestampField
	ForgetAfter time.Duration
}

func (o *jobFlags) bind(f *pflag.FlagSet) {
	f.DurationVar(&o.Watermarks.OutOfOrderness, "out-of-orderness", 0, "bounded out-of-orderness; 0 is for_monotonous_timestamps()")
	f.Var(interval(&o.Watermarks.Interval), "watermark-interval", "periodic watermark interval (pipeline.auto-watermark-interval); 0 disables periodic watermarks")
	f.Var(choice(&o.Timestamp, jobspec.CompletedTS, jobspec.StartedTS), "timestamp", "the record field event time reads: completed_ts or started_ts")
	f.Var(choice(&o.Watermarks.At, watermark.Stream, watermark.Source), "watermarks", "where watermarks are generated: stream (after the parse, the course's Lab 4 job) or source (on the Kafka source, one generator per partition, module 5)")
	f.DurationVar(&o.Watermarks.Idleness, "idleness", 0, "with --watermarks source: withIdleness, a partition that brings nothing for this long (processing time) leaves the minimum until it sends again; 0 is none")
	f.DurationVar(&o.ForgetAfter, "forget-after", 10*time.Minute, "how long (event time) the RequestAssembler keeps a half request; 0 forgets it at the next watermark at or past its timestamp")
}

// options is the job's configuration, with prices (nil for the defaults). Each flag
// has the course's default, so every value here is set: 0 is zero. loadConfig refused
// negatives, naming where they came from.
func (o jobFlags) options(prices gateway.PriceTable) (jobspec.Options, error) {
	m := jobspec.Options{Prices: prices, Watermarks: o.Watermarks, Timestamp: o.Timestamp,
		ForgetAfter: jobspec.Ms(o.ForgetAfter.Milliseconds())}
	return m, m.Validate()
}

// labFlags configure the embedded lab: its broker, its generator and where the job
// starts reading.
type labFlags struct {
	BrokerAddr string
	Rate       float64
	Instances  int
	Tenants    []string
	Seed       int64
	StartAt    livejob.StartAt
}

func (o *labFlags) bind(f *pflag.FlagSet) {
	bindBrokerAddr(f, &o.BrokerAddr)
	def := generator.Defaults()
	f.Float64Var(&o.Rate, "rate", def.Rate, "requests per second over all gateway instances")
	f.IntVar(&o.Instances, "instances", def.Instances, "gateway instances, gw-0 … gw-N-1")
	f.StringSliceVar(&o.Tenants, "tenants", def.Tenants, "tenants requests are spread over")
	f.Int64Var(&o.Seed, "seed", def.Seed, "seed of the generator's schedule")
	f.Var(choice(&o.StartAt, livejob.Earliest, livejob.Latest), "starting-offsets", "where the job starts (and restarts) reading: earliest or latest")
}

func bindBrokerAddr(f *pflag.FlagSet, p *string) {
	f.StringVar(p, "broker-addr", broker.DefaultAddr, "where the embedded broker listens (loopback only)")
}

// fleet is the generator's configuration, not yet validated.
func (o labFlags) fleet() generator.Config {
	gen := generator.Defaults()
	gen.Rate = o.Rate
	gen.Instances = o.Instances
	gen.Tenants = o.Tenants
	gen.Seed = o.Seed
	return gen
}

// faultFlags are the faults a lab is given at its start: run's and record's --hiccup
// specs, for inject.ParseHiccups, and run's --stall-partition specs, for
// inject.ParseStalls.
type faultFlags struct {
	Hiccups []string
	Stalls  []string
}

// remoteFlags are the addresses of a cluster that runs, for --backend remote.
type remoteFlags struct {
	Brokers string
	Flink   string // Flink's REST API
	Session string // the learner's name on a shared cluster
}

func (o *remoteFlags) bind(f *pflag.FlagSet) {
	f.StringVar(&o.Brokers, "brokers", "", "--backend remote: the Kafka bootstrap address, HOST:PORT")
	f.StringVar(&o.Flink, "flink", "", "--backend remote: the URL of Flink's REST API and web UI, such as http://127.0.0.1:8081")
	f.StringVar(&o.Session, "session", "", "--backend remote: this learner's name on a cluster a class shares: the lab's topic is gateway-events-NAME (default: login-host)")
}

// bindClusterCache binds --cluster-cache: "" for localcluster.DefaultCache().
func bindClusterCache(f *pflag.FlagSet, p *string) {
	f.StringVar(p, "cluster-cache", "", "where the cluster's install lives (default $LABTUI_CLUSTER_CACHE, else ~/.cache/labtui/cluster)")
}

// intervalValue is --watermark-interval, bound to a watermark.Strategy's Interval. It
// reads and prints a duration as pflag's duration flag does, so the option's rules,
// messages and help are a duration's; the flag's 0 (Flink's: no periodic watermarks)
// sets watermark.Off, since a zero Interval means the default.
type intervalValue struct {
	p     *time.Duration
	given time.Duration
}

// interval binds p to --watermark-interval and sets *p to the flag's default,
// watermark.DefaultInterval.
func interval(p *time.Duration) *intervalValue {
	*p = watermark.DefaultInterval
	return &intervalValue{p: p, given: watermark.DefaultInterval}
}

func (v *intervalValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	v.given, *v.p = d, d
	if d == 0 {
		*v.p = watermark.Off
	}
	return nil
}

func (v *intervalValue) String() string { return v.given.String() }

// Type is "duration", as pflag's help and loadConfig's millisecond rule read it.
func (v *intervalValue) Type() string { return "duration" }

// choiceValue is a flag that takes one of a few values, each by the name its String
// method gives: it is parsed once, as it is set, into the bound field.
type choiceValue[T interface {
	comparable
	fmt.Stringer
}] struct {
	p      *T
	values []T
}

// choice binds p to a flag that takes one of values, and sets *p to the first, the
// flag's default.
func choice[T interface {
	comparable
	fmt.Stringer
}](p *T, values ...T) *choiceValue[T] {
	*p = values[0]
	return &choiceValue[T]{p: p, values: values}
}

func (c *choiceValue[T]) Set(s string) error {
	for _, v := range c.values {
		if v.String() == s {
			*c.p = v
			return nil
		}
	}
	return fmt.Errorf("%q is not one of the option's values", s)
}

func (c *choiceValue[T]) String() string { return (*c.p).String() }

// Type is "string", as pflag's help writes the value of a flag that takes text.
func (c *choiceValue[T]) Type() string { return "string" }

package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/labtui/labtui/backend/embedded"
	"github.com/labtui/labtui/broker"
	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"
)

func (a *app) runCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run the live lab: broker, gateway instances, the job, and faults",
		Long: "run starts the embedded lab: a Kafka-protocol broker on loopback, the gateway instances\n" +
			"producing to it, and the GatewayMeter job consuming it on the wall clock. With --headless\n" +
			"it prints both print sinks and the late side output, and on exit (--duration, ctrl-c or\n" +
			"SIGTERM) it stops everything and prints a summary whose numbers must balance.",
		Args: cobra.NoArgs,
		RunE: a.runRun,
	}
	f := cmd.Flags()
	f.Bool("headless", false, "print results instead of opening the terminal UI")
	f.Duration("duration", 0, "stop after this long (0: run until ctrl-c)")
	f.StringArray("hiccup", nil, "schedule a broker hiccup: INSTANCE@AFTER+FOR, e.g. gw-1@40s+35s, or at a second of the minute, e.g. gw-1@:40+35s as in the course (repeatable)")
	f.StringArray("stall-partition", nil, "stall a partition: the fleet writes nothing to it: PARTITION@AFTER+FOR, e.g. 2@40s+2m or 2@:30+2m (repeatable); with --watermarks source it freezes event time, --idleness unfreezes it")
	f.String("format", "text", "text (print-sink lines) or jsonl")
	f.Bool("trace", false, "also print a trace line per assembled record")
	addTUIFlags(cmd)
	addLabFlags(cmd)
	addJobFlags(cmd)
	return cmd
}

// addLabFlags adds the flags of the embedded lab: broker, generator, job source.
func addLabFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	addBrokerFlags(cmd)
	def := generator.Defaults()
	f.Float64("rate", def.Rate, "requests per second over all gateway instances")
	f.Int("instances", def.Instances, "gateway instances, gw-0 … gw-N-1")
	f.StringSlice("tenants", def.Tenants, "tenants requests are spread over")
	f.Int64("seed", def.Seed, "seed of the generator's schedule")
	f.String("starting-offsets", "earliest", "where the job starts (and restarts) reading: earliest or latest")
}

func addBrokerFlags(cmd *cobra.Command) {
	cmd.Flags().String("broker-addr", broker.DefaultAddr, "where the embedded broker listens (loopback only)")
}

// fleetConfig is the generator's configuration from the lab flags, not yet validated.
func (a *app) fleetConfig() generator.Config {
	gen := generator.Defaults()
	gen.Rate = a.cfg.Rate
	gen.Instances = a.cfg.Instances
	gen.Tenants = a.cfg.Tenants
	gen.Seed = a.cfg.Seed
	return gen
}

// labConfig reads the embedded lab's configuration.
func (a *app) labConfig() (embedded.Config, error) {
	gen := a.fleetConfig()
	if err := gen.Validate(); err != nil {
		return embedded.Config{}, err
	}
	opts, err := a.jobOptions()
	if err != nil {
		return embedded.Config{}, err
	}
	opts.Trace = a.cfg.Trace
	hiccups, err := inject.ParseHiccups(a.cfg.Hiccups)
	if err != nil {
		return embedded.Config{}, err
	}
	stalls, err := inject.ParseStalls(a.cfg.Stalls)
	if err != nil {
		return embedded.Config{}, err
	}
	return embedded.Config{BrokerAddr: a.cfg.BrokerAddr, Generator: gen, Job: opts, StartAt: a.cfg.StartAt, Hiccups: hiccups, Stalls: stalls}, nil
}

func (a *app) runRun(cmd *cobra.Command, _ []string) error {
	if !a.cfg.Headless {
		return a.runTUI(cmd, nil)
	}
	format := a.cfg.Format
	cfg, err := a.labConfig()
	if err != nil {
		return err
	}
	// The printed lines are the product of a headless run: when the reader is slow, the
	// job waits for it rather than drop a window result.
	cfg.Lossless = true
	lab, err := embedded.New(cfg)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	if err := lab.Start(ctx); err != nil {
		return brokerError(err)
	}
	// On ctrl-c or SIGTERM the run stops within a second even when nothing reads its
	// output: what the reader has not taken by then is counted, and the summary says so.
	stopHolding := context.AfterFunc(ctx, lab.Abandon)
	defer stopHolding()
	// The session keeps the run's evidence for `labtui export`, as the TUI would.
	lab4, err := a.headlessSession(ctx)
	if err != nil {
		lab.Close()
		return err
	}
	out := printUpdates(lab.Updates(), a.stdout, a.stderr, format, lab4)
	if err := lab.SetGenerator(true); err != nil {
		lab.Close()
		out.wait(time.Second)
		return err
	}
	if d := a.cfg.Duration; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	<-ctx.Done()
	fmt.Fprintln(a.stderr, "# stopping: generator, in-flight produces, job, broker")
	err = lab.Close()
	// At the end of --duration the output is the product: wait for it. After ctrl-c,
	// give it a second.
	var limit time.Duration
	if cmd.Context().Err() != nil {
		limit = time.Second
	}
	sum := lab.Summary()
	missing := out.wait(limit)
	// What never fired is printed as pending, as replay prints it.
	missing += out.extra(sum.Open)
	fmt.Fprintf(a.stderr, "# %d %s pending at the stop\n", len(sum.Open), plural(len(sum.Open), "window", "windows"))
	sum.Lost.Results += missing
	sum.Print(a.stderr)
	return err
}

// brokerError turns a busy port into the one sentence that names the fix.
func brokerError(err error) error {
	var busy *broker.PortInUseError
	if errors.As(err, &busy) {
		return exitError{code: 1, msg: busy.Error()}
	}
	return err
}

func (a *app) brokerCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "broker",
		Short: "Run the embedded Kafka broker alone, in the foreground",
		Long: "broker runs labtui's embedded Kafka-protocol broker (kfake) on loopback with the topic\n" +
			"gateway-events (3 partitions), so kcat, any Kafka client or the PyFlink job can use it.\n" +
			"It stops on ctrl-c.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b, err := broker.Start(cmd.Context(), broker.Config{Addr: a.cfg.BrokerAddr})
			if err != nil {
				return brokerError(err)
			}
			defer b.Close()
			fmt.Fprintf(a.stdout, "broker listening on %s, topic %s with %d partitions; ctrl-c stops it\n", b.Addr(), b.Topic(), broker.DefaultPartitions)
			<-cmd.Context().Done()
			return nil
		},
	}
	addBrokerFlags(cmd)
	return cmd
}

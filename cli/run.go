package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/backend/embedded"
	"github.com/labtui/labtui/backend/flinklab"
	"github.com/labtui/labtui/backend/labrt"
	"github.com/labtui/labtui/broker"
	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"
	"github.com/labtui/labtui/meter"
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
	f.String("record", "", "a real lab (--backend cluster, remote, compose): write every record of the lab's topic, as labtui's own consumer reads it, to this recording (gzip when it ends in .gz)")
	f.Duration("generate-for", 0, "stop the generator after this long (0: it runs until the end)")
	f.Duration("kill-after", 0, "kill the job this long after the start and let it restart with empty state, as the x key does (on --backend cluster: its TaskManager)")
	f.Duration("replay-after", 0, "replay --recording this long after the start, as the r key does (with completed_ts), and say when the job has read it")
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
	if err := a.checkFaults(); err != nil {
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
	if err := a.checkFaults(); err != nil {
		return err
	}
	lab, emb, err := a.headlessLab()
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	// The session keeps the run's evidence for `labtui export`, as the TUI would.
	lab4, err := a.headlessSession(ctx)
	if err != nil {
		lab.Close()
		return err
	}
	// The printer reads from before Start: a real lab's start logs many lines, and a
	// lossless lab waits for its reader.
	out := printUpdates(lab.Updates(), a.stdout, a.stderr, format, lab4)
	// On ctrl-c or SIGTERM the run stops within a second even when nothing reads its
	// output: what the reader has not taken by then is counted, and the summary says so.
	stopHolding := context.AfterFunc(ctx, lab.Abandon)
	defer stopHolding()
	if err := lab.Start(ctx); err != nil {
		lab.Close()
		out.wait(time.Second)
		return brokerError(err)
	}
	var rec *topicRecorder
	if a.cfg.Record != "" {
		if rec, err = recordTopic(lab.Broker(), labTopic(lab), a.cfg.Record); err != nil {
			lab.Close()
			out.wait(time.Second)
			return err
		}
	}
	if err := lab.SetGenerator(true); err != nil {
		lab.Close()
		out.wait(time.Second)
		rec.close()
		return err
	}
	if d := a.cfg.Duration; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	a.scheduleFaults(ctx, lab)
	<-ctx.Done()
	fmt.Fprintln(a.stderr, "# stopping: generator, in-flight produces, job, broker")
	err = lab.Close()
	// At the end of --duration the output is the product: wait for it. After ctrl-c,
	// give it a second.
	var limit time.Duration
	if cmd.Context().Err() != nil {
		limit = time.Second
	}
	if rerr := rec.close(); err == nil {
		err = rerr
	}
	if emb == nil {
		if missing := out.wait(limit); missing > 0 {
			fmt.Fprintf(a.stderr, "# %d results were delivered but never written out\n", missing)
		}
		if l := lab.Lost(); l.Results > 0 || l.Notices > 0 {
			fmt.Fprintf(a.stderr, "# lost: %d results, %d notices\n", l.Results, l.Notices)
		}
		return err
	}
	sum := emb.Summary()
	missing := out.wait(limit)
	// What never fired is printed as pending, as replay prints it.
	missing += out.extra(sum.Open)
	fmt.Fprintf(a.stderr, "# %d %s pending at the stop\n", len(sum.Open), plural(len(sum.Open), "window", "windows"))
	sum.Lost.Results += missing
	sum.Print(a.stderr)
	return err
}

// headlessLab is what labtui run --headless drives: any backend, with what the labs
// built on the shared runtime have.
type headlessLab interface {
	backend.Backend
	Broker() string
	Abandon()
	Lost() labrt.Lost
}

// headlessLab builds the lab of the backend setting, lossless: the embedded one (also
// returned as itself, for its summary), or a real one.
func (a *app) headlessLab() (headlessLab, *embedded.Lab, error) {
	switch a.cfg.Backend {
	case "", "embedded":
		if a.cfg.Record != "" {
			return nil, nil, fmt.Errorf("--record records a real lab's topic (--backend cluster, remote or compose); labtui record --out FILE records the embedded lab")
		}
		cfg, err := a.labConfig()
		if err != nil {
			return nil, nil, err
		}
		// The printed lines are the product of a headless run: when the reader is slow,
		// the job waits for it rather than drop a window result.
		cfg.Lossless = true
		lab, err := embedded.New(cfg)
		if err != nil {
			return nil, nil, err
		}
		return embeddedHeadless{lab}, lab, nil
	case "compose":
		lab, err := a.composeBackend(true)
		if err != nil {
			return nil, nil, err
		}
		return lab.(*flinklab.Lab), nil, nil
	default:
		lab, err := a.clusterBackend(a.cfg.Backend, true)
		if err != nil {
			return nil, nil, err
		}
		return lab, nil, nil
	}
}

// embeddedHeadless is the embedded lab as a headlessLab: its broker is Addr.
type embeddedHeadless struct{ *embedded.Lab }

func (e embeddedHeadless) Broker() string { return e.Addr() }

// scheduleFaults runs --generate-for's stop of the generator, --kill-after's kill of
// the job (the x key) and --replay-after's replay (the r key) at their times, unless
// ctx ends first.
func (a *app) scheduleFaults(ctx context.Context, lab headlessLab) {
	after(ctx, a.cfg.ReplayAfter, func() {
		path, warning := a.recording()
		if path == "" {
			fmt.Fprintln(a.stderr, "# replay-after:", warning)
			return
		}
		fmt.Fprintln(a.stderr, "# replay-after: the r key: replaying", path, "with completed_ts")
		began := time.Now()
		if err := lab.Replay(ctx, path, meter.CompletedTS); err != nil {
			if ctx.Err() == nil {
				fmt.Fprintln(a.stderr, "# replay-after:", err)
			}
			return
		}
		fmt.Fprintf(a.stderr, "# replay-after: the job has read the whole recording, %s after r\n", time.Since(began).Round(100*time.Millisecond))
	})
	after(ctx, a.cfg.GenerateFor, func() {
		fmt.Fprintln(a.stderr, "# generate-for: stopping the generator")
		if err := lab.SetGenerator(false); err != nil {
			fmt.Fprintln(a.stderr, "# stopping the generator:", err)
		}
	})
	after(ctx, a.cfg.KillAfter, func() {
		r, ok := lab.(backend.Restarter)
		if !ok {
			fmt.Fprintln(a.stderr, "# kill-after: this lab cannot restart its job")
			return
		}
		fmt.Fprintln(a.stderr, "# kill-after: the x key: the job is killed and restarts with empty state")
		if err := r.RestartJob(ctx); err != nil && ctx.Err() == nil {
			fmt.Fprintln(a.stderr, "# kill-after:", err)
		}
	})
}

// after runs f once d has passed, unless d is 0 or ctx ends first.
func after(ctx context.Context, d time.Duration, f func()) {
	if d <= 0 {
		return
	}
	go func() {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
		case <-t.C:
			f()
		}
	}()
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

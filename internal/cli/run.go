package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/labtui/labtui/inject"
	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/backend/embedded"
	"github.com/labtui/labtui/internal/backend/flinklab"
	"github.com/labtui/labtui/internal/backend/labrt"
	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/jobspec"
)

// runOptions are labtui run's: the TUI's, and those of a headless run.
type runOptions struct {
	tuiOptions
	Headless    bool
	Duration    time.Duration // 0 runs until ctrl-c
	Format      jobspec.Format
	Record      string // --record: the recording of a real lab's topic
	GenerateFor time.Duration
	KillAfter   time.Duration
	ReplayAfter time.Duration // the r key at this time
}

func (a *app) runCmd() *cobra.Command {
	o := &runOptions{}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run the live lab: broker, gateway instances, the job, and faults",
		Long: "run starts the embedded lab: a Kafka-protocol broker on loopback, the gateway instances\n" +
			"producing to it, and the GatewayMeter job consuming it on the wall clock. With --headless\n" +
			"it prints both print sinks and the late side output, and on exit (--duration, ctrl-c or\n" +
			"SIGTERM) it stops everything and prints a summary whose numbers must balance.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runRun(cmd, o) },
	}
	f := cmd.Flags()
	f.BoolVar(&o.Headless, "headless", false, "print results instead of opening the terminal UI")
	f.DurationVar(&o.Duration, "duration", 0, "stop after this long (0: run until ctrl-c)")
	f.StringArrayVar(&o.Faults.Hiccups, "hiccup", nil, "schedule a broker hiccup: INSTANCE@AFTER+FOR, e.g. gw-1@40s+35s, or at a second of the minute, e.g. gw-1@:40+35s as in the course (repeatable)")
	f.StringArrayVar(&o.Faults.Stalls, "stall-partition", nil, "stall a partition: the fleet writes nothing to it: PARTITION@AFTER+FOR, e.g. 2@40s+2m or 2@:30+2m (repeatable); with --watermarks source it freezes event time, --idleness unfreezes it")
	f.Var(choice(&o.Format, jobspec.Text, jobspec.JSONL), "format", "text (print-sink lines) or jsonl")
	f.BoolVar(&o.Trace, "trace", false, "also print a trace line per assembled record")
	f.StringVar(&o.Record, "record", "", "a real lab (--backend cluster, remote, compose): write every record of the lab's topic, as labtui's own consumer reads it, to this recording (gzip when it ends in .gz)")
	f.DurationVar(&o.GenerateFor, "generate-for", 0, "stop the generator after this long (0: it runs until the end)")
	f.DurationVar(&o.KillAfter, "kill-after", 0, "kill the job this long after the start and let it restart with empty state, as the x key does (on --backend cluster: its TaskManager)")
	f.DurationVar(&o.ReplayAfter, "replay-after", 0, "replay --recording this long after the start, as the r key does (with completed_ts), and say when the job has read it")
	o.tuiOptions.bind(f)
	return a.command(cmd, o)
}

// labOptions are what a lab is built from: the embedded lab's flags, the job's, the
// faults it is given at its start, and whether the job traces each record.
type labOptions struct {
	Lab    labFlags
	Job    jobFlags
	Faults faultFlags
	Trace  bool
}

// labConfig is the embedded lab's configuration.
func (a *app) labConfig(o labOptions) (embedded.Config, error) {
	gen := o.Lab.fleet()
	if err := gen.Validate(); err != nil {
		return embedded.Config{}, err
	}
	if err := a.checkFaults(o); err != nil {
		return embedded.Config{}, err
	}
	opts, err := o.Job.options(a.global.Prices)
	if err != nil {
		return embedded.Config{}, err
	}
	opts.Trace = o.Trace
	hiccups, err := inject.ParseHiccups(o.Faults.Hiccups)
	if err != nil {
		return embedded.Config{}, err
	}
	stalls, err := inject.ParseStalls(o.Faults.Stalls)
	if err != nil {
		return embedded.Config{}, err
	}
	return embedded.Config{BrokerAddr: o.Lab.BrokerAddr, Generator: gen, Job: opts, StartAt: o.Lab.StartAt, Hiccups: hiccups, Stalls: stalls}, nil
}

func (a *app) runRun(cmd *cobra.Command, o *runOptions) error {
	if !o.Headless {
		return a.runTUI(cmd, &o.tuiOptions)
	}
	format := o.Format
	if err := a.checkFaults(o.labOptions); err != nil {
		return err
	}
	lab, emb, err := a.headlessLab(o)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	// The session keeps the run's evidence for `labtui export`, as the TUI would.
	lab4, err := a.headlessSession(ctx, o.Job)
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
	if o.Record != "" {
		if rec, err = recordTopic(lab.Broker(), labTopic(lab), o.Record); err != nil {
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
	if d := o.Duration; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	a.scheduleFaults(ctx, o, lab)
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
func (a *app) headlessLab(o *runOptions) (headlessLab, *embedded.Lab, error) {
	switch o.Backend {
	case "", "embedded":
		if o.Record != "" {
			return nil, nil, fmt.Errorf("--record records a real lab's topic (--backend cluster, remote or compose); labtui record --out FILE records the embedded lab")
		}
		cfg, err := a.labConfig(o.labOptions)
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
		lab, err := a.composeBackend(&o.tuiOptions, true)
		if err != nil {
			return nil, nil, err
		}
		return lab.(*flinklab.Lab), nil, nil
	default:
		lab, err := a.clusterBackend(&o.tuiOptions, true)
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
func (a *app) scheduleFaults(ctx context.Context, o *runOptions, lab headlessLab) {
	after(ctx, o.ReplayAfter, func() {
		path, warning := a.recording(o.Recording)
		if path == "" {
			fmt.Fprintln(a.stderr, "# replay-after:", warning)
			return
		}
		fmt.Fprintln(a.stderr, "# replay-after: the r key: replaying", path, "with completed_ts")
		began := time.Now()
		if err := lab.Replay(ctx, path, jobspec.CompletedTS); err != nil {
			if ctx.Err() == nil {
				fmt.Fprintln(a.stderr, "# replay-after:", err)
			}
			return
		}
		fmt.Fprintf(a.stderr, "# replay-after: the job has read the whole recording, %s after r\n", time.Since(began).Round(100*time.Millisecond))
	})
	after(ctx, o.GenerateFor, func() {
		fmt.Fprintln(a.stderr, "# generate-for: stopping the generator")
		if err := lab.SetGenerator(false); err != nil {
			fmt.Fprintln(a.stderr, "# stopping the generator:", err)
		}
	})
	after(ctx, o.KillAfter, func() {
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
	var addr string
	cmd := &cobra.Command{
		Use:   "broker",
		Short: "Run the embedded Kafka broker alone, in the foreground",
		Long: "broker runs labtui's embedded Kafka-protocol broker (kfake) on loopback with the topic\n" +
			"gateway-events (3 partitions), so kcat, any Kafka client or the PyFlink job can use it.\n" +
			"It stops on ctrl-c.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b, err := broker.Start(cmd.Context(), broker.Config{Addr: addr})
			if err != nil {
				return brokerError(err)
			}
			defer b.Close()
			fmt.Fprintf(a.stdout, "broker listening on %s, topic %s with %d partitions; ctrl-c stops it\n", b.Addr(), b.Topic(), broker.DefaultPartitions)
			<-cmd.Context().Done()
			return nil
		},
	}
	bindBrokerAddr(cmd.Flags(), &addr)
	return a.command(cmd, &addr)
}

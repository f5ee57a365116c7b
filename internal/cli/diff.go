package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/labtui/labtui/internal/diff"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/reenact"
	"github.com/labtui/labtui/internal/safetext"
)

// diffOptions are labtui diff's.
type diffOptions struct {
	Sink      jobspec.Kind
	Records   int // -1 for all
	Identical bool
	Brief     bool
	Names     string
}

func (a *app) diffCmd() *cobra.Command {
	o := &diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff A B",
		Short: "Compare two runs' window output, (tenant, minute) by (tenant, minute), and explain each difference",
		Long: "diff lines up every (tenant, minute) of one sink of two runs' output (jsonl from\n" +
			"`labtui replay --format jsonl --trace`, print-sink text, or a Flink TaskManager's stdout),\n" +
			"folds the identical rows, and explains each difference from the traces: which records one\n" +
			"run counted and the other dropped as late, put in another minute, or never saw. Without\n" +
			"traces, the late side output explains what it can.\n\n" +
			"Exit status: 0 when the outputs are identical, 1 when they differ, 2 on trouble.",
		Args: cobra.ArbitraryArgs,
		// Trouble exits 2, as diff(1)'s does, from the configuration on.
		RunE: func(cmd *cobra.Command, args []string) error { return a.runDiff(args, o) },
	}
	f := cmd.Flags()
	f.Var(choice(&o.Sink, jobspec.EventTimeResult, jobspec.ProcessingTimeResult), "sink", "the window compared: event-time or processing-time")
	f.IntVar(&o.Records, "records", 3, "records listed under each explanation (-1: all)")
	f.BoolVar(&o.Identical, "identical", false, "list identical rows too, instead of folding them")
	f.BoolVarP(&o.Brief, "brief", "q", false, "print only the summary line")
	f.StringVar(&o.Names, "names", "A,B", "what to call the two runs in the report, comma-separated (\"live run,replay\")")
	return a.command(cmd, o)
}

func (a *app) runDiff(args []string, o *diffOptions) error {
	trouble := func(err error) error { return exitError{code: 2, msg: err.Error()} }
	if len(args) != 2 {
		return trouble(fmt.Errorf("diff takes two output files, A and B; got %d", len(args)))
	}
	sink := o.Sink
	names, err := parseNames(o.Names)
	if err != nil {
		return trouble(err)
	}
	runs := make([][]jobspec.Result, 2)
	for i, path := range args {
		if runs[i], err = diff.ReadFile(path); err != nil {
			return trouble(err)
		}
	}
	r := diff.Compare(runs[0], runs[1], diff.Options{Sink: sink})
	// The report quotes the outputs' tenants and request ids: shown escaped.
	stdout := safetext.NewWriter(a.stdout)
	defer stdout.Flush()
	if o.Brief {
		fmt.Fprintln(stdout, r.Summary(names))
	} else {
		fmt.Fprintf(stdout, "%s = %s\n%s = %s\n", names.A, args[0], names.B, args[1])
		if err := r.WriteText(stdout, diff.TextOptions{Names: names, Records: o.Records, Identical: o.Identical}); err != nil {
			return trouble(err)
		}
	}
	if !r.Same() {
		return exitError{code: 1}
	}
	return nil
}

func parseNames(s string) (diff.Names, error) {
	a, b, ok := strings.Cut(s, ",")
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if !ok || a == "" || b == "" || strings.Contains(b, ",") {
		return diff.Names{}, fmt.Errorf("--names must be two names separated by a comma, not %q", s)
	}
	return diff.Names{A: a, B: b}, nil
}

// movedOptions are labtui moved's: with --replay, the job's options it re-enacts the
// recording with (both timestamps, with watermarks after the parse).
type movedOptions struct {
	Limit  int    // -1 for all
	Replay string // the recording, "" to read two outputs
	Job    jobFlags
}

func (a *app) movedCmd() *cobra.Command {
	o := &movedOptions{}
	cmd := &cobra.Command{
		Use:   "moved A B | moved --replay RECORDING",
		Short: "List the requests whose event-time minute changed between two runs (completed_ts against started_ts)",
		Long: "moved reads two runs' output with traces (`labtui replay --format jsonl --trace`, the first\n" +
			"with --timestamp completed_ts, the second with --timestamp started_ts) and lists each request\n" +
			"whose event-time minute changed: its id, tenant, cost, both minutes, and whether it was\n" +
			"dropped as late. With --replay it re-enacts a recording both ways itself.",
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error { return a.runMoved(cmd, args, o) },
	}
	f := cmd.Flags()
	f.IntVar(&o.Limit, "limit", 20, "requests listed (-1: all)")
	f.StringVar(&o.Replay, "replay", "", "a recording to re-enact at recorded pace with completed_ts (A) and started_ts (B)")
	f.DurationVar(&o.Job.Watermarks.OutOfOrderness, "out-of-orderness", 0, "with --replay: bounded out-of-orderness; 0 is for_monotonous_timestamps()")
	f.Var(interval(&o.Job.Watermarks.Interval), "watermark-interval", "with --replay: periodic watermark interval")
	f.DurationVar(&o.Job.ForgetAfter, "forget-after", 10*time.Minute, "with --replay: how long the RequestAssembler keeps a half request")
	return a.command(cmd, o)
}

func (a *app) runMoved(cmd *cobra.Command, args []string, o *movedOptions) error {
	var ra, rb []jobspec.Result
	names := diff.Names{A: "A", B: "B"}
	if path := o.Replay; path != "" {
		if len(args) != 0 {
			return fmt.Errorf("moved takes two output files or --replay RECORDING, not both")
		}
		opts, err := o.Job.options(a.global.Prices)
		if err != nil {
			return err
		}
		opts.Trace = true
		for i, field := range []jobspec.TimestampField{jobspec.CompletedTS, jobspec.StartedTS} {
			opts.Timestamp = field
			rs, err := reenact.Results(cmd.Context(), path, reenact.Config{Job: opts})
			if cmd.Context().Err() != nil {
				return exitError{code: 130, msg: fmt.Sprintf("moved interrupted while re-enacting %s with %s; nothing is listed", path, field)}
			}
			if err != nil {
				return err
			}
			if i == 0 {
				ra = rs
			} else {
				rb = rs
			}
		}
		names = diff.Names{A: "completed_ts", B: "started_ts"}
	} else {
		if len(args) != 2 {
			return fmt.Errorf("moved takes two output files, A (completed_ts) and B (started_ts), or --replay RECORDING")
		}
		var err error
		if ra, err = diff.ReadFile(args[0]); err != nil {
			return err
		}
		if rb, err = diff.ReadFile(args[1]); err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "A = %s\nB = %s\n", args[0], args[1])
	}
	m, err := diff.Moved(ra, rb)
	if err != nil {
		return err
	}
	// The list quotes the runs' request ids and tenants: shown escaped.
	stdout := safetext.NewWriter(a.stdout)
	defer stdout.Flush()
	return m.WriteText(stdout, names, o.Limit)
}

package cli

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/reenact"
)

// replayOptions are labtui replay's.
type replayOptions struct {
	Job        jobFlags
	Pace       reenact.Pace
	Drain      bool
	Format     jobspec.Format
	Trace      bool
	Partitions int // the topic's partition count, 0 for what the recording says
}

func (a *app) replayCmd() *cobra.Command {
	o := &replayOptions{}
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Replay a recording of gateway-events through both TenantCost windows",
		Long: "replay reads a recording (JSON lines, one Kafka record a line; gzip when the name ends\n" +
			"in .gz; kcat -J lines too) and runs it through the GatewayMeter job, printing both\n" +
			"print sinks and the late side output as the job writes them.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return a.runReplay(cmd, args, o) },
	}
	f := cmd.Flags()
	f.Var(choice(&o.Pace, reenact.Recorded, reenact.Fast), "pace", "recorded (re-enact on a simulated clock, deterministic) or fast (wall clock)")
	o.Job.bind(f)
	f.BoolVar(&o.Drain, "drain", false, "at the end emit the maximum watermark, as \"flink stop --drain\" does")
	f.Var(choice(&o.Format, jobspec.Text, jobspec.JSONL), "format", "text (print-sink lines) or jsonl")
	f.BoolVar(&o.Trace, "trace", false, "also print a trace line per assembled record")
	f.IntVar(&o.Partitions, "partitions", 0, "the topic's partition count: with --watermarks source each partition is a split from the start, one no record names included; 0 takes the recording's topic line (labtui record writes one), else the partitions up to the highest a record names")
	return a.command(cmd, o)
}

func (a *app) runReplay(cmd *cobra.Command, args []string, o *replayOptions) error {
	pace, format := o.Pace, o.Format
	opts, err := o.Job.options(a.global.Prices)
	if err != nil {
		return err
	}
	opts.Trace = o.Trace
	src, err := recording.Open(cmd.Context(), args[0])
	if cmd.Context().Err() != nil {
		return exitError{code: 130, msg: fmt.Sprintf("replay of %s interrupted while opening it", args[0])}
	}
	if err != nil {
		return err
	}
	defer src.Close()
	out := jobspec.NewPrinter(a.stdout, format)
	cfg := reenact.Config{Pace: pace, Job: opts, Drain: o.Drain, Partitions: int32(o.Partitions)}
	var skips recording.Skips
	sum, err := reenact.Run(cmd.Context(), src, cfg, out.Print, skips.Add)
	ferr := out.Flush()
	skips.Report(a.stderr, args[0])
	if cmd.Context().Err() != nil {
		return exitError{code: 130, msg: fmt.Sprintf("replay of %s interrupted after %d records; nothing more is printed", args[0], sum.Entries)}
	}
	if err == nil {
		err = ferr
	}
	var re *recording.ReadError
	if err != nil && !errors.As(err, &re) {
		return err
	}
	s := sum.Stats
	fmt.Fprintf(a.stderr, "replayed %d records (%d skipped) at %s pace in %s: %d requests assembled, %d late, %d %s pending\n",
		sum.Entries-sum.BadEvents, sum.BadLines+sum.BadEvents+sum.Tombstones, pace, sum.Elapsed.Round(time.Millisecond), s.Records, s.Late,
		sum.Pending, plural(int(sum.Pending), "window", "windows"))
	if s.Overflowed > 0 {
		fmt.Fprintf(a.stderr, "%d request halves were dropped on arrival: %d halves already waited for their other half, the most the job keeps\n",
			s.Overflowed, jobspec.MaxPendingHalves)
	}
	return err
}

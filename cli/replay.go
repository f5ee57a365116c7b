package cli

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/recording"
	"github.com/labtui/labtui/replay"
)

func (a *app) replayCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Replay a recording of gateway-events through both TenantCost windows",
		Long: "replay reads a recording (JSON lines, one Kafka record a line; gzip when the name ends\n" +
			"in .gz; kcat -J lines too) and runs it through the GatewayMeter job, printing both\n" +
			"print sinks and the late side output as the job writes them.",
		Args: cobra.ExactArgs(1),
		RunE: a.runReplay,
	}
	f := cmd.Flags()
	f.String("pace", "recorded", "recorded (re-enact on a simulated clock, deterministic) or fast (wall clock)")
	addJobFlags(cmd)
	f.Bool("drain", false, "at the end emit the maximum watermark, as \"flink stop --drain\" does")
	f.String("format", "text", "text (print-sink lines) or jsonl")
	f.Bool("trace", false, "also print a trace line per assembled record")
	f.Int("partitions", 0, "the topic's partition count: with --watermarks source each partition is a split from the start, one no record names included; 0 takes the recording's topic line (labtui record writes one), else the partitions up to the highest a record names")
	return cmd
}

// addJobFlags adds the flags that configure the GatewayMeter job.
func addJobFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.Duration("out-of-orderness", 0, "bounded out-of-orderness; 0 is for_monotonous_timestamps()")
	f.Duration("watermark-interval", 200*time.Millisecond, "periodic watermark interval (pipeline.auto-watermark-interval); 0 disables periodic watermarks")
	f.String("timestamp", "completed_ts", "the record field event time reads: completed_ts or started_ts")
	f.String("watermarks", "stream", "where watermarks are generated: stream (after the parse, the course's Lab 4 job) or source (on the Kafka source, one generator per partition, module 5)")
	f.Duration("idleness", 0, "with --watermarks source: withIdleness, a partition that brings nothing for this long (processing time) leaves the minimum until it sends again; 0 is none")
	f.Duration("forget-after", 10*time.Minute, "how long (event time) the RequestAssembler keeps a half request; 0 forgets it at the next watermark at or past its timestamp")
}

// jobOptions reads the job flags (and their config and environment values).
func (a *app) jobOptions() (meter.Options, error) {
	// Each flag has the course's default, so every value here is set: 0 is zero.
	// loadConfig refused negatives, naming where they came from.
	o := meter.Options{
		Prices:      a.cfg.Prices,
		Timestamp:   a.cfg.Timestamp,
		ForgetAfter: meter.Ms(a.cfg.ForgetAfter.Milliseconds()),
		Watermarks: meter.Watermarks{
			OutOfOrderness: a.cfg.OutOfOrderness.Milliseconds(),
			Interval:       meter.Ms(a.cfg.WatermarkInterval.Milliseconds()),
			At:             a.cfg.WatermarksAt,
			Idleness:       a.cfg.Idleness.Milliseconds(),
		},
	}
	return o, o.Validate()
}

func (a *app) runReplay(cmd *cobra.Command, args []string) error {
	pace, format := a.cfg.Pace, a.cfg.Format
	opts, err := a.jobOptions()
	if err != nil {
		return err
	}
	opts.Trace = a.cfg.Trace
	src, err := recording.Open(cmd.Context(), args[0])
	if cmd.Context().Err() != nil {
		return exitError{code: 130, msg: fmt.Sprintf("replay of %s interrupted while opening it", args[0])}
	}
	if err != nil {
		return err
	}
	defer src.Close()
	out := meter.NewPrinter(a.stdout, format)
	cfg := replay.Config{Pace: pace, Job: opts, Drain: a.cfg.Drain, Partitions: int32(a.cfg.Partitions)}
	var skips recording.Skips
	sum, err := replay.Run(cmd.Context(), src, cfg, out.Print, skips.Add)
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
			s.Overflowed, meter.MaxPendingHalves)
	}
	return err
}

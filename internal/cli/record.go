package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/inject"
	"github.com/labtui/labtui/internal/backend/embedded"
	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/safetext"

	"github.com/labtui/labtui/internal/recording"
)

// recordOptions are labtui record's: its own, the embedded lab's, the job's and the
// hiccups (Faults.Stalls stays empty).
type recordOptions struct {
	labOptions
	Out      string
	Duration time.Duration
	Simulate bool
	Start    string // RFC 3339, "" for the current minute
}

func (a *app) recordCmd() *cobra.Command {
	o := &recordOptions{}
	cmd := &cobra.Command{
		Use:   "record --out FILE",
		Short: "Record gateway-events in the recording format replay reads",
		Long: "record runs the embedded lab and writes every record the job reads, with arrival = when it\n" +
			"was read, until --duration or ctrl-c. With --simulate it writes what the generator would\n" +
			"have produced over --duration on a simulated clock, hiccups included, without waiting:\n" +
			"the same flags always write the same file.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runRecord(cmd, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.Out, "out", "", "the recording to write (gzip when it ends in .gz)")
	f.DurationVar(&o.Duration, "duration", time.Minute, "how much to record")
	f.BoolVar(&o.Simulate, "simulate", false, "simulate the generator on a simulated clock instead of running it")
	f.StringVar(&o.Start, "start", "", "the simulated recording's start, RFC 3339 (default: the current minute)")
	f.StringArrayVar(&o.Faults.Hiccups, "hiccup", nil, "a broker hiccup: INSTANCE@AFTER+FOR, e.g. gw-1@20m40s+35s, or gw-1@:40+35s at second 40 of the first minute at least 10s in (repeatable)")
	o.Lab.bind(f)
	o.Job.bind(f)
	return a.command(cmd, o)
}

func (a *app) runRecord(cmd *cobra.Command, o *recordOptions) error {
	out := o.Out
	if out == "" {
		return fmt.Errorf("record needs --out FILE")
	}
	if o.Simulate {
		return a.simulate(cmd.Context(), o)
	}
	cfg, err := a.labConfig(o.labOptions)
	if err != nil {
		return err
	}
	w, err := createRecording(out, recording.Topic{Name: broker.DefaultTopic, Partitions: broker.DefaultPartitions})
	if err != nil {
		return err
	}
	var n int64
	var werr error
	cfg.Consumed = func(r *kgo.Record, arrival int64) {
		if werr == nil {
			n++
			werr = w.Write(recording.Entry{Partition: r.Partition, Offset: r.Offset, Timestamp: r.Timestamp.UnixMilli(),
				Arrival: arrival, Key: r.Key, Value: r.Value})
		}
	}
	lab, err := embedded.New(cfg)
	if err != nil {
		w.Close()
		return err
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), o.Duration)
	defer cancel()
	if err := lab.Start(ctx); err != nil {
		w.Close()
		return brokerError(err)
	}
	logged := make(chan struct{})
	go func() { // nobody watches the panes here; the lab's log goes to stderr, capped
		defer close(logged)
		for u := range lab.Updates() {
			if u.Log != "" {
				fmt.Fprintln(a.stderr, "#", safetext.Line(u.Log))
			}
		}
	}()
	if err := lab.SetGenerator(true); err != nil {
		lab.Close()
		w.Close()
		return err
	}
	fmt.Fprintf(a.stderr, "recording %s from the embedded lab on %s for %s\n", out, lab.Addr(), o.Duration)
	<-ctx.Done()
	cerr := lab.Close()
	<-logged
	if err := w.Close(); werr == nil {
		werr = err
	}
	if werr != nil {
		return fmt.Errorf("writing %s: %w", out, werr)
	}
	fmt.Fprintf(a.stderr, "wrote %d records to %s\n", n, out)
	return cerr
}

// simulate writes the recording the fleet would make on a simulated clock, at any rate.
func (a *app) simulate(ctx context.Context, o *recordOptions) error {
	fleet, out := o.Lab.fleet(), o.Out
	if err := fleet.ValidateSchedule(); err != nil {
		return err
	}
	if err := a.checkFaults(o.labOptions); err != nil {
		return err
	}
	start := time.Now().Truncate(time.Minute)
	if s := o.Start; s != "" {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return fmt.Errorf("--start must be an RFC 3339 time such as 2026-11-29T10:00:00Z, not %q", s)
		}
		start = t
	}
	hiccups, err := inject.ParseHiccups(o.Faults.Hiccups)
	if err != nil {
		return err
	}
	sim := recording.SimConfig{Generator: fleet, Start: start, Duration: o.Duration, Hiccups: hiccups,
		Partitions: broker.DefaultPartitions}
	w, err := createRecording(out, recording.Topic{Name: broker.DefaultTopic, Partitions: int32(sim.Partitions)})
	if err != nil {
		return err
	}
	st, err := recording.Simulate(ctx, sim, w.Write)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if ctx.Err() != nil {
		return exitError{code: 130, msg: fmt.Sprintf("interrupted: wrote %d records (%d requests, %d held by hiccups), arrivals up to %s UTC, to %s; the file ends at a whole record",
			st.Events, st.Requests, st.Held, time.UnixMilli(st.Until).UTC().Format("2006-01-02 15:04:05.000"), out)}
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	fmt.Fprintf(a.stderr, "wrote %d records (%d requests, %d held by hiccups) to %s\n", st.Events, st.Requests, st.Held, out)
	return nil
}

// createRecording creates the recording at path with its topic line: what a replay of it
// re-creates.
func createRecording(path string, topic recording.Topic) (*recording.Writer, error) {
	w, err := recording.Create(path)
	if err != nil {
		return nil, err
	}
	if err := w.WriteTopic(topic); err != nil {
		w.Close()
		return nil, fmt.Errorf("cannot write recording: %w", err)
	}
	return w, nil
}

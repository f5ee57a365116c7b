package cli

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/reenact"
)

// feedOptions are labtui feed's.
type feedOptions struct {
	Brokers    string
	Topic      string
	Pace       reenact.Pace
	Shift      string
	Lead       time.Duration
	ShiftedOut string // "" for none
}

func (a *app) feedCmd() *cobra.Command {
	o := &feedOptions{}
	cmd := &cobra.Command{
		Use:   "feed FILE",
		Short: "Produce a recording into a Kafka topic, paced by its arrival times",
		Long: "feed writes a recording into any Kafka cluster (the compose lab's, `labtui broker`, a\n" +
			"real broker), each record to its recorded partition with its key, at its arrival time.\n" +
			"With --shift (default auto) every time is moved by a whole number of minutes so the\n" +
			"recording plays now: event ts, Kafka timestamps and arrivals move together, so every\n" +
			"window boundary stays where it was relative to the data. --shifted-out writes the\n" +
			"recording as fed, for `labtui replay --pace recorded` to re-enact.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return a.runFeed(cmd, args, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.Brokers, "brokers", "127.0.0.1:9092", "bootstrap servers, comma-separated")
	f.StringVar(&o.Topic, "topic", "gateway-events", "the topic to write")
	f.Var(choice(&o.Pace, reenact.Recorded, reenact.Fast), "pace", "recorded (at each record's arrival time) or fast (all at once)")
	f.StringVar(&o.Shift, "shift", "auto", "auto (start in the next minute), 0, or a whole number of minutes such as 120m")
	f.DurationVar(&o.Lead, "lead", 5*time.Second, "with --shift auto, the least time before the first record is due")
	f.StringVar(&o.ShiftedOut, "shifted-out", "", "also write the recording as fed (times shifted) to this file")
	return a.command(cmd, o)
}

func (a *app) runFeed(cmd *cobra.Command, args []string, o *feedOptions) error {
	ctx := cmd.Context()
	src, err := recording.Open(ctx, args[0])
	if err != nil {
		return err
	}
	defer src.Close()
	var skips recording.Skips
	// Tombstones are fed too: a partition of only tombstones is one of the topic's.
	entries, readErr := recording.Load(src.RecordsAndTombstones(skips.Add))
	skips.Report(a.stderr, args[0])
	if ctx.Err() != nil {
		return exitError{code: 130, msg: fmt.Sprintf("feed of %s interrupted while reading it; nothing was fed", args[0])}
	}
	if len(entries) == 0 {
		return errors.Join(fmt.Errorf("%s holds no records", args[0]), readErr)
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Arrival < entries[j].Arrival })
	shift, err := feedShift(o.Shift, entries[0].Arrival, time.Now().Add(o.Lead).UnixMilli())
	if err != nil {
		return err
	}
	for i := range entries {
		entries[i] = shiftEntry(entries[i], shift)
	}
	if out := o.ShiftedOut; out != "" {
		if err := writeEntries(out, src.Topic(), entries); err != nil {
			return err
		}
	}
	topic := o.Topic
	cl, err := recording.NewProducer(strings.Split(o.Brokers, ","), "labtui-feed", kgo.ProducerLinger(0))
	if err != nil {
		return err
	}
	defer cl.Close()
	opt := recording.ProduceOptions{Owned: true}
	if o.Pace != reenact.Fast {
		opt.At = func(e recording.Entry) time.Time { return time.UnixMilli(e.Arrival) }
	}
	fmt.Fprintf(a.stderr, "feeding %d records to %s (shifted by %d min), first due at %s UTC\n",
		len(entries), topic, shift/60000, time.UnixMilli(entries[0].Arrival).UTC().Format("15:04:05.000"))
	if err := recording.Produce(ctx, cl, topic, recording.All(entries), opt); err != nil {
		if ctx.Err() != nil {
			return exitError{code: 130, msg: fmt.Sprintf("feed of %s interrupted", args[0])}
		}
		return err
	}
	fmt.Fprintf(a.stderr, "fed %d records\n", len(entries))
	return readErr
}

// feedShift returns the shift in milliseconds: a whole number of minutes.
func feedShift(spec string, first, earliest int64) (int64, error) {
	switch spec {
	case "auto", "":
		const minute = 60_000
		if first >= earliest {
			return 0, nil
		}
		return (earliest - first + minute - 1) / minute * minute, nil
	}
	d, err := time.ParseDuration(spec)
	if err != nil || d%time.Minute != 0 {
		return 0, fmt.Errorf("--shift must be auto or a whole number of minutes such as 120m, not %q", spec)
	}
	return d.Milliseconds(), nil
}

// shiftEntry moves an entry's Kafka timestamp, arrival and its value's ts by shift. Only
// the ts digits change (gateway.ShiftTS): a value is fed byte for byte as it was
// recorded otherwise, so a malformed record stays malformed and a tricky one stays tricky.
func shiftEntry(e recording.Entry, shift int64) recording.Entry {
	e.Timestamp += shift
	e.Arrival += shift
	if !e.Tombstone {
		e.Value = gateway.ShiftTS(e.Value, shift)
	}
	return e
}

// writeEntries writes a recording of entries, after the topic line when topic says how
// many partitions its topic has.
func writeEntries(path string, topic recording.Topic, entries []recording.Entry) error {
	w, err := recording.Create(path)
	if err != nil {
		return err
	}
	if topic.Partitions > 0 {
		if err := w.WriteTopic(topic); err != nil {
			w.Close()
			return err
		}
	}
	for _, e := range entries {
		if err := w.Write(e); err != nil {
			w.Close()
			return err
		}
	}
	return w.Close()
}

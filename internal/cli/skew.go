package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/reenact"
	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/internal/skew"
)

// skewOptions are labtui skew's.
type skewOptions struct {
	Job    jobFlags
	Drain  bool
	Out    string // the SVG, "" for none
	Held   string
	Hiccup string // clock times, "" for none
	Flush  string
	From   string
	To     string
	Width  int // 0 for $COLUMNS
	Height int // 0 for $LINES
	Quiet  bool
}

func (a *app) skewCmd() *cobra.Command {
	o := &skewOptions{}
	cmd := &cobra.Command{
		Use:   "skew FILE",
		Short: "Draw event time against processing time for a recording (Akidau's picture), as SVG and in the terminal",
		Long: "skew re-enacts a recording at recorded pace with a trace of every record and draws\n" +
			"Streaming 101's picture: event time across, processing time up, the ideal diagonal, a dot\n" +
			"per record (the held gateway's apart), the watermark, event-time windows as strips that\n" +
			"close where the watermark crosses them, processing-time windows as bands with their sums.\n" +
			"It writes the picture as SVG (--out) and prints it in braille cells.\n\n" +
			"Times (--hiccup, --flush, --from, --to) are UTC clock times on the recording's first day,\n" +
			"HH:MM[:SS[.mmm]], or RFC 3339.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return a.runSkew(cmd, args, o) },
	}
	f := cmd.Flags()
	o.Job.bind(f)
	f.BoolVar(&o.Drain, "drain", false, "at the end emit the maximum watermark, so every event-time window closes")
	f.StringVar(&o.Out, "out", "skew.svg", "the SVG file to write (\"\" for none)")
	f.StringVar(&o.Held, "held", "", "the gateway to colour apart (default: the one with most records arriving over 5 s late)")
	f.StringVar(&o.Hiccup, "hiccup", "", "mark the processing time a hiccup started")
	f.StringVar(&o.Flush, "flush", "", "mark the processing time the held records were flushed")
	f.StringVar(&o.From, "from", "", "zoom: the first time both axes show")
	f.StringVar(&o.To, "to", "", "zoom: the time both axes show up to")
	f.IntVar(&o.Width, "width", 0, "terminal cells across (default $COLUMNS, else 100)")
	f.IntVar(&o.Height, "height", 0, "terminal lines (default $LINES less 2, else 32)")
	f.BoolVarP(&o.Quiet, "quiet", "q", false, "do not print the picture, only write the SVG")
	return a.command(cmd, o)
}

func (a *app) runSkew(cmd *cobra.Command, args []string, o *skewOptions) error {
	opts, err := o.Job.options(a.global.Prices)
	if err != nil {
		return err
	}
	opts.Trace = true
	results, err := reenact.Results(cmd.Context(), args[0], reenact.Config{Job: opts, Drain: o.Drain})
	if err != nil {
		return err
	}
	day := int64(0)
	for _, r := range results {
		if r.Kind == jobspec.TraceResult {
			day = r.Record.Timestamp - ((r.Record.Timestamp%86_400_000)+86_400_000)%86_400_000
			break
		}
	}
	if day == 0 && len(results) == 0 {
		return fmt.Errorf("%s has no requests to draw", args[0])
	}
	so := skew.Options{Held: o.Held}
	for _, t := range []struct {
		flag, value string
		to          *int64
	}{{"hiccup", o.Hiccup, &so.Hiccup}, {"flush", o.Flush, &so.Flush}, {"from", o.From, &so.Span.From}, {"to", o.To, &so.Span.To}} {
		if s := t.value; s != "" {
			if *t.to, err = parseClock(s, day); err != nil {
				return fmt.Errorf("--%s: %v", t.flag, err)
			}
		}
	}
	if (so.Span.From == 0) != (so.Span.To == 0) || so.Span.From > so.Span.To {
		return fmt.Errorf("--from and --to go together, --from first")
	}
	m := skew.Build(results, so)
	if out := o.Out; out != "" {
		f, err := os.Create(out)
		if err != nil {
			return fmt.Errorf("cannot write the picture: %w", err)
		}
		title := fmt.Sprintf("%s: event time against processing time (%s, %s)", filepath.Base(args[0]), opts.Timestamp, strategy(opts))
		err = skew.WriteSVG(f, m, skew.SVGOptions{Title: title})
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("cannot write the picture: %w", err)
		}
		held := ""
		if m.Held != "" {
			held = ", held " + safetext.Line(m.Held)
		}
		fmt.Fprintf(a.stderr, "wrote %s: %d records%s, %d event-time and %d processing-time windows\n", out, len(m.Points), held,
			len(m.EventWindows), len(m.ProcessingWindows))
	}
	if !o.Quiet {
		w, h := o.Width, o.Height
		if w <= 0 {
			w = envInt("COLUMNS", 100)
		}
		if h <= 0 {
			h = envInt("LINES", 34) - 2
		}
		fmt.Fprintln(a.stdout, skew.Render(m, w, h))
	}
	return nil
}

// strategy names the job's watermark strategy as the course writes it.
func strategy(o jobspec.Options) string {
	if o.Watermarks.OutOfOrderness == 0 {
		return "for_monotonous_timestamps()"
	}
	return "bounded out-of-orderness " + o.Watermarks.OutOfOrderness.String()
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// parseClock reads HH:MM[:SS[.mmm]] as a UTC time on the day starting at day (ms), or an
// RFC 3339 time.
func parseClock(s string, day int64) (int64, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UnixMilli(), nil
	}
	for _, layout := range []string{"15:04:05", "15:04"} { // seconds may carry a fraction
		if t, err := time.Parse(layout, s); err == nil {
			return day + t.Sub(time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)).Milliseconds(), nil
		}
	}
	return 0, fmt.Errorf("%q is not a time: write HH:MM[:SS[.mmm]] (UTC) or RFC 3339", s)
}

package cli

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/safetext"
)

// headlessPrinter prints a lab's updates as `labtui run --headless` does: results on
// stdout in the chosen format, log lines and losses on stderr. It counts the results
// it took and the ones it wrote out, so a result the lab delivered but the output never
// took (a stdout that fails, or that nothing reads when ctrl-c ends the run) is counted
// too.
type headlessPrinter struct {
	out     *jobspec.Printer
	stderr  io.Writer
	updates <-chan backend.Update
	done    chan struct{}
	// took counts the results taken from the lab, wrote those written out.
	took, wrote atomic.Int64
	// finished says wait saw the printer print everything.
	finished bool
}

// printUpdates starts printing updates until the channel closes, handing each to lab
// (when not nil) after printing it, and closing lab at the end.
func printUpdates(updates <-chan backend.Update, stdout, stderr io.Writer, f jobspec.Format, lab *headlessSession) *headlessPrinter {
	p := &headlessPrinter{out: jobspec.NewPrinter(stdout, f), stderr: stderr, updates: updates, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		if lab != nil {
			defer lab.close(stderr)
		}
		for u := range updates {
			if r := u.Restarted; r != nil {
				fmt.Fprintf(stderr, "# run %d begins (%s): %s\n", r.Run, r.Cause, r.Reason)
			}
			p.took.Add(int64(len(u.Results)))
			for _, r := range u.Results {
				p.out.Print(r)
			}
			if u.Log != "" {
				fmt.Fprintln(stderr, "#", safetext.Line(u.Log))
			}
			if u.Dropped > 0 {
				fmt.Fprintf(stderr, "# %d results dropped: the printer fell behind\n", u.Dropped)
			}
			if p.out.Flush() == nil {
				p.wrote.Store(p.took.Load())
			}
			if lab != nil {
				lab.apply(u)
			}
		}
	}()
	return p
}

// wait waits until the printer has printed everything, or, when limit is positive, for
// at most limit; it returns how many results the lab delivered that were never written
// out. Call it once the lab is closed.
func (p *headlessPrinter) wait(limit time.Duration) int64 {
	var expire <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		expire = t.C
	}
	select {
	case <-p.done:
		p.finished = true
	case <-expire:
		fmt.Fprintf(p.stderr, "# the output takes nothing: stopping without waiting for it\n")
		// The printer is stuck in a write; what is still in the closed channel will not
		// be printed either.
		var left int64
		for u := range p.updates {
			left += int64(len(u.Results))
		}
		return left + p.took.Load() - p.wrote.Load()
	}
	return p.took.Load() - p.wrote.Load()
}

// extra prints rs after the updates (the windows still open at the stop, as pending
// lines) once wait has seen the printer finish, and returns how many were not written
// out: all of them when the printer is stuck.
func (p *headlessPrinter) extra(rs []jobspec.Result) int64 {
	if !p.finished {
		return int64(len(rs))
	}
	for _, r := range rs {
		p.out.Print(r)
	}
	if p.out.Flush() != nil {
		return int64(len(rs))
	}
	return 0
}

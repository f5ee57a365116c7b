package reenact

import (
	"context"
	"fmt"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
)

// Results replays the recording at path through a new job with cfg and returns every
// result, the windows left open at the end as pending. A malformed line is skipped, as
// `labtui replay` skips it. It is the one way labtui works out a recording's whole
// output in memory: the reference run a replay is compared with (cfg.Pace Recorded),
// and what `labtui diff`, `moved` and `skew` re-enact.
func Results(ctx context.Context, path string, cfg Config) ([]jobspec.Result, error) {
	src, err := recording.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	var c chunks
	if _, err := Run(ctx, src, cfg, c.add, func(int, error) {}); err != nil {
		return nil, fmt.Errorf("replay %s: %w", path, err)
	}
	return c.all(), nil
}

// chunkSize is how many results a chunk holds (704 KB).
const chunkSize = 4096

// chunks collects results in chunks of chunkSize and puts them into one array of their
// number at the end. Appending to one array grows it 1.25 times at a time once it is
// large, which for the recorded hour (13 MB of results) left four times that as garbage.
type chunks struct {
	full [][]jobspec.Result
	cur  []jobspec.Result
}

func (c *chunks) add(r jobspec.Result) {
	if len(c.cur) == cap(c.cur) {
		if c.cur != nil {
			c.full = append(c.full, c.cur)
		}
		c.cur = make([]jobspec.Result, 0, chunkSize)
	}
	c.cur = append(c.cur, r)
}

// len is how many results were added.
func (c *chunks) len() int { return len(c.full)*chunkSize + len(c.cur) }

// all returns every result added, in order, in an array of exactly their number.
func (c *chunks) all() []jobspec.Result {
	n := c.len() // every full chunk holds chunkSize
	if n == 0 {
		return nil
	}
	out := make([]jobspec.Result, 0, n)
	for i, ch := range c.full {
		out = append(out, ch...)
		c.full[i] = nil
	}
	return append(out, c.cur...)
}

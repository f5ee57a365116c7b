package replay

import (
	"context"
	"fmt"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/recording"
)

// Results replays the recording at path through a new job with cfg and returns every
// result, the windows left open at the end as pending. A malformed line is skipped, as
// `labtui replay` skips it. It is the one way labtui works out a recording's whole
// output in memory: the reference run a replay is compared with (cfg.Pace Recorded),
// and what `labtui diff`, `moved` and `skew` re-enact.
func Results(ctx context.Context, path string, cfg Config) ([]meter.Result, error) {
	src, err := recording.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	var out []meter.Result
	if _, err := Run(ctx, src, cfg, func(r meter.Result) { out = append(out, r) }, func(int, error) {}); err != nil {
		return nil, fmt.Errorf("replay %s: %w", path, err)
	}
	return out, nil
}

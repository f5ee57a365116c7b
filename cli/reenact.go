package cli

import (
	"context"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/replay"
	"github.com/labtui/labtui/session"
)

// sessionReenact is the session's Reenact: the recording re-enacted at its recorded
// times, the reference a replay is compared with.
var sessionReenact session.Reenact = func(ctx context.Context, path string, job meter.Options) ([]meter.Result, error) {
	return replay.Results(ctx, path, replay.Config{Pace: replay.Recorded, Job: job})
}

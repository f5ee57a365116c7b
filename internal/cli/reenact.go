package cli

import (
	"context"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/reenact"
	"github.com/labtui/labtui/internal/session"
)

// sessionReenact is the session's Reenact: the recording re-enacted at its recorded
// times, the reference a replay is compared with.
var sessionReenact session.Reenact = func(ctx context.Context, path string, job jobspec.Options) ([]jobspec.Result, error) {
	return reenact.Results(ctx, path, reenact.Config{Pace: reenact.Recorded, Job: job})
}

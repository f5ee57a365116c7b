package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/labtui/labtui/backend"
	composelab "github.com/labtui/labtui/backend/compose"
	"github.com/labtui/labtui/compose"
	"github.com/labtui/labtui/livejob"
)

// newChecker builds the doctor's Checker; a test adds options (its own ports).
var newChecker = func() *compose.Checker { return compose.NewChecker() }

func (a *app) doctorCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check that this machine can run the compose lab (labtui --backend compose)",
		Long: "doctor checks what the compose lab needs: the Docker CLI, Docker Compose v2, a running\n" +
			"Docker daemon, and ports 9092 (Kafka) and 8081 (Flink's web UI) free on 127.0.0.1.\n" +
			"Each problem comes with the command or step that fixes it; the exit code is 1 if there\n" +
			"is one. The embedded lab (plain labtui) needs none of this.",
		Args: cobra.NoArgs,
		RunE: a.runDoctor,
	}
}

func (a *app) runDoctor(cmd *cobra.Command, _ []string) error {
	report := newChecker().Check(cmd.Context())
	for _, r := range report.Results {
		fmt.Fprintln(a.stdout, r)
		if r.Status == compose.Problem && r.Detail != "" {
			fmt.Fprintf(a.stdout, "         (%s)\n", r.Detail)
		}
	}
	if n := len(report.Problems()); n > 0 {
		return exitError{code: 1, msg: fmt.Sprintf("%d %s: fix %s and run labtui doctor again; plain labtui runs the embedded lab meanwhile",
			n, plural(n, "problem", "problems"), plural(n, "it", "them"))}
	}
	fmt.Fprintln(a.stdout, "ready: labtui --backend compose starts the compose lab")
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// composeBackend builds the compose lab from the settings and runs the doctor's checks
// before anything else, so a machine without Docker gets one message (that names
// `labtui doctor` and the embedded default) and nothing is started.
func (a *app) composeBackend() (backend.Backend, error) {
	cfg, err := a.labConfig()
	if err != nil {
		return nil, err
	}
	start := "earliest"
	if cfg.StartAt == livejob.Latest {
		start = "latest"
	}
	lab, err := composelab.New(composelab.Config{
		ComposeFile: a.cfg.ComposeFile,
		Generator:   cfg.Generator,
		Job:         cfg.Job,
		StartAt:     start,
		KeepCluster: a.cfg.KeepCluster,
	})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := lab.Preflight(ctx); err != nil {
		lab.Close()
		var pe *composelab.PreflightError
		if errors.As(err, &pe) {
			return nil, exitError{code: 1, msg: pe.Error()}
		}
		return nil, err
	}
	return lab, nil
}

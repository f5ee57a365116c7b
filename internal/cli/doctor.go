package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/labtui/labtui/compose"
	"github.com/labtui/labtui/inject"
	"github.com/labtui/labtui/internal/backend"
	clusterlab "github.com/labtui/labtui/internal/backend/clusterplatform"
	"github.com/labtui/labtui/internal/backend/flinklab"
	"github.com/labtui/labtui/internal/livejob"
	"github.com/labtui/labtui/internal/localcluster"
)

// newChecker builds the doctor's Checker; a test adds options (its own ports).
var newChecker = func() *compose.Checker { return compose.NewChecker() }

// doctorOptions are labtui doctor's.
type doctorOptions struct {
	Backend      string
	ClusterCache string
	Remote       remoteFlags
}

func (a *app) doctorCmd() *cobra.Command {
	o := &doctorOptions{}
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check that this machine can run a real lab (labtui --backend compose, cluster or remote)",
		Long: "doctor checks what a real lab needs. --backend compose (the default): the Docker CLI,\n" +
			"Docker Compose v2, a running Docker daemon, and ports 9092 (Kafka) and 8081 (Flink's web\n" +
			"UI) free on 127.0.0.1. --backend cluster: a JDK 17 or later, Python 3.11 with venv, the\n" +
			"install (or the disk to make it), memory for the JVMs, and the ports. --backend remote:\n" +
			"that Kafka answers at --brokers and Flink at --flink, and the install `flink run` comes\n" +
			"from. Each problem comes with the command or step that fixes it; the exit code is 1 if\n" +
			"there is one. The embedded lab (plain labtui) needs none of this.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runDoctor(cmd, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.Backend, "backend", "compose", "the lab to check: compose, cluster or remote")
	bindClusterCache(f, &o.ClusterCache)
	o.Remote.bind(f)
	return a.command(cmd, o)
}

func (a *app) runDoctor(cmd *cobra.Command, o *doctorOptions) error {
	var report compose.Report
	switch name := o.Backend; name {
	case "compose", "":
		report = newChecker().Check(cmd.Context())
	case "cluster", "remote":
		l, err := clusterLayout(o.ClusterCache)
		if err != nil {
			return err
		}
		if name == "cluster" {
			report = localcluster.Doctor(cmd.Context(), l)
		} else {
			brokers, flinkURL, err := o.Remote.addrs()
			if err != nil {
				return err
			}
			session := o.Remote.Session
			if session == "" {
				session = clusterlab.DefaultSession()
			}
			report = localcluster.DoctorRemote(cmd.Context(), l, brokers, flinkURL, flinklab.ResultsTopic(session))
		}
		return a.printDoctor(report, "labtui --backend "+name+" starts the lab")
	default:
		return fmt.Errorf("--backend must be compose, cluster or remote, not %q", name)
	}
	return a.printDoctor(report, "labtui --backend compose starts the compose lab")
}

// printDoctor prints each check and ends with ready, or the count of problems.
func (a *app) printDoctor(report compose.Report, ready string) error {
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
	fmt.Fprintln(a.stdout, "ready: "+ready)
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
func (a *app) composeBackend(o *tuiOptions, lossless bool) (backend.Backend, error) {
	cfg, err := a.labConfig(o.labOptions)
	if err != nil {
		return nil, err
	}
	hiccups, err := inject.ParseHiccups(o.Faults.Hiccups)
	if err != nil {
		return nil, err
	}
	start := "earliest"
	if cfg.StartAt == livejob.Latest {
		start = "latest"
	}
	lab, err := flinklab.New(flinklab.Config{
		ComposeFile: a.global.ComposeFile,
		Generator:   cfg.Generator,
		Job:         cfg.Job,
		StartAt:     start,
		KeepCluster: a.global.KeepCluster,
		Hiccups:     hiccups,
		Lossless:    lossless,
	})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := lab.Preflight(ctx); err != nil {
		lab.Close()
		var pe *flinklab.PreflightError
		if errors.As(err, &pe) {
			return nil, exitError{code: 1, msg: pe.Error()}
		}
		return nil, err
	}
	return lab, nil
}

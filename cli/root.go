// Package cli is the labtui command line: the root command, its subcommands and the
// configuration they share (viper: a config file, LABTUI_* environment variables, flags).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

// app is what every subcommand shares: the configuration source and the streams.
type app struct {
	v      *viper.Viper
	stdout io.Writer
	stderr io.Writer
	cfgErr error
}

// Execute runs labtui with os.Args and returns the process exit code.
func Execute() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
}

// Run runs labtui with args, writing to stdout and stderr, and returns the exit code.
// Errors are printed as one plain sentence on stderr.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	a := &app{v: viper.New(), stdout: stdout, stderr: stderr}
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	if err := root.ExecuteContext(ctx); err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			if ee.msg != "" {
				fmt.Fprintln(stderr, "labtui:", ee.msg)
			}
			return ee.code
		}
		fmt.Fprintln(stderr, "labtui:", err)
		return 1
	}
	return 0
}

// exitError ends labtui with a code, after printing msg (if any).
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return e.msg }

func (a *app) rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "labtui",
		Short: "The terminal companion for Lab 4, event time and processing time",
		Long: "labtui runs Lab 4 of the Flink course (event time and processing time): a Kafka-protocol\n" +
			"broker, gateway instances, and a stream engine that computes both TenantCost windows\n" +
			"exactly as Apache Flink would.",
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			return a.loadConfig(cmd)
		},
	}
	root.PersistentFlags().String("config", "", "config file (default $XDG_CONFIG_HOME/labtui/config.yaml)")
	a.setupTUI(root)
	root.AddCommand(a.replayCmd(), a.exportCmd(), a.runCmd(), a.brokerCmd(), a.recordCmd(), a.feedCmd(), a.doctorCmd())
	root.AddCommand(a.diffCmd(), a.movedCmd(), a.skewCmd())
	return root
}

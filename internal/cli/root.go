// Package cli is the labtui command line: the root command, its subcommands and the
// settings they share, settled once from flags, LABTUI_* variables and a config file.
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
	"github.com/spf13/pflag"
)

// app is what every subcommand shares: the options every command has, where the
// settled options came from, and the streams.
type app struct {
	global globalOptions
	// where says where each option that was set came from ("--rate", "LABTUI_RATE",
	// "rate in FILE"); an option left at its flag's default is absent.
	where map[string]string
	// options holds, by command, the struct the command's flags are bound to.
	options map[*cobra.Command]any
	stdout  io.Writer
	stderr  io.Writer
}

// command records that cmd's flags are bound to opts, and returns cmd.
func (a *app) command(cmd *cobra.Command, opts any) *cobra.Command {
	if a.options == nil {
		a.options = map[*cobra.Command]any{}
	}
	a.options[cmd] = opts
	return cmd
}

// Execute runs labtui with os.Args and returns the process exit code.
func Execute() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
}

// Run runs labtui with args, writing to stdout and stderr, and returns the exit code.
// Errors are printed as one plain sentence on stderr.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	a := &app{stdout: stdout, stderr: stderr}
	return a.execute(ctx, a.rootCmd(), args)
}

// execute runs root with args and returns the exit code, printing an error as one
// plain sentence on a's stderr.
func (a *app) execute(ctx context.Context, root *cobra.Command, args []string) int {
	stdout, stderr := a.stdout, a.stderr
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
	root.SetFlagErrorFunc(flagError)
	pf := root.PersistentFlags()
	pf.String("config", "", "config file (default $XDG_CONFIG_HOME/labtui/config.yaml; LABTUI_CONFIG)")
	a.global.bind(pf)
	a.setupTUI(root)
	root.AddCommand(a.replayCmd(), a.exportCmd(), a.runCmd(), a.brokerCmd(), a.recordCmd(), a.feedCmd(), a.doctorCmd(), a.clusterCmd())
	root.AddCommand(a.diffCmd(), a.movedCmd(), a.skewCmd())
	return root
}

// flagError is a command line flag that does not parse, or that no command has, as one
// sentence, and exit status 2.
func flagError(cmd *cobra.Command, err error) error {
	var iv *pflag.InvalidValueError
	if errors.As(err, &iv) {
		f := iv.GetFlag()
		return exitError{code: 2, msg: badValue("--"+f.Name+" "+quoteIfNeeded(iv.GetValue()), ruleFor(cmd.Name(), f.Name, f)).Error()}
	}
	return exitError{code: 2, msg: err.Error()}
}

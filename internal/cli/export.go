package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/labtui/labtui/internal/export"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/internal/state"
)

func (a *app) exportCmd() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write your Lab 4 answers and the evidence labtui captured to lab-04-answers.md and .json",
		Long: "export reads the answers and progress labtui autosaved (in $XDG_STATE_HOME/labtui) and\n" +
			"writes lab-04-answers.md and lab-04-answers.json: per exercise your answers and the\n" +
			"evidence captured, the same files the `e` key writes.",
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error { return a.runExport(dir) },
	}
	cmd.Flags().StringVar(&dir, "export-dir", ".", "where to write the two files")
	return a.command(cmd, &dir)
}

// runExport writes the two files to dir.
func (a *app) runExport(dir string) error {
	store := state.NewStore(a.stateDir())
	st, found, err := store.Load()
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("nothing to export yet: no saved answers in %s; run labtui and answer in the lab panel first", store.Path())
	}
	session.Tables(&st)
	paths, err := export.Write(dir, st, time.Now())
	if err != nil {
		return err
	}
	for _, p := range paths {
		fmt.Fprintln(a.stdout, p)
	}
	return nil
}

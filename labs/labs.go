// Package labs carries the course's lab material that labtui needs wherever it runs: the
// recorded hour of Lab 4, embedded in the binary, so the `r` and `t` keys replay it from
// any working directory and from an installed labtui.
package labs

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
)

// RecordedHourPath is where the recorded hour sits in the repository.
const RecordedHourPath = "labs/04-event-time-and-processing-time/data/recorded-hour.jsonl.gz"

//go:embed 04-event-time-and-processing-time/data/recorded-hour.jsonl.gz
var recordedHour []byte

// RecordedHour returns the path of a copy of the embedded recorded hour in dir, writing
// it there first unless an identical copy is already there. The copy is written to a
// temporary file and renamed, so a reader never sees half of it.
func RecordedHour(dir string) (string, error) {
	path := filepath.Join(dir, filepath.Base(RecordedHourPath))
	if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, recordedHour) {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("cannot write the recorded hour: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".recorded-hour-*")
	if err != nil {
		return "", fmt.Errorf("cannot write the recorded hour: %w", err)
	}
	_, err = tmp.Write(recordedHour)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("cannot write the recorded hour: %w", err)
	}
	return path, nil
}

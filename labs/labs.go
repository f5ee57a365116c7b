// Package labs carries the course's lab material that labtui needs wherever it runs: the
// recorded hour of Lab 4, embedded in the binary, so the `r` and `t` keys replay it from
// any working directory and from an installed labtui, and the lab's PyFlink job, which
// the cluster backend submits to the Flink it runs.
package labs

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"

	"github.com/labtui/labtui/internal/fileerr"
)

// RecordedHourPath is where the recorded hour sits in the repository.
const RecordedHourPath = "labs/04-event-time-and-processing-time/data/recorded-hour.jsonl.gz"

//go:embed 04-event-time-and-processing-time/data/recorded-hour.jsonl.gz
var recordedHour []byte

// jobScriptPath is where the lab's PyFlink job sits in the repository.
const jobScriptPath = "labs/04-event-time-and-processing-time/job/gateway_meter.py"

//go:embed 04-event-time-and-processing-time/job/gateway_meter.py
var jobScript []byte

// RecordedHour returns the path of a copy of the embedded recorded hour in dir, writing
// it there first unless an identical copy is already there. The copy is written to a
// temporary file and renamed, so a reader never sees half of it.
func RecordedHour(dir string) (string, error) {
	return writeCopy(dir, RecordedHourPath, recordedHour, "the recorded hour")
}

// JobScript returns the path of a copy of the lab's PyFlink job (gateway_meter.py) in
// dir, written as RecordedHour writes its copy.
func JobScript(dir string) (string, error) {
	return writeCopy(dir, jobScriptPath, jobScript, "the lab's job")
}

// writeCopy writes data to dir under the base name of repoPath unless an identical copy
// is there, through a temporary file and a rename.
func writeCopy(dir, repoPath string, data []byte, what string) (string, error) {
	path := filepath.Join(dir, filepath.Base(repoPath))
	if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, data) {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("cannot write %s: %w", what, fileerr.Write(dir, err))
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(repoPath)+"-*")
	if err != nil {
		return "", fmt.Errorf("cannot write %s: %w", what, fileerr.Write(path, err))
	}
	_, err = tmp.Write(data)
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
		return "", fmt.Errorf("cannot write %s: %w", what, fileerr.Write(path, err))
	}
	return path, nil
}

// Package fileerr says why a file could not be written in words a learner can act on:
// the folder or file, and the system's reason ("permission denied", "read-only file
// system"), never the name of a temporary file the write went through.
package fileerr

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// WriteError is a file (or folder) that could not be written.
type WriteError struct {
	// Path is the file or folder that was to be written.
	Path string
	// Err is the system's error.
	Err error
}

// Error is "cannot write PATH: REASON".
func (e *WriteError) Error() string { return "cannot write " + e.Path + ": " + Reason(e.Err) }

// Unwrap returns the system's error.
func (e *WriteError) Unwrap() error { return e.Err }

// Reason is the system's reason for err without the paths it names: "permission
// denied" for an *fs.PathError of EACCES, say.
func Reason(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}

// Write wraps err, if any, as a WriteError of path.
func Write(path string, err error) error {
	if err == nil {
		return nil
	}
	return &WriteError{Path: path, Err: err}
}

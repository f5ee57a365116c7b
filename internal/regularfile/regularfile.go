// Package regularfile reads files that must be ordinary files on disk (the saved
// answers, the config file) without the ways a special file hangs a read: a named
// pipe blocks opening it until a writer comes, and /dev/zero or a pipe never ends.
// Both are refused before a byte is read, and an ordinary file larger than the limit
// is refused instead of read into memory.
package regularfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// NotRegularError is a path that is not an ordinary file.
type NotRegularError struct {
	Path string
	// Kind says what it is instead: "a named pipe", "a device", "a folder", "a socket".
	Kind string
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a file", e.Path, e.Kind)
}

// TooLargeError is an ordinary file larger than a read allows.
type TooLargeError struct {
	Path  string
	Size  int64
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is %d bytes, more than the %d it may be", e.Path, e.Size, e.Limit)
}

// Read returns the contents of the ordinary file at path, at most limit bytes. A path
// that is not an ordinary file is a *NotRegularError, one larger than limit a
// *TooLargeError; a missing one is an error that errors.Is os.ErrNotExist. Opening never
// waits for a pipe's writer.
func Read(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Kind: Kind(fi.Mode())}
	}
	if fi.Size() > limit {
		return nil, &TooLargeError{Path: path, Size: fi.Size(), Limit: limit}
	}
	// The file may grow while it is read: never more than limit+1 bytes.
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Path: path, Size: int64(len(data)), Limit: limit}
	}
	return data, nil
}

// Kind names what a file mode that is not an ordinary file's is.
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not an ordinary file"
}

package recording

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
)

// Writer writes entries in labtui's format, one line each.
type Writer struct {
	bw      *bufio.Writer
	closers []io.Closer
	buf     []byte
}

// Create creates (or truncates) a recording file, gzip-compressed when its name ends in
// .gz. Gzip output is deterministic: no name and no modification time in its header.
func Create(path string) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cannot write recording: %w", err)
	}
	if strings.HasSuffix(path, ".gz") {
		gz, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
		return &Writer{bw: bufio.NewWriterSize(gz, 256*1024), closers: []io.Closer{gz, f}}, nil
	}
	return &Writer{bw: bufio.NewWriterSize(f, 256*1024), closers: []io.Closer{f}}, nil
}

// newWriter writes entries to w.
func newWriter(w io.Writer) *Writer { return &Writer{bw: bufio.NewWriterSize(w, 64*1024)} }

// Write writes one entry.
func (w *Writer) Write(e Entry) error {
	w.buf = append(e.AppendJSON(w.buf[:0]), '\n')
	_, err := w.bw.Write(w.buf)
	return err
}

// Close flushes and closes the file.
func (w *Writer) Close() error {
	err := w.bw.Flush()
	for _, c := range w.closers {
		if cerr := c.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	return err
}

package jobspec

import (
	"bufio"
	"io"
)

// Format is how results are written: Flink's print-sink text or JSON lines.
type Format uint8

const (
	// Text is Flink's print-sink format, `event-time> {…}`, with readable UTC times.
	Text Format = iota
	// JSONL is one JSON object a line, with a "sink" key.
	JSONL
)

// String names the format as the --format flag does.
func (f Format) String() string {
	if f == JSONL {
		return "jsonl"
	}
	return "text"
}

// Printer writes results, one line each, through a buffer.
type Printer struct {
	w   *bufio.Writer
	f   Format
	buf []byte
	err error
}

// NewPrinter returns a Printer writing to w in format f.
func NewPrinter(w io.Writer, f Format) *Printer {
	return &Printer{w: bufio.NewWriterSize(w, 64*1024), f: f}
}

// Print writes one result. After a write error, Print does nothing and Flush returns it.
func (p *Printer) Print(r Result) {
	if p.err != nil {
		return
	}
	if p.f == JSONL {
		p.buf = r.AppendJSON(p.buf[:0])
	} else {
		p.buf = r.AppendText(p.buf[:0])
	}
	p.buf = append(p.buf, '\n')
	_, p.err = p.w.Write(p.buf)
}

// Flush writes what is buffered and returns the first write error.
func (p *Printer) Flush() error {
	if p.err != nil {
		return p.err
	}
	return p.w.Flush()
}

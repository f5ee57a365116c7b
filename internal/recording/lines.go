package recording

import (
	"bytes"
	"io"
)

// maxLine is the longest line a recording may hold, 16 MiB: a longer line is skipped as
// one bad line, and reading goes on at the line after it.
const maxLine = 16 << 20

// lineReader splits its input into lines, as bufio.Scanner with ScanLines does, with two
// differences a recording needs: a line longer than MaxLine is stepped over (its length is
// returned) instead of ending the read, and the bytes before a read error that no newline
// ended are not a line (a damaged file's torn last record is not handed on as data).
type lineReader struct {
	r          io.Reader
	buf        []byte
	start, end int
	// scanned is how far past start the buffer is known to hold no newline.
	scanned int
	err     error
	// off is the input offset of buf[start]: the bytes handed out as lines, with their
	// newlines, and those stepped over.
	off int64
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: r, buf: make([]byte, 64<<10)}
}

// next returns the next line, without its "\n" or "\r\n", valid until the next call.
// For a line longer than MaxLine it returns a nil line and the line's length in long.
// At the end of the input it returns io.EOF; a read error is returned once the lines
// before it are all handed out.
func (l *lineReader) next() (line []byte, long int64, err error) {
	for {
		if i := bytes.IndexByte(l.buf[l.start+l.scanned:l.end], '\n'); i >= 0 {
			n := l.scanned + i
			line = l.buf[l.start : l.start+n]
			l.start += n + 1
			l.off += int64(n + 1)
			l.scanned = 0
			return dropCR(line), 0, nil
		}
		l.scanned = l.end - l.start
		if l.end-l.start > maxLine {
			return nil, l.skipLong(), nil
		}
		if l.err != nil {
			if l.err == io.EOF && l.end > l.start { // a last line without a newline
				line = l.buf[l.start:l.end]
				l.off += int64(l.end - l.start)
				l.start, l.scanned = l.end, 0
				return dropCR(line), 0, nil
			}
			return nil, 0, l.err
		}
		l.fill()
	}
}

// skipLong steps over the rest of a line that is longer than MaxLine, up to and with its
// newline, and returns the whole line's length without the newline.
func (l *lineReader) skipLong() int64 {
	n := int64(l.end - l.start)
	l.off += n
	l.start, l.end, l.scanned = 0, 0, 0
	for {
		if i := bytes.IndexByte(l.buf[l.start:l.end], '\n'); i >= 0 {
			n += int64(i)
			l.off += int64(i + 1)
			l.start += i + 1
			return n
		}
		n += int64(l.end - l.start)
		l.off += int64(l.end - l.start)
		l.start, l.end = 0, 0
		if l.err != nil {
			return n
		}
		l.fill()
	}
}

// fill reads more input into the buffer, moving what is left to its front or growing it
// (up to a little over MaxLine) when it is full.
func (l *lineReader) fill() {
	if l.start > 0 && (l.end == len(l.buf) || l.start == l.end) {
		copy(l.buf, l.buf[l.start:l.end])
		l.end -= l.start
		l.start = 0
	}
	if l.end == len(l.buf) {
		size := min(2*len(l.buf), maxLine+1)
		if size <= len(l.buf) { // full at the limit: next() steps over the line
			return
		}
		buf := make([]byte, size)
		copy(buf, l.buf[l.start:l.end])
		l.end -= l.start
		l.start = 0
		l.buf = buf
	}
	for range 100 {
		n, err := l.r.Read(l.buf[l.end:])
		l.end += n
		if err != nil {
			l.err = err
			return
		}
		if n > 0 {
			return
		}
	}
	l.err = io.ErrNoProgress
}

func dropCR(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '\r' {
		return b[:len(b)-1]
	}
	return b
}

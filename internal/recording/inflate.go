package recording

import (
	"io"
	"os"
)

// inflateChunk is how many decompressed bytes a chunk inflated ahead holds, and
// inflateAhead how many chunks the decompression may be ahead of the reading.
const (
	inflateChunk = 256 << 10
	inflateAhead = 4
)

// inflater runs a decompressing reader on a goroutine of its own, a chunk at a time:
// on two cores the gzip data is inflated while the lines before it are parsed. It hands
// on the bytes, then the error, exactly as the decompressing reader gave them, so a
// damaged file keeps every line before the damage.
type inflater struct {
	full chan inflated
	free chan []byte
	quit chan struct{}
	done chan struct{}
	// cur is what is left of the chunk being read, buf that chunk's whole buffer.
	cur, buf []byte
	err      error
	// at is where in the file as stored the decompression stood when it returned err.
	at int64
}

// inflated is a chunk of decompressed bytes, then the error the decompression returned
// after them (nil while there is more) and where in the stored file it stood then.
type inflated struct {
	b   []byte
	err error
	at  int64
}

// inflateAheadOf starts reading src; offset says where in the stored file src stands.
func inflateAheadOf(src io.Reader, offset func() int64) *inflater {
	z := &inflater{
		full: make(chan inflated, inflateAhead),
		free: make(chan []byte, inflateAhead+1),
		quit: make(chan struct{}),
		done: make(chan struct{}),
	}
	for range inflateAhead + 1 {
		z.free <- make([]byte, inflateChunk)
	}
	go z.run(src, offset)
	return z
}

func (z *inflater) run(src io.Reader, offset func() int64) {
	defer close(z.done)
	defer close(z.full)
	for {
		var buf []byte
		select {
		case buf = <-z.free:
		case <-z.quit:
			return
		}
		n, err := fill(src, buf)
		var at int64
		if err != nil {
			at = offset()
		}
		select {
		case z.full <- inflated{buf[:n], err, at}:
		case <-z.quit:
			return
		}
		if err != nil {
			return
		}
	}
}

// fill reads src into buf until buf is full or src returns an error, which it returns
// as src did (io.ReadFull would make an end of the data within buf an early one).
func fill(src io.Reader, buf []byte) (n int, err error) {
	for empty := 0; n < len(buf) && err == nil; {
		var m int
		m, err = src.Read(buf[n:])
		n += m
		if m == 0 && err == nil {
			if empty++; empty == 100 {
				err = io.ErrNoProgress
			}
		}
	}
	return n, err
}

// Read reads the decompressed bytes, then the error that ended them.
func (z *inflater) Read(p []byte) (int, error) {
	for len(z.cur) == 0 {
		if z.err != nil {
			return 0, z.err
		}
		if z.buf != nil {
			z.free <- z.buf[:cap(z.buf)]
		}
		c, ok := <-z.full
		if !ok { // read after Close
			c.err = os.ErrClosed
		}
		z.cur, z.buf, z.err, z.at = c.b, c.b, c.err, c.at
	}
	n := copy(p, z.cur)
	z.cur = z.cur[n:]
	return n, nil
}

// offset is where in the stored file the decompression stood when it returned its
// error, for a ReadError.
func (z *inflater) offset() int64 { return z.at }

// stop ends the decompression and waits for its goroutine; close, which closes the file,
// is called in between, so that a read of the file blocked there returns.
func (z *inflater) stop(closeFile func() error) error {
	select {
	case <-z.quit:
	default:
		close(z.quit)
	}
	err := closeFile()
	<-z.done
	return err
}

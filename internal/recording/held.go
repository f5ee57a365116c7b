package recording

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// heldInMemory is how many of a hiccup's held entries wait in memory; the rest wait in a
// temporary file, so a long hiccup costs disk (about 250 bytes an event), not memory.
var heldInMemory = 20_000

// heldQueue is one hiccup's held entries in the order they arrive: a hiccup releases its
// events in the order it held them, one millisecond apart, and only after it ends, when
// it holds no more. So its entries are all added before the first is taken.
type heldQueue struct {
	inHeap bool
	mem    []*simPending
	head   int
	file   *os.File
	w      *bufio.Writer
	r      *bufio.Reader
	// spilled counts the entries in the file not yet taken.
	spilled int64
	scratch []byte
}

// add appends an entry, to the file once heldInMemory wait in memory; q takes back what
// is written out.
func (h *heldQueue) add(p *simPending, q *simQueue) error {
	if h.r != nil {
		return errors.New("simulate: a hiccup held an event after it released one")
	}
	if len(h.mem) < heldInMemory && h.file == nil {
		h.mem = append(h.mem, p)
		return nil
	}
	if h.file == nil {
		f, err := os.CreateTemp("", "labtui-simulate-*")
		if err != nil {
			return fmt.Errorf("a hiccup holds more events than fit in memory, and a temporary file cannot hold them: %w", err)
		}
		os.Remove(f.Name()) // the open file is all that is needed; nothing is left behind
		h.file, h.w = f, bufio.NewWriterSize(f, 256<<10)
	}
	b := h.scratch[:0]
	b = binary.AppendVarint(b, p.seq)
	b = binary.AppendVarint(b, int64(p.e.Partition))
	b = binary.AppendVarint(b, p.e.Timestamp)
	b = binary.AppendVarint(b, p.e.Arrival)
	flags := byte(0)
	if p.started {
		flags = 1
	}
	b = append(b, flags)
	b = binary.AppendUvarint(b, uint64(len(p.e.Key)))
	b = binary.AppendUvarint(b, uint64(len(p.e.Value)))
	b = append(append(b, p.e.Key...), p.e.Value...)
	h.scratch = b
	h.spilled++
	q.free = append(q.free, p)
	if _, err := h.w.Write(b); err != nil {
		return fmt.Errorf("write held events to a temporary file: %w", err)
	}
	return nil
}

// take returns the next entry, nil when none is left.
func (h *heldQueue) take(q *simQueue) (*simPending, error) {
	if h.head < len(h.mem) {
		p := h.mem[h.head]
		h.mem[h.head] = nil
		h.head++
		return p, nil
	}
	if h.spilled == 0 {
		return nil, nil
	}
	if h.r == nil {
		if err := h.w.Flush(); err != nil {
			return nil, fmt.Errorf("write held events to a temporary file: %w", err)
		}
		if _, err := h.file.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		h.r = bufio.NewReaderSize(h.file, 256<<10)
	}
	h.spilled--
	p := q.get()
	var n [7]int64
	for i := range n {
		var err error
		if i == 4 {
			var c byte
			c, err = h.r.ReadByte()
			n[i] = int64(c)
		} else if i < 4 {
			n[i], err = binary.ReadVarint(h.r)
		} else {
			var u uint64
			u, err = binary.ReadUvarint(h.r)
			n[i] = int64(u)
		}
		if err != nil {
			return nil, fmt.Errorf("read held events back from a temporary file: %w", err)
		}
	}
	k, v := int(n[5]), int(n[6])
	p.buf = slices.Grow(p.buf[:0], k+v)[:k+v]
	if _, err := io.ReadFull(h.r, p.buf); err != nil {
		return nil, fmt.Errorf("read held events back from a temporary file: %w", err)
	}
	p.seq, p.started, p.held = n[0], n[4] == 1, true
	p.e = Entry{Partition: int32(n[1]), Timestamp: n[2], Arrival: n[3], Key: p.buf[:k:k], Value: p.buf[k:]}
	return p, nil
}

func (h *heldQueue) close() {
	if h.file != nil {
		h.file.Close()
	}
}

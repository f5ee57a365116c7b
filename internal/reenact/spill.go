package reenact

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/labtui/labtui/internal/jobspec"
)

// spill holds a job's results in the order they were added until they are let out: at
// most heldResults of the newest in memory, the rest in a temporary file (about 120
// bytes a result), so what a replay holds back costs disk, not
// memory, however long the recording. When no temporary file can be made, the rest are
// held in memory, and room says so; when one cannot be written, each says so.
type spill struct {
	mem []jobspec.Result
	// file holds the first spilled results, written through w; failed says it cannot
	// take more (mem then grows).
	file    *os.File
	w       *bufio.Writer
	spilled int
	failed  bool
	err     error
	scratch []byte
	lenBuf  [binary.MaxVarintLen64]byte
}

// add appends r.
func (s *spill) add(r jobspec.Result) {
	if len(s.mem) == heldResults && !s.failed {
		s.writeOut()
	}
	if s.mem == nil {
		s.mem = make([]jobspec.Result, 0, chunkSize)
	}
	s.mem = append(s.mem, r)
}

// writeOut moves the results in memory to the file, or marks the file failed.
func (s *spill) writeOut() {
	if s.file == nil {
		f, err := os.CreateTemp("", "labtui-replay-*")
		if err != nil {
			s.failed = true
			return
		}
		os.Remove(f.Name()) // the open file is all that is needed; nothing is left behind
		s.file, s.w = f, bufio.NewWriterSize(f, 256<<10)
	}
	for i := range s.mem {
		// Each result is its length, then its encoding, so that it is read back whole
		// and decoded from memory, not a byte at a time from the file.
		s.scratch = appendResult(append(s.scratch[:0], make([]byte, binary.MaxVarintLen64)...), &s.mem[i])
		n := len(s.scratch) - binary.MaxVarintLen64
		head := binary.AppendUvarint(s.lenBuf[:0], uint64(n))
		rec := s.scratch[binary.MaxVarintLen64-len(head):]
		copy(rec, head)
		if _, err := s.w.Write(rec); err != nil {
			// What the file holds is no longer known: each reports the error.
			s.failed, s.err = true, fmt.Errorf("write held results to a temporary file: %w", err)
			return
		}
		s.spilled++
	}
	clear(s.mem)
	s.mem = s.mem[:0]
}

// len is how many results were added.
func (s *spill) len() int { return s.spilled + len(s.mem) }

// room says whether a job may hand more results to s without its memory growing past
// heldResults: always while s can spill, else up to max(heldResults, limit).
func (s *spill) room(limit int) bool {
	return !s.failed || s.len() < max(heldResults, limit)
}

// each calls f with every result added, in order, and lets go of them (s is empty then).
// An error writing the file calls f with none; an error reading it back ends it.
func (s *spill) each(f func(jobspec.Result)) error {
	if s.err != nil {
		err := s.err
		s.close()
		*s = spill{}
		return err
	}
	if s.file != nil {
		err := s.w.Flush()
		if err == nil {
			_, err = s.file.Seek(0, io.SeekStart)
		}
		if err != nil {
			return fmt.Errorf("write held results to a temporary file: %w", err)
		}
		r := bufio.NewReaderSize(s.file, 256<<10)
		var d resultDecoder
		for range s.spilled {
			res, err := d.read(r)
			if err != nil {
				return fmt.Errorf("read held results back from a temporary file: %w", err)
			}
			f(res)
		}
		s.close()
	}
	mem := s.mem
	*s = spill{}
	for i := range mem {
		f(mem[i])
		mem[i] = jobspec.Result{} // a result handed on is garbage: a sink that keeps results copies them
	}
	return nil
}

// close lets go of the temporary file.
func (s *spill) close() {
	if s.file != nil {
		s.file.Close()
		s.file, s.w, s.spilled = nil, nil, 0
	}
}

// appendResult appends r's encoding to b: every field of jobspec.Result, gateway's
// TenantCostMinute and jobspec.RecordTrace, in order (TestSpillRoundTripsEveryField checks
// that none is missed).
func appendResult(b []byte, r *jobspec.Result) []byte {
	b = append(b, byte(r.Kind), byte(r.Window))
	b = appendInt(b, r.At)
	m := &r.Minute
	b = appendString(b, m.TenantID)
	b = appendInt(b, m.WindowStart)
	b = appendInt(b, m.WindowEnd)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.USD))
	b = appendInt(b, m.Requests)
	t := &r.Record
	b = appendString(b, t.RequestID)
	b = appendString(b, t.TenantID)
	b = appendString(b, t.Gateway)
	for _, n := range [...]int64{t.Timestamp, t.KafkaTimestamp, t.Arrival, t.Watermark, t.EventWindowEnd, t.ProcessingWindowEnd} {
		b = appendInt(b, n)
	}
	late := byte(0)
	if t.Late {
		late = 1
	}
	b = append(b, late)
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(t.USD))
}

// appendInt appends n in 8 bytes: the times a result holds take 6 or more as varints
// (10 for the watermark's minimum), and a fixed width is read without a loop.
func appendInt(b []byte, n int64) []byte { return binary.LittleEndian.AppendUint64(b, uint64(n)) }

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// resultDecoder reads results appendResult wrote, each after its length, sharing the
// strings that repeat (tenants, gateways) between them.
type resultDecoder struct {
	names map[string]string
	rec   []byte // the rest of the result being decoded
	err   error
}

// internedNames bounds how many distinct tenants and gateways a decoder shares.
const internedNames = 4096

var errShortResult = errors.New("a held result is cut short")

func (d *resultDecoder) read(r *bufio.Reader) (res jobspec.Result, err error) {
	n, err := binary.ReadUvarint(r)
	if err == nil && n > math.MaxInt32 {
		err = errors.New("a held result longer than any result")
	}
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return res, err
	}
	if uint64(cap(d.rec)) < n {
		d.rec = make([]byte, n)
	}
	buf := d.rec[:n]
	if _, err := io.ReadFull(r, buf); err != nil {
		return res, err
	}
	d.rec, d.err = buf, nil
	res.Kind, res.Window = jobspec.Kind(d.byte()), jobspec.Kind(d.byte())
	res.At = d.int()
	m := &res.Minute
	m.TenantID = d.name()
	m.WindowStart, m.WindowEnd = d.int(), d.int()
	m.USD = d.float()
	m.Requests = d.int()
	t := &res.Record
	t.RequestID = d.string()
	t.TenantID, t.Gateway = d.name(), d.name()
	for _, n := range [...]*int64{&t.Timestamp, &t.KafkaTimestamp, &t.Arrival, &t.Watermark, &t.EventWindowEnd, &t.ProcessingWindowEnd} {
		*n = d.int()
	}
	t.Late = d.byte() == 1
	t.USD = d.float()
	if d.err == nil && len(d.rec) != 0 {
		d.err = errors.New("a held result is longer than its fields")
	}
	d.rec = buf[:0] // reused for the next result
	return res, d.err
}

func (d *resultDecoder) byte() byte {
	if d.err != nil || len(d.rec) == 0 {
		d.err = cmp.Or(d.err, errShortResult)
		return 0
	}
	c := d.rec[0]
	d.rec = d.rec[1:]
	return c
}

func (d *resultDecoder) int() int64 {
	if d.err != nil || len(d.rec) < 8 {
		d.err = cmp.Or(d.err, errShortResult)
		return 0
	}
	v := int64(binary.LittleEndian.Uint64(d.rec))
	d.rec = d.rec[8:]
	return v
}

func (d *resultDecoder) float() float64 {
	if d.err != nil || len(d.rec) < 8 {
		d.err = cmp.Or(d.err, errShortResult)
		return 0
	}
	f := math.Float64frombits(binary.LittleEndian.Uint64(d.rec))
	d.rec = d.rec[8:]
	return f
}

// bytes returns a string's bytes, in the result being decoded.
func (d *resultDecoder) bytes() []byte {
	if d.err != nil {
		return nil
	}
	n, k := binary.Uvarint(d.rec)
	if k <= 0 || n > uint64(len(d.rec)-k) {
		d.err = errShortResult
		return nil
	}
	b := d.rec[k : k+int(n)]
	d.rec = d.rec[k+int(n):]
	return b
}

func (d *resultDecoder) string() string {
	if b := d.bytes(); len(b) > 0 {
		return string(b)
	}
	return ""
}

// name is string for what repeats from result to result: one copy each, up to
// internedNames of them.
func (d *resultDecoder) name() string {
	b := d.bytes()
	if len(b) == 0 {
		return ""
	}
	if s, ok := d.names[string(b)]; ok {
		return s
	}
	s := string(b)
	if d.names == nil {
		d.names = make(map[string]string)
	}
	if len(d.names) < internedNames {
		d.names[s] = s
	}
	return s
}

package replay

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/labtui/labtui/meter"
)

// spill holds a job's results in the order they were added until they are let out: at
// most heldResults of the newest in memory, the rest in a temporary file (under 100
// bytes a result), so what a replay holds back costs disk, not
// memory, however long the recording. When no temporary file can be made, the rest are
// held in memory, and room says so; when one cannot be written, each says so.
type spill struct {
	mem []meter.Result
	// file holds the first spilled results, written through w; failed says it cannot
	// take more (mem then grows).
	file    *os.File
	w       *bufio.Writer
	spilled int
	failed  bool
	err     error
	scratch []byte
}

// add appends r.
func (s *spill) add(r meter.Result) {
	if len(s.mem) == heldResults && !s.failed {
		s.writeOut()
	}
	if s.mem == nil {
		s.mem = make([]meter.Result, 0, chunkSize)
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
		s.scratch = appendResult(s.scratch[:0], &s.mem[i])
		if _, err := s.w.Write(s.scratch); err != nil {
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
func (s *spill) each(f func(meter.Result)) error {
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
		mem[i] = meter.Result{} // a result handed on is garbage: a sink that keeps results copies them
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

// appendResult appends r's encoding to b: every field of meter.Result, gateway's
// TenantCostMinute and meter.RecordTrace, in order (TestSpillRoundTripsEveryField checks
// that none is missed).
func appendResult(b []byte, r *meter.Result) []byte {
	b = append(b, byte(r.Kind), byte(r.Window))
	b = binary.AppendVarint(b, r.At)
	m := &r.Minute
	b = appendString(b, m.TenantID)
	b = binary.AppendVarint(b, m.WindowStart)
	b = binary.AppendVarint(b, m.WindowEnd)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.USD))
	b = binary.AppendVarint(b, m.Requests)
	t := &r.Record
	b = appendString(b, t.RequestID)
	b = appendString(b, t.TenantID)
	b = appendString(b, t.Gateway)
	for _, n := range [...]int64{t.Timestamp, t.KafkaTimestamp, t.Arrival, t.Watermark, t.EventWindowEnd, t.ProcessingWindowEnd} {
		b = binary.AppendVarint(b, n)
	}
	late := byte(0)
	if t.Late {
		late = 1
	}
	b = append(b, late)
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(t.USD))
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// resultDecoder reads results appendResult wrote, sharing the strings that repeat
// (tenants, gateways) between them.
type resultDecoder struct {
	names map[string]string
	buf   []byte
	err   error
}

// internedNames bounds how many distinct tenants and gateways a decoder shares.
const internedNames = 4096

func (d *resultDecoder) read(r *bufio.Reader) (res meter.Result, err error) {
	d.err = nil
	res.Kind, res.Window = meter.Kind(d.byte(r)), meter.Kind(d.byte(r))
	res.At = d.varint(r)
	m := &res.Minute
	m.TenantID = d.name(r)
	m.WindowStart, m.WindowEnd = d.varint(r), d.varint(r)
	m.USD = d.float(r)
	m.Requests = d.varint(r)
	t := &res.Record
	t.RequestID = d.string(r)
	t.TenantID, t.Gateway = d.name(r), d.name(r)
	for _, n := range [...]*int64{&t.Timestamp, &t.KafkaTimestamp, &t.Arrival, &t.Watermark, &t.EventWindowEnd, &t.ProcessingWindowEnd} {
		*n = d.varint(r)
	}
	t.Late = d.byte(r) == 1
	t.USD = d.float(r)
	if d.err == io.EOF {
		d.err = io.ErrUnexpectedEOF
	}
	return res, d.err
}

func (d *resultDecoder) byte(r *bufio.Reader) byte {
	if d.err != nil {
		return 0
	}
	c, err := r.ReadByte()
	d.err = err
	return c
}

func (d *resultDecoder) varint(r *bufio.Reader) int64 {
	if d.err != nil {
		return 0
	}
	n, err := binary.ReadVarint(r)
	d.err = err
	return n
}

func (d *resultDecoder) float(r *bufio.Reader) float64 {
	if d.err != nil {
		return 0
	}
	d.buf = d.buf[:0]
	for range 8 {
		d.buf = append(d.buf, d.byte(r))
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(d.buf))
}

// bytes reads a string's bytes into d.buf.
func (d *resultDecoder) bytes(r *bufio.Reader) []byte {
	if d.err != nil {
		return nil
	}
	n, err := binary.ReadUvarint(r)
	if err == nil && n > math.MaxInt32 {
		err = errors.New("a string longer than any result holds")
	}
	if d.err = err; err != nil {
		return nil
	}
	if uint64(cap(d.buf)) < n {
		d.buf = make([]byte, n)
	}
	d.buf = d.buf[:n]
	_, d.err = io.ReadFull(r, d.buf)
	return d.buf
}

func (d *resultDecoder) string(r *bufio.Reader) string {
	if b := d.bytes(r); len(b) > 0 {
		return string(b)
	}
	return ""
}

// name is string for what repeats from result to result: one copy each, up to
// internedNames of them.
func (d *resultDecoder) name(r *bufio.Reader) string {
	b := d.bytes(r)
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

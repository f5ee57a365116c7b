package generator

import "github.com/twmb/franz-go/pkg/kgo"

// arena hands out records and record bytes carved in order from large blocks, so that
// producing an event costs no allocation of its own and writes to memory next to the
// previous event's, which is what keeps the release loop fast at hundreds of thousands
// of events a second. A block is garbage once franz-go is done with every record carved
// from it. Not safe for concurrent use.
type arena struct {
	records []kgo.Record
	bytes   []byte
}

const (
	arenaRecords = 256
	arenaBytes   = 64 << 10
	// minFree is the room an event and its key need, with a margin; an event that needs
	// more gets a buffer of its own from append.
	minFree = 512
)

// record returns a zero record.
func (a *arena) record() *kgo.Record {
	if len(a.records) == 0 {
		a.records = make([]kgo.Record, arenaRecords)
	}
	r := &a.records[0]
	a.records = a.records[1:]
	return r
}

// free returns the empty start of the arena's free bytes, to append to.
func (a *arena) free() []byte {
	if cap(a.bytes)-len(a.bytes) < minFree {
		a.bytes = make([]byte, 0, arenaBytes)
	}
	return a.bytes[len(a.bytes):]
}

// used takes out of the free bytes what was appended to free's result dst to make
// written, unless append had to move written elsewhere.
func (a *arena) used(dst, written []byte) {
	if cap(written) == cap(dst) {
		a.bytes = a.bytes[:len(a.bytes)+len(written)]
	}
}

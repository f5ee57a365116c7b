package gateway

import "encoding/binary"

// lit is a literal of 8 to 24 bytes held as three little-endian words: its first
// eight bytes, the eight from offset mid (8, or its last eight when it is shorter than
// 16) and its last eight, so that matching it is three loads and compares, whatever
// the machine's byte order.
type lit struct {
	s                 string // the literal itself
	n, mid            int
	first, mid8, last uint64
}

// newLit returns s as a lit; it panics unless s is 8 to 24 bytes long.
func newLit(s string) lit {
	if len(s) < 8 || len(s) > 24 {
		panic("gateway: literal " + s + " is not 8 to 24 bytes long")
	}
	mid := min(8, len(s)-8)
	return lit{s: s, n: len(s), mid: mid, first: word(s), mid8: word(s[mid:]), last: word(s[len(s)-8:])}
}

// at reports whether data holds l at offset i, for 0 <= i.
func (l *lit) at(data []byte, i int) bool {
	return len(data)-i >= l.n &&
		(load(data, i)^l.first)|(load(data, i+l.mid)^l.mid8)|(load(data, i+l.n-8)^l.last) == 0
}

// load returns the eight bytes of b from offset i as a little-endian word.
func load(b []byte, i int) uint64 {
	return binary.LittleEndian.Uint64(b[i : i+8])
}

// word is the first eight bytes of s as a little-endian word.
func word(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

package flatjson

import (
	"encoding/binary"
	"math/bits"
)

// Lit is a literal of 8 to 24 bytes held as three little-endian words: its first
// eight bytes, the eight from offset mid (8, or its last eight when it is shorter than
// 16) and its last eight, so that matching it is three loads and compares, whatever
// the machine's byte order: the keys of a line in a known shape.
type Lit struct {
	s string // the literal itself
	// N is the literal's length.
	N                 int
	mid               int
	first, mid8, last uint64
}

// NewLit returns s as a Lit; it panics unless s is 8 to 24 bytes long.
func NewLit(s string) Lit {
	if len(s) < 8 || len(s) > 24 {
		panic("flatjson: literal " + s + " is not 8 to 24 bytes long")
	}
	mid := min(8, len(s)-8)
	return Lit{s: s, N: len(s), mid: mid, first: word(s), mid8: word(s[mid:]), last: word(s[len(s)-8:])}
}

// At reports whether data holds l at offset i, for 0 <= i.
func (l *Lit) At(data []byte, i int) bool {
	return len(data)-i >= l.N &&
		(load(data, i)^l.first)|(load(data, i+l.mid)^l.mid8)|(load(data, i+l.N-8)^l.last) == 0
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

// PlainStringEnd returns the offset of the quote that ends the string whose text starts
// at data[i], when the text holds no escape and no control character: ok is false at a
// backslash, a byte below 0x20 or the end of data before a quote. ascii says every byte
// of the text is below 0x80. It reads eight bytes a word while it can: a byte that is a
// quote, a backslash or below 0x20 is found by the lowest bit of a mask, which borrows
// from the bytes below it cannot set.
func PlainStringEnd(data []byte, i int) (end int, ascii, ok bool) {
	var high uint64
	for ; len(data)-i >= 8; i += 8 {
		w := load(data, i)
		stop := hasZero(w^(ones*'"')) | hasZero(w^(ones*'\\')) | (w-ones*0x20)&^w&(ones*0x80)
		if stop != 0 {
			k := bits.TrailingZeros64(stop) >> 3
			high |= w & (1<<(8*k) - 1)
			i += k
			return i, high&(ones*0x80) == 0, data[i] == '"'
		}
		high |= w
	}
	for ; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			return i, high&(ones*0x80) == 0, true
		case c == '\\' || c < 0x20:
			return i, false, false
		default:
			high |= uint64(c)
		}
	}
	return i, false, false
}

// ones has every byte 1: times a byte, a word of that byte.
const ones = 0x0101010101010101

// hasZero has the top bit of the lowest zero byte of w set, and none below it.
func hasZero(w uint64) uint64 { return (w - ones) &^ w & (ones * 0x80) }

package gateway

import "unicode/utf8"

// ReplaceInvalidUTF8 returns b with each maximal ill-formed subsequence replaced by
// U+FFFD: a lead byte and as many of the continuation bytes it allows as follow it count
// as one, as Java's UTF-8 decoder (and Python's) replace them. Go's own conversions
// replace each invalid byte apart, which would read "\xe2\x82" as two characters where
// the lab's job reads one.
func ReplaceInvalidUTF8(b []byte) []byte {
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			out = append(out, b[i])
			i++
			continue
		}
		if r, n := utf8.DecodeRune(b[i:]); r != utf8.RuneError || n > 1 {
			out = append(out, b[i:i+n]...)
			i += n
			continue
		}
		out = append(out, "\uFFFD"...)
		i += illFormedLen(b[i:])
	}
	return out
}

// illFormedLen is the length of the maximal ill-formed subsequence at the start of b,
// which does not start a valid character.
func illFormedLen(b []byte) int {
	lo, hi, need := byte(0x80), byte(0xBF), 0
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		lo, need = 0xA0, 2
	case c == 0xED:
		hi, need = 0x9F, 2
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		lo, need = 0x90, 3
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		hi, need = 0x8F, 3
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return n
}

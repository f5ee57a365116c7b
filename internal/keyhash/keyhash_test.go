package keyhash

import (
	"strings"
	"testing"
)

func TestStringAndBytesAgreeAndNeverReturnZero(t *testing.T) {
	seen := map[uint64]string{}
	for n := 0; n <= 40; n++ {
		for _, c := range []string{"r", "x", "\x00"} {
			k := strings.Repeat(c, n)
			h := String(k)
			if h == 0 {
				t.Fatalf("String(%q) = 0", k)
			}
			if b := Bytes([]byte(k)); b != h {
				t.Fatalf("Bytes(%q) = %x, String %x", k, b, h)
			}
			if other, ok := seen[h]; ok && other != k {
				t.Fatalf("%q and %q collide", k, other)
			}
			seen[h] = k
		}
	}
}

func TestEveryByteCounts(t *testing.T) {
	base := []byte("01234567-89ab-cdef-0123-456789abcdef") // a UUID's length
	h := Bytes(base)
	for i := range base {
		b := append([]byte(nil), base...)
		b[i] ^= 1
		if Bytes(b) == h {
			t.Errorf("flipping byte %d left the hash unchanged", i)
		}
	}
}

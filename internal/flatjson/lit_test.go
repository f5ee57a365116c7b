package flatjson

import "testing"

func TestLitMatchesOnlyItself(t *testing.T) {
	lits := []Lit{NewLit(`{"type":"`), NewLit(`","request_id":"`), NewLit(`,"completion_tokens":`), NewLit("12345678"), NewLit("123456789012345678901234")}
	for _, l := range lits {
		s := []byte(l.s)
		data := append([]byte("xx"), s...)
		if !l.At(data, 2) || l.At(data, 1) || l.At(data[:len(data)-1], 2) {
			t.Errorf("%q: at is wrong about the literal itself", s)
		}
		for k := range s {
			for _, c := range []byte{s[k] ^ 0x20, s[k] ^ 0x01, s[k] ^ 0x80, 0} {
				if c == s[k] {
					continue
				}
				d := append([]byte(nil), data...)
				d[2+k] = c
				if l.At(d, 2) {
					t.Errorf("%q matched %q", d[2:], s)
				}
			}
		}
	}
}

func TestNewLitRefusesWhatItCannotHold(t *testing.T) {
	for _, s := range []string{"1234567", "1234567890123456789012345"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewLit(%q) did not panic", s)
				}
			}()
			NewLit(s)
		}()
	}
}

// plainStringEndByByte is PlainStringEnd a byte at a time.
func plainStringEndByByte(data []byte, i int) (int, bool, bool) {
	ascii := true
	for ; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			return i, ascii, true
		case c == '\\' || c < 0x20:
			return i, false, false
		case c >= 0x80:
			ascii = false
		}
	}
	return i, false, false
}

// TestPlainStringEndFindsTheFirstStop: every byte value at every offset of a word, after
// plain text, non-ASCII text or none.
func TestPlainStringEndFindsTheFirstStop(t *testing.T) {
	for _, text := range []string{"", "r-tp9d40-0", "acme", "\xc3\xa9t\xc3\xa9-long-tenant-name", "a\x7f\xff"} {
		for c := range 256 {
			data := []byte("\"" + text + "?" + `","x":1}`)
			data[1+len(text)] = byte(c)
			for cut := 1 + len(text); cut <= len(data); cut++ {
				e1, a1, ok1 := PlainStringEnd(data[:cut], 1)
				e2, a2, ok2 := plainStringEndByByte(data[:cut], 1)
				if ok1 != ok2 || ok1 && (e1 != e2 || a1 != a2) {
					t.Fatalf("%q: %d %v %v, a byte at a time %d %v %v", data[:cut], e1, a1, ok1, e2, a2, ok2)
				}
			}
		}
	}
}

func FuzzPlainStringEndIsTheByteLoop(f *testing.F) {
	for _, s := range []string{`r-1","x"`, "ac\xffme\"", "a\\\"", "\x01\"", "12345678901234567\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for i := range len(data) {
			e1, a1, ok1 := PlainStringEnd(data, i)
			e2, a2, ok2 := plainStringEndByByte(data, i)
			if ok1 != ok2 || ok1 && (e1 != e2 || a1 != a2) {
				t.Fatalf("%q at %d: %d %v %v, a byte at a time %d %v %v", data, i, e1, a1, ok1, e2, a2, ok2)
			}
		}
	})
}

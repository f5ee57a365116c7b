package gateway

import "testing"

func TestLitMatchesOnlyItself(t *testing.T) {
	lits := append(stringLits[:], promptLit, completionLit, newLit("12345678"), newLit("123456789012345678901234"))
	for _, l := range lits {
		s := []byte(l.s)
		data := append([]byte("xx"), s...)
		if !l.at(data, 2) || l.at(data, 1) || l.at(data[:len(data)-1], 2) {
			t.Errorf("%q: at is wrong about the literal itself", s)
		}
		for k := range s {
			for _, c := range []byte{s[k] ^ 0x20, s[k] ^ 0x01, s[k] ^ 0x80, 0} {
				if c == s[k] {
					continue
				}
				d := append([]byte(nil), data...)
				d[2+k] = c
				if l.at(d, 2) {
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
					t.Errorf("newLit(%q) did not panic", s)
				}
			}()
			newLit(s)
		}()
	}
}

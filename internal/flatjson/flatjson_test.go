package flatjson

import (
	"errors"
	"testing"
)

func collect(t *testing.T, in string) (map[string]Field, error) {
	t.Helper()
	m := map[string]Field{}
	err := Fields([]byte(in), func(f Field) error { m[string(f.Key)] = f; return nil })
	return m, err
}

func TestFieldsReadsEveryKind(t *testing.T) {
	m, err := collect(t, ` {"s":"abc","e":"a\"b\u00e9","n":-12,"o":{"x":[1,"}"]},"a":[{"y":"]"}],"t":true,"z":null} `)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := m["s"].Str(); s != "abc" {
		t.Errorf("s = %q", s)
	}
	if s, _ := m["e"].Str(); s != `a"bé` {
		t.Errorf("e = %q", s)
	}
	if n, _ := m["n"].Int(); n != -12 {
		t.Errorf("n = %d", n)
	}
	if string(m["o"].Raw) != `{"x":[1,"}"]}` || m["o"].Kind != Object {
		t.Errorf("o = %s", m["o"].Raw)
	}
	if string(m["a"].Raw) != `[{"y":"]"}]` || m["a"].Kind != Array {
		t.Errorf("a = %s", m["a"].Raw)
	}
	if m["t"].Kind != Literal || m["z"].Kind != Literal {
		t.Errorf("literals %+v %+v", m["t"], m["z"])
	}
}

func TestFieldsRejectsWhatIsNotOneObject(t *testing.T) {
	for _, in := range []string{``, `[]`, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1} x`, `{"a":"b}`, `{"a":tru}`, `{"a":{"b":1}`, `not json`} {
		if _, err := collect(t, in); !errors.Is(err, ErrSyntax) {
			t.Errorf("Fields(%q) = %v, want a syntax error", in, err)
		}
	}
	if _, err := collect(t, `{}`); err != nil {
		t.Errorf("empty object: %v", err)
	}
}

func TestIntRejectsFractionsAndStrings(t *testing.T) {
	m, _ := collect(t, `{"f":1.5,"s":"1"}`)
	if _, err := m["f"].Int(); err == nil {
		t.Error("1.5 read as an integer")
	}
	if _, err := m["s"].Int(); err == nil {
		t.Error(`"1" read as an integer`)
	}
}

func FuzzFields(f *testing.F) {
	f.Add([]byte(`{"type":"RequestStarted","ts":1,"v":{"a":[1,2]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = Fields(b, func(Field) error { return nil })
	})
}

func TestNestedValuesStepOverEscapesInStrings(t *testing.T) {
	m, err := collect(t, `{"o":{"x":"a\"}b","y":"c\\"},"z":"d\\","w":["\"]"]}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(m["o"].Raw); got != `{"x":"a\"}b","y":"c\\"}` {
		t.Errorf("o = %s", got)
	}
	if s, _ := m["z"].Str(); s != `d\` {
		t.Errorf("z = %q", s)
	}
	if got := string(m["w"].Raw); got != `["\"]"]` {
		t.Errorf("w = %s", got)
	}
	if _, err := collect(t, `{"o":{"x":"a\"}`); !errors.Is(err, ErrSyntax) {
		t.Errorf("an object whose string never ends: %v", err)
	}
}

func TestIntReadsEveryInt64AndRefusesOverflow(t *testing.T) {
	ok := map[string]int64{
		"0": 0, "-0": 0, "7": 7, "-7": -7, "999999999999999999": 999999999999999999,
		"9223372036854775807": 9223372036854775807, "-9223372036854775808": -9223372036854775808,
	}
	for in, want := range ok {
		m, _ := collect(t, `{"n":`+in+`}`)
		if n, err := m["n"].Int(); err != nil || n != want {
			t.Errorf("%s: %d, %v", in, n, err)
		}
	}
	for _, in := range []string{"9223372036854775808", "-9223372036854775809", "99999999999999999999", "-", "1e3", "--1", "1-"} {
		m, _ := collect(t, `{"n":`+in+`}`)
		if n, err := m["n"].Int(); err == nil {
			t.Errorf("%s read as %d", in, n)
		}
	}
}

// scanIntByDigit is ScanInt a digit at a time, as it was written first: the reference
// its word-at-a-time reading must agree with.
func scanIntByDigit(data []byte, i int) (int64, int, bool) {
	neg := i < len(data) && data[i] == '-'
	if neg {
		i++
	}
	start := i
	var n int64
	for ; i < len(data) && data[i] >= '0' && data[i] <= '9'; i++ {
		n = n*10 + int64(data[i]-'0')
	}
	return finishInt(data, start, i, n, neg)
}

// TestScanIntReadsWordsAsDigits: up to 20 digits (a sign or not), then each byte value
// there is, at every offset a word may start at.
func TestScanIntReadsWordsAsDigits(t *testing.T) {
	const digits = "98765432109876543210"
	for _, sign := range []string{"", "-"} {
		for n := range len(digits) + 1 {
			for c := range 256 {
				data := []byte("x" + sign + digits[:n] + string(rune(0)) + "12345678")
				data[1+len(sign)+n] = byte(c)
				n1, e1, ok1 := ScanInt(data, 1)
				n2, e2, ok2 := scanIntByDigit(data, 1)
				if n1 != n2 || e1 != e2 || ok1 != ok2 {
					t.Fatalf("%q: ScanInt %d %d %v, a digit at a time %d %d %v", data, n1, e1, ok1, n2, e2, ok2)
				}
			}
		}
	}
}

func FuzzScanIntIsTheDigitLoop(f *testing.F) {
	for _, s := range []string{"1795946400000,", "-0", "01", "999999999999999999", "1234567812345678123", "1e3"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for i := range len(data) {
			n1, e1, ok1 := ScanInt(data, i)
			n2, e2, ok2 := scanIntByDigit(data, i)
			if n1 != n2 || e1 != e2 || ok1 != ok2 {
				t.Fatalf("%q at %d: ScanInt %d %d %v, a digit at a time %d %d %v", data, i, n1, e1, ok1, n2, e2, ok2)
			}
		}
	})
}

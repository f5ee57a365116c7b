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

// Package flatjson reads the fields of one JSON object without building anything: the
// hot path of every replay and of the live job is decoding small, flat event objects,
// and a general decoder spends most of its time allocating. Each field's value is handed
// over as raw bytes; the caller converts only what it needs.
package flatjson

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"unicode/utf8"

	json "github.com/goccy/go-json"
)

// Kind is the type of a JSON value.
type Kind uint8

const (
	String Kind = iota + 1
	Number
	Object
	Array
	Literal // true, false, null
)

// Field is one member of an object. Raw is the value's bytes: for a String without
// escapes, the bytes between the quotes; otherwise the whole JSON value.
type Field struct {
	Key     []byte
	Kind    Kind
	Raw     []byte
	Escaped bool // a String whose Raw still holds quotes and escapes
}

// ErrSyntax is wrapped by every error Fields returns.
var ErrSyntax = errors.New("invalid JSON")

// Fields calls fn for each member of the object in data, in order, and checks that
// nothing but white space follows it. Nested objects and arrays are validated by the
// general decoder only when a caller asks for them; here they are skipped by balancing
// brackets outside strings.
func Fields(data []byte, fn func(f Field) error) error {
	i := skipWS(data, 0)
	if i >= len(data) || data[i] != '{' {
		return fmt.Errorf("%w: not an object", ErrSyntax)
	}
	i = skipWS(data, i+1)
	if i < len(data) && data[i] == '}' {
		return trailing(data, i+1)
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return fmt.Errorf("%w: expected a key at offset %d", ErrSyntax, i)
		}
		end, esc, err := scanString(data, i)
		if err != nil {
			return err
		}
		key := data[i+1 : end-1]
		if esc { // rare: a key is compared as the text it spells
			var s string
			if err := json.Unmarshal(data[i:end], &s); err != nil {
				return fmt.Errorf("%w: bad key at offset %d: %v", ErrSyntax, i, err)
			}
			key = []byte(s)
		}
		i = skipWS(data, end)
		if i >= len(data) || data[i] != ':' {
			return fmt.Errorf("%w: expected ':' at offset %d", ErrSyntax, i)
		}
		i = skipWS(data, i+1)
		f := Field{Key: key}
		if i >= len(data) {
			return fmt.Errorf("%w: unexpected end", ErrSyntax)
		}
		start := i
		switch c := data[i]; {
		case c == '"':
			end, esc, err = scanString(data, i)
			if err != nil {
				return err
			}
			f.Kind, f.Escaped = String, esc
			if esc {
				f.Raw = data[start:end]
			} else {
				f.Raw = data[start+1 : end-1]
			}
			i = end
		case c == '-' || (c >= '0' && c <= '9'):
			for i < len(data) && isNumberByte(data[i]) {
				i++
			}
			if !validNumber(data[start:i]) {
				return fmt.Errorf("%w: bad number at offset %d", ErrSyntax, start)
			}
			f.Kind, f.Raw = Number, data[start:i]
		case c == '{' || c == '[':
			end, err := skipNested(data, i)
			if err != nil {
				return err
			}
			f.Kind, f.Raw = Object, data[start:end]
			if c == '[' {
				f.Kind = Array
			}
			i = end
		case c == 't' || c == 'f' || c == 'n':
			for i < len(data) && data[i] >= 'a' && data[i] <= 'z' {
				i++
			}
			switch string(data[start:i]) {
			case "true", "false", "null":
			default:
				return fmt.Errorf("%w: bad literal at offset %d", ErrSyntax, start)
			}
			f.Kind, f.Raw = Literal, data[start:i]
		default:
			return fmt.Errorf("%w: unexpected %q at offset %d", ErrSyntax, c, i)
		}
		if err := fn(f); err != nil {
			return err
		}
		i = skipWS(data, i)
		if i >= len(data) {
			return fmt.Errorf("%w: unexpected end", ErrSyntax)
		}
		if data[i] == '}' {
			return trailing(data, i+1)
		}
		if data[i] != ',' {
			return fmt.Errorf("%w: expected ',' or '}' at offset %d", ErrSyntax, i)
		}
		i = skipWS(data, i+1)
	}
}

// Int reads a Number field as an int64.
func (f Field) Int() (int64, error) {
	if f.Kind != Number {
		return 0, fmt.Errorf("%s is not an integer", f.Key)
	}
	if n, ok := smallInt(f.Raw); ok {
		return n, nil
	}
	n, err := strconv.ParseInt(string(f.Raw), 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%s is out of range", f.Key)
	}
	if err != nil {
		return 0, fmt.Errorf("%s is not an integer", f.Key)
	}
	return n, nil
}

// SmallIntDigits is how many digits ScanInt reads: any integer that long fits an int64.
const SmallIntDigits = 18

// ScanInt reads an optional '-' and 1 to SmallIntDigits digits at data[i:], returning
// the value and the offset just past the last digit; ok is false when there is no digit,
// there are more, or the first of several is a zero (JSON has no leading zeros). What
// follows the digits is the caller's to check: a fraction or an exponent there is not
// part of the integer. While eight bytes are left it reads them as one word (digits
// finds how many of them are digits, eightDigits their value), a digit at a time after.
func ScanInt(data []byte, i int) (n int64, end int, ok bool) {
	neg := i < len(data) && data[i] == '-'
	if neg {
		i++
	}
	start := i
	for len(data)-i >= 8 {
		x := binary.LittleEndian.Uint64(data[i:]) - 0x3030303030303030
		d := digits(x)
		if d == 0 {
			break
		}
		// The digits to the top of the word, zeros (leading zeros) below them; an n
		// that overflows has more digits than SmallIntDigits, which is refused below.
		n = n*pow10[d] + int64(eightDigits(x<<(64-8*d)))
		i += d
		if d < 8 {
			return finishInt(data, start, i, n, neg)
		}
	}
	for ; i < len(data); i++ {
		c := data[i] - '0'
		if c > 9 {
			break
		}
		n = n*10 + int64(c)
	}
	return finishInt(data, start, i, n, neg)
}

// finishInt checks the digits data[start:end] ScanInt read as n.
func finishInt(data []byte, start, end int, n int64, neg bool) (int64, int, bool) {
	if d := end - start; d == 0 || d > SmallIntDigits || (d > 1 && data[start] == '0') {
		return 0, 0, false // no digit, too many, or a leading zero (not JSON)
	}
	if neg {
		n = -n
	}
	return n, end, true
}

// pow10 holds 10 to the powers 0 to 8.
var pow10 = [9]int64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}

// digits returns how many of the eight bytes x holds, from its lowest, are digits, given
// x as the bytes less '0' each: a digit's byte is then 0 to 9, and adding 6 leaves its
// top half clear, which no other byte's is, before or after. A borrow or a carry from a
// byte that is no digit only moves the bytes above it, which are not counted.
func digits(x uint64) int {
	nonDigit := (x | (x + 0x0606060606060606)) & 0xF0F0F0F0F0F0F0F0
	return bits.TrailingZeros64(nonDigit) >> 3
}

// eightDigits returns the number the eight digit values (0 to 9) of x spell, its lowest
// byte the first digit: pairs, then fours, then the eight, each by one multiply.
func eightDigits(x uint64) uint64 {
	x = (x * 10) + (x >> 8)
	x = ((x & 0x000000FF000000FF) * (100 + 1000000<<32)) + (((x >> 16) & 0x000000FF000000FF) * (1 + 10000<<32))
	return x >> 32
}

// smallInt reads b when it is exactly an integer ScanInt reads.
func smallInt(b []byte) (int64, bool) {
	n, end, ok := ScanInt(b, 0)
	return n, ok && end == len(b)
}

// OnlySpace reports whether b is all JSON white space, as may follow an object.
func OnlySpace(b []byte) bool { return skipWS(b, 0) == len(b) }

// Str reads a String field. Unescaped strings are converted without a decoder.
func (f Field) Str() (string, error) {
	if f.Kind != String {
		return "", fmt.Errorf("%s is not a string", f.Key)
	}
	if !f.Escaped {
		return string(f.Raw), nil
	}
	var s string
	if err := json.Unmarshal(f.Raw, &s); err != nil {
		return "", fmt.Errorf("%s: %w: %v", f.Key, ErrSyntax, err)
	}
	return s, nil
}

// Bytes reads a String field's bytes, without copying when it has no escapes.
func (f Field) Bytes() ([]byte, error) {
	if f.Kind == String && !f.Escaped {
		return f.Raw, nil
	}
	s, err := f.Str()
	return []byte(s), err
}

func trailing(data []byte, i int) error {
	if !OnlySpace(data[i:]) {
		return fmt.Errorf("%w: data after the object", ErrSyntax)
	}
	return nil
}

func skipWS(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// validNumber reports whether b is a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
// A leading zero, a '+', a bare '-' or '.' are not JSON, as every strict reader says.
func validNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return false
		}
	}
	return i == len(b)
}

// scanString returns the offset just past the string starting at data[i] == '"', and
// whether it holds escapes. A control character (below U+0020) in a string is an error,
// as JSON forbids it raw and every strict reader (Python's json, Jackson) refuses it.
// The strings here are short (keys, ids, names), where a plain loop beats a vectorised
// search's call.
func scanString(data []byte, i int) (int, bool, error) {
	esc := false
	for j := i + 1; j < len(data); j++ {
		switch c := data[j]; {
		case c == '"':
			return j + 1, esc, nil
		case c == '\\':
			esc = true
			j++
			if !validEscape(data, j) {
				return 0, false, fmt.Errorf("%w: bad escape in a string at offset %d", ErrSyntax, j-1)
			}
		case c < 0x20:
			return 0, false, fmt.Errorf("%w: control character %#02x in a string at offset %d", ErrSyntax, c, j)
		}
	}
	return 0, false, fmt.Errorf("%w: unterminated string", ErrSyntax)
}

// validEscape reports whether data[j] starts what may follow a backslash in JSON: one of
// "\/bfnrt, or u and four hex digits.
func validEscape(data []byte, j int) bool {
	if j >= len(data) {
		return false
	}
	switch data[j] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return true
	case 'u':
		if j+4 >= len(data) {
			return false
		}
		for _, h := range data[j+1 : j+5] {
			if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
				return false
			}
		}
		return true
	}
	return false
}

// skipNested returns the offset just past the object or array starting at data[i],
// stepping over strings (and the brackets and escaped quotes inside them) in one pass.
// Most bytes are plain: a table look-up passes them with one test each.
func skipNested(data []byte, i int) (int, error) {
	depth, inString := 0, false
	for j := i; j < len(data); j++ {
		c := data[j]
		if !structural[c] {
			continue
		}
		if inString {
			switch c {
			case '"':
				inString = false
			case '\\':
				j++
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1, nil
			}
		}
	}
	return 0, fmt.Errorf("%w: unterminated object", ErrSyntax)
}

// structural marks the bytes skipNested must look at.
var structural = [256]bool{'"': true, '\\': true, '{': true, '}': true, '[': true, ']': true}

// AppendString appends s as a JSON string: `"` and `\` escaped, the control characters
// U+0000-U+001F as \n, \r, \t, \b, \f or \u00XX, everything else as it is. Bytes that are
// not valid UTF-8 are written as \ufffd, one for each byte, as encoding/json does, so
// the output is valid JSON (and valid UTF-8) whatever s holds. It never writes Go's
// escapes (\a, \v, \x01) that strconv.Quote does and no JSON reader accepts.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

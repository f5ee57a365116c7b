// Package safetext makes text that came from outside labtui (tenant ids, model names and
// request ids of a recording or of the live topic, answers read from a saved file) safe
// for where it is shown: a terminal, a markdown document, an SVG. Nothing is dropped:
// what cannot be shown as itself is shown escaped, so the learner still sees what the
// data held. A terminal escape sequence ESC [ 2 J shows as the text `\x1b[2J`, never as
// a cleared screen.
//
// The escapes are Go's: a byte that is not UTF-8 is \xNN; a newline, tab or carriage
// return is \n, \t, \r; another control character or rune that draws nothing (a
// bidirectional override, a zero-width joiner) is \xNN below U+0080 and \uNNNN or
// \UNNNNNNNN above; U+FFFD, which editors drop, is \ufffd. A backslash is left as it is.
package safetext

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s as one line for a terminal: every byte that is not UTF-8 and every
// rune that is not graphic (a newline and a tab too) escaped. Text that needs no escape
// is returned as it is, without copying.
func Line(s string) string {
	if !needs(s, false) {
		return s
	}
	var b strings.Builder
	write(&b, s, false)
	return b.String()
}

// Text is Line for text of several lines: a newline stays a newline, a carriage return
// or CR LF becomes one, and a tab becomes four spaces (as the TUI's answer editor
// makes it); everything else Line escapes is escaped.
func Text(s string) string {
	if !needs(s, true) {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.ReplaceAll(s, "\t", "    ")
	var b strings.Builder
	write(&b, s, true)
	return b.String()
}

// needs reports whether s has anything to escape; lines allows newlines (and the CRs
// and tabs Text rewrites).
func needs(s string, lines bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != 0x7f {
				i++
				continue
			}
			if lines && (c == '\n' || c == '\r' || c == '\t') {
				i++
				continue
			}
			return true
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || !unicode.IsGraphic(r) {
			return true
		}
		i += n
	}
	return false
}

func write(b *strings.Builder, s string, lines bool) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(b, `\x%02x`, s[i])
		case lines && r == '\n':
			b.WriteByte('\n')
		case r == ' ' || (unicode.IsGraphic(r) && r != utf8.RuneError):
			b.WriteString(s[i : i+n])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80:
			fmt.Fprintf(b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			fmt.Fprintf(b, `\U%08x`, r)
		}
		i += n
	}
}

// markdownPunct are the characters CommonMark or GitHub can read as markup anywhere in
// a line: emphasis, code, links, raw HTML, entities, tables, strikethrough, maths, and
// the backslash itself.
const markdownPunct = "\\`*_[]<>&|~$"

// Markdown returns one line of text for a markdown document, to be read as the text
// itself: escaped as Line does, then every character markdown could read as markup
// backslash-escaped, and at the line's start what would begin a heading, a list, a
// quote, a fence or a rule. In a table cell it is one cell: a | cannot end it.
func Markdown(s string) string {
	s = Line(s)
	var b strings.Builder
	lead := len(s) - len(strings.TrimLeft(s, " "))
	b.WriteString(s[:lead])
	rest := s[lead:]
	if rest != "" && strings.ContainsRune("#+-=>:", rune(rest[0])) {
		// ':' starts no block, but a definition-list or emoji extension may take it:
		// harmless to escape, and CommonMark renders \: as ':'.
		b.WriteByte('\\')
	} else if i := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' }); i > 0 && (rest[i] == '.' || rest[i] == ')') {
		// "1." or "1)" starts an ordered list.
		b.WriteString(rest[:i])
		b.WriteByte('\\')
		rest = rest[i:]
	}
	for _, r := range rest {
		if strings.ContainsRune(markdownPunct, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// inlinePunct are the characters that make markup within a line: code spans, raw
// HTML and entities, links, table cells, emphasis and strikethrough, and the backslash
// that would undo an escape.
const inlinePunct = "\\`<>&[]|*~"

// MarkdownInline returns s for the middle of a markdown line (a table cell, a sentence
// of the sheet's): escaped as Line does, so it stays on its line, and every character
// that would make markup there backslash-escaped. An underscore is left: inside a word,
// as in completed_ts, it is no emphasis.
func MarkdownInline(s string) string {
	s = Line(s)
	if !strings.ContainsAny(s, inlinePunct) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(inlinePunct, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Fence returns a code fence longer than any run of backticks in lines, so no line
// closes the block it opens; lines are to be made safe with Line first.
func Fence(lines []string) string {
	longest := 0
	for _, l := range lines {
		run := 0
		for i := 0; i < len(l); i++ {
			if l[i] == '`' {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// MarkdownLines returns text of several lines (an answer) as markdown lines that read
// as the text typed, line for line: each line escaped as Markdown does, and each that
// another follows ending in a hard line break. An empty line stays empty: the lines
// after it are a paragraph of their own, escaped the same way.
func MarkdownLines(s string) []string {
	ls := strings.Split(strings.TrimRight(Text(s), "\n"), "\n")
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = Markdown(l)
		if strings.TrimSpace(l) != "" && i+1 < len(ls) && strings.TrimSpace(ls[i+1]) != "" {
			out[i] += `\`
		}
	}
	return out
}

// XML returns s as character data or an attribute value of an XML document: escaped as
// Line does (XML 1.0 allows no control character but tab and newlines, and those are
// escaped too), then &, <, >, " and ' as entities.
func XML(s string) string {
	s = Line(s)
	if !strings.ContainsAny(s, `&<>"'`) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&apos;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Writer is an io.Writer for a terminal that shows every line written to it as Line
// shows it, newlines kept: a report that quotes the data (diff, moved, skew) cannot
// move the cursor, clear the screen or retitle the window, whatever the data held.
// Lines are written whole; Flush writes a last one that has no newline yet.
type Writer struct {
	w    io.Writer
	line []byte
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write takes p, writing each line it completes.
func (w *Writer) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.line = append(w.line, p...)
			break
		}
		w.line = append(w.line, p[:i]...)
		p = p[i+1:]
		if err := w.emit(true); err != nil {
			return n - len(p), err
		}
	}
	return n, nil
}

// Flush writes what is left of the last line.
func (w *Writer) Flush() error {
	if len(w.line) == 0 {
		return nil
	}
	return w.emit(false)
}

func (w *Writer) emit(newline bool) error {
	s := Line(string(w.line))
	w.line = w.line[:0]
	if newline {
		s += "\n"
	}
	_, err := io.WriteString(w.w, s)
	return err
}

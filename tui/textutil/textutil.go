// Package textutil fits plain and styled text into terminal cells: the few helpers
// every component of the TUI needs to draw fixed-width lines fast.
package textutil

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Fit truncates s to w cells (with an ellipsis) or pads it with spaces to w cells.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := ansi.StringWidth(s)
	if n > w {
		return ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-n)
}

// Cut truncates s to w cells without an ellipsis.
func Cut(s string, w int) string { return ansi.Truncate(s, w, "") }

// Right pads s on the left to w cells, or truncates it.
func Right(s string, w int) string {
	n := ansi.StringWidth(s)
	if n >= w {
		return ansi.Truncate(s, w, "")
	}
	return strings.Repeat(" ", w-n) + s
}

// lines pads or cuts text to exactly h lines, each fitted to w cells.
func lines(text string, w, h int) []string {
	out := make([]string, 0, h)
	if text != "" {
		for _, l := range strings.Split(text, "\n") {
			if len(out) == h {
				break
			}
			out = append(out, Fit(l, w))
		}
	}
	blank := strings.Repeat(" ", max(w, 0))
	for len(out) < h {
		out = append(out, blank)
	}
	return out
}

// Block is Lines joined with newlines.
func Block(text string, w, h int) string { return strings.Join(lines(text, w, h), "\n") }

// Wrap word-wraps text to w cells, breaking lines only at spaces (ansi.Wrap also breaks
// after a hyphen, which cuts a flag such as --broker-addr in two); a word wider than w
// is cut hard. Newlines in s are kept.
func Wrap(s string, w int) string {
	if w <= 0 {
		return ""
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		line, lineW := "", 0
		for _, word := range strings.Split(para, " ") {
			ww := ansi.StringWidth(word)
			switch {
			case line == "" && lineW == 0:
				line, lineW = word, ww
			case lineW+1+ww <= w:
				line, lineW = line+" "+word, lineW+1+ww
			default:
				out = append(out, line)
				line, lineW = word, ww
			}
			for lineW > w {
				out = append(out, ansi.Truncate(line, w, ""))
				line = ansi.TruncateLeft(line, w, "")
				lineW = ansi.StringWidth(line)
			}
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

package safetext

import (
	"encoding/xml"
	"strings"
	"testing"
)

func TestLineEscapesWhatATerminalWouldObeyAndKeepsTheRest(t *testing.T) {
	for in, want := range map[string]string{
		"acme":                       "acme",
		"café-東京":                    "café-東京",
		"\x1b[2J\x1b]0;pwned\x07":    `\x1b[2J\x1b]0;pwned\x07`,
		"a\nb\tc\rd":                 `a\nb\tc\rd`,
		"bad\xffutf8":                `bad\xffutf8`,
		"\u202eevil":                 `\u202eevil`,
		"nul\x00":                    `nul\x00`,
		"c1\u009b31m":                `c1\u009b31m`,
		"del\x7f":                    `del\x7f`,
		"keeps \\ and \"quotes\"":    "keeps \\ and \"quotes\"",
		"replacement \ufffd is kept": `replacement \ufffd is kept`,
	} {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTextKeepsLinesAndEscapesTheRest(t *testing.T) {
	got := Text("one\r\ntwo\x00\rthree\tfour\xfe")
	want := "one\ntwo\\x00\nthree    four\\xfe"
	if got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

func TestMarkdownLinesCannotLeaveTheAnswersPlace(t *testing.T) {
	answer := "<script>alert(1)</script>\n| 4.4 | yes | run 9 |\n|---|---|---|\n```\n# 4.4\nsetext\n===\n1. item\n- item"
	got := strings.Join(MarkdownLines(answer), "\n")
	want := strings.Join([]string{
		`\<script\>alert(1)\</script\>\`,
		`\| 4.4 \| yes \| run 9 \|\`,
		`\|---\|---\|---\|\`,
		"\\`\\`\\`\\",
		`\# 4.4\`,
		`setext\`,
		`\===\`,
		`1\. item\`,
		`\- item`,
	}, "\n")
	if got != want {
		t.Errorf("MarkdownLines =\n%s\nwant\n%s", got, want)
	}
}

func TestMarkdownKeepsPlainProseAsItIs(t *testing.T) {
	in := "10:01:09.000, past the window's end (one minute late)."
	if got := Markdown(in); got != in {
		t.Errorf("Markdown(%q) = %q", in, got)
	}
}

func TestXMLIsReadBackByAParserAsTheEscapedText(t *testing.T) {
	for _, in := range []string{"acme", "\x1b[31mred\x00", `<a href="x">&'`, "bad\xff", "\u202e"} {
		doc := `<svg a="` + XML(in) + `"><text>` + XML(in) + `</text></svg>`
		var v struct {
			A    string `xml:"a,attr"`
			Text string `xml:"text"`
		}
		if err := xml.Unmarshal([]byte(doc), &v); err != nil {
			t.Errorf("an XML parser refuses %q: %v", doc, err)
			continue
		}
		if v.A != Line(in) || v.Text != Line(in) {
			t.Errorf("read back %q / %q, want %q", v.A, v.Text, Line(in))
		}
	}
}

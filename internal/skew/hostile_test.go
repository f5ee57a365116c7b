package skew

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

func TestNamesWithControlCharactersLeaveTheSVGValidXMLAndShowThemEscaped(t *testing.T) {
	m := seedModel(t)
	m.Points[0].RequestID = "r-\x1b[2J\x00<x>"
	m.Points[0].Gateway = "gw-\x07\xff"
	var buf bytes.Buffer
	if err := WriteSVG(&buf, m, SVGOptions{Title: "evil\x1b]0;title\x07.jsonl"}); err != nil {
		t.Fatal(err)
	}
	svgCounts(t, buf.Bytes()) // fails on a document an XML parser refuses
	if bytes.ContainsAny(buf.Bytes(), "\x00\x07\x1b") {
		t.Error("the SVG holds a raw control character")
	}
	var texts []string
	d := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		if cd, ok := tok.(xml.CharData); ok {
			texts = append(texts, string(cd))
		}
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{`r-\x1b[2J\x00<x>`, `gw-\x07\xff`, `evil\x1b]0;title\x07.jsonl`} {
		if !strings.Contains(all, want) {
			t.Errorf("the SVG's text does not show %q escaped", want)
		}
	}
}

package skew

import (
	"bytes"
	"cmp"
	"context"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/reenact"
	"github.com/labtui/labtui/internal/thousands"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

const (
	seedBurst    = "../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl"
	recordedHour = "../../labs/04-event-time-and-processing-time/data/recorded-hour.jsonl.gz"
	t0           = int64(1_795_946_400_000) // 10:00:00.000 of the seed burst's day
)

// run re-enacts a recording with traces, as `labtui skew` does.
func run(t testing.TB, path string) []jobspec.Result {
	t.Helper()
	r, err := recording.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []jobspec.Result
	_, err = reenact.Run(context.Background(), r, reenact.Config{Job: jobspec.Options{Trace: true}},
		func(x jobspec.Result) { out = append(out, x) }, func(line int, err error) { t.Fatalf("line %d: %v", line, err) })
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// seedModel is the course's burst with the hiccup the course tells: gw-1 held from
// 10:00:40 to 10:01:15.
func seedModel(t testing.TB) Model {
	return Build(run(t, seedBurst), Options{Hiccup: t0 + 40_000, Flush: t0 + 75_000})
}

func TestBuildSeedBurst(t *testing.T) {
	m := seedModel(t)
	if m.X != (Range{t0, t0 + 120_000}) || m.Y != m.X {
		t.Fatalf("axes %+v %+v", m.X, m.Y)
	}
	if m.Held != "gw-1" || len(m.Points) != 6 {
		t.Fatalf("held %q, %d points", m.Held, len(m.Points))
	}
	var held []string
	for _, p := range m.Points {
		if p.Held {
			held = append(held, p.RequestID)
			if !p.Late {
				t.Errorf("%s is held but not late", p.RequestID)
			}
		}
	}
	if strings.Join(held, ",") != "r-103,r-104" {
		t.Fatalf("held records %v", held)
	}
	// 10:00 fired with $0.20 at the watermark tick just after r-105 (10:01:09.000) passed
	// the assigner, which a processing-time timer runs 1 ms after it is due; 10:01 never
	// closed.
	want := []Strip{{Start: t0, End: t0 + 60_000, Closed: t0 + 69_001, USD: 0.2, Requests: 2}, {Start: t0 + 60_000, End: t0 + 120_000, USD: 0.2, Requests: 2}}
	if len(m.EventWindows) != 2 || m.EventWindows[0] != want[0] || m.EventWindows[1] != want[1] {
		t.Fatalf("strips %+v", m.EventWindows)
	}
	if b := m.ProcessingWindows; len(b) != 2 || b[0].USD != 0.2 || b[1].USD != 0.4 || b[1].Requests != 4 || b[0].Open || b[1].Open {
		t.Fatalf("bands %+v", b)
	}
	if len(m.Watermark) == 0 || m.Watermark[len(m.Watermark)-1].Watermark != t0+79_999 {
		t.Fatalf("watermark %+v", m.Watermark)
	}
}

// TestBuildFromAnOutputFileClosesStripsAtTheWatermark: results read back from a file
// carry no processing time of their own; a strip then closes at the first arrival whose
// record met a watermark past its end.
func TestBuildFromAnOutputFileClosesStripsAtTheWatermark(t *testing.T) {
	rs := run(t, seedBurst)
	for i := range rs {
		rs[i].At = 0
	}
	m := Build(rs, Options{Held: "gw-0"})
	if m.EventWindows[0].Closed != t0+77_000 { // r-103 arrived at 10:01:17 and met 10:01:08.999
		t.Fatalf("closed at %s", jobspec.Clock(m.EventWindows[0].Closed))
	}
	if m.Held != "gw-0" || m.Points[0].Held || len(m.Marks) != 0 {
		t.Fatalf("held %q, first point %+v (prompt, so not held)", m.Held, m.Points[0])
	}
	for _, p := range m.Points {
		if want := p.Gateway == "gw-0" && p.Processing-p.Event > DefaultFar; p.Held != want {
			t.Errorf("point %+v: held %v, want %v (only the held gateway's delayed records)", p, p.Held, want)
		}
	}
}

func TestBuildSpanZooms(t *testing.T) {
	m := Build(run(t, seedBurst), Options{Span: Range{t0 + 60_000, t0 + 120_000}})
	if m.X != (Range{t0 + 60_000, t0 + 120_000}) || m.Y != m.X {
		t.Fatalf("axes %+v %+v", m.X, m.Y)
	}
	var ids []string
	for _, p := range m.Points {
		ids = append(ids, p.RequestID)
	}
	if strings.Join(ids, ",") != "r-105,r-106" { // r-103 and r-104 arrived in it, but their timestamps are before it
		t.Fatalf("points %v", ids)
	}
}

// svgCounts decodes an SVG document with encoding/xml (failing on anything that is not
// well-formed) and counts its elements by name and class.
func svgCounts(t *testing.T, doc []byte) map[string]int {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	n := make(map[string]int)
	var groups []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			class := ""
			for _, a := range e.Attr {
				if a.Name.Local == "class" {
					class = a.Value
				}
			}
			if e.Name.Local == "g" {
				groups = append(groups, class)
			}
			n[e.Name.Local]++
			n[e.Name.Local+"."+class]++
			if e.Name.Local == "circle" && len(groups) > 0 && groups[len(groups)-1] == "records" {
				n["record circle"]++
			}
		case xml.EndElement:
			if e.Name.Local == "g" {
				groups = groups[:len(groups)-1]
			}
		}
	}
	if n["svg"] != 1 {
		t.Fatalf("%d svg elements", n["svg"])
	}
	return n
}

func TestSVGSeedBurst(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSVG(&buf, seedModel(t), SVGOptions{Title: "seed-burst.jsonl <completed_ts & monotonous>"}); err != nil {
		t.Fatal(err)
	}
	n := svgCounts(t, buf.Bytes())
	for what, want := range map[string]int{
		"record circle":              6, // one per record
		"circle.record held late":    2, // r-103 and r-104
		"line.diagonal":              2, // the picture's and the legend's
		"polyline.watermark":         1,
		"rect.event-window":          2, // 10:00, closed ...
		"rect.event-window open":     1, // ... and 10:01, open
		"line.close":                 1,
		"rect.processing-window":     1, // 10:00, and 10:01 shaded odd
		"rect.processing-window odd": 2, // 10:01 and the legend's swatch
		"line.mark":                  2, // hiccup and flush
	} {
		got := n[what]
		if what == "rect.event-window" {
			got += n["rect.event-window open"] - 1 // the legend's swatch is a closed one
		}
		if got != want {
			t.Errorf("%s: %d, want %d", what, got, want)
		}
	}
	for _, s := range []string{"<title>seed-burst.jsonl &lt;completed_ts &amp; monotonous&gt;</title>", ">$0.40 · 4</text>", ">$0.20 open</text>",
		">hiccup 10:00:40.000</text>", "<title>r-103 gw-1: ts 10:00:44.000, arrived 10:01:17.000, $0.10, late</title>"} {
		if !strings.Contains(buf.String(), s) {
			t.Errorf("SVG lacks %s", s)
		}
	}
}

// maxPicture is the most bytes the SVG of a long run may take: a learner hands it in.
const maxPicture = 200 << 10

// TestSVGOfTheRecordedHourIsBoundedAndCountsEveryRecord: the recorded hour's 71,641
// records, a dot each, would make a 3.9 MB picture; drawn a dot per 2 px and kind it
// stays under maxPicture, and its caption counts every record exactly.
func TestSVGOfTheRecordedHourIsBoundedAndCountsEveryRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the recorded hour")
	}
	rs := run(t, recordedHour)
	traces := 0
	for _, r := range rs {
		if r.Kind == jobspec.TraceResult {
			traces++
		}
	}
	m := Build(rs, Options{})
	var buf bytes.Buffer
	if err := WriteSVG(&buf, m, SVGOptions{}); err != nil {
		t.Fatal(err)
	}
	n := svgCounts(t, buf.Bytes())
	if traces < 70_000 || m.Held != "gw-1" || n["rect.event-window"]+n["rect.event-window open"] != 61 {
		t.Fatalf("%d records, held %q, %d strips", traces, m.Held, n["rect.event-window"]+n["rect.event-window open"])
	}
	if buf.Len() > maxPicture {
		t.Errorf("the picture of %d records is %d bytes, more than %d", traces, buf.Len(), maxPicture)
	}
	c := countPoints(m.Points)
	caption := fmt.Sprintf("%s records, drawn as one dot per 2 px and kind: %s on time, %s held, %s late (dropped)",
		thousands.Format(int64(traces)), thousands.Format(c.onTime), thousands.Format(c.held), thousands.Format(c.late))
	if !strings.Contains(buf.String(), caption) || c.onTime+c.held+c.late-c.heldLate != int64(traces) {
		t.Errorf("caption %q missing or not adding up to %d", caption, traces)
	}
	if c.held == 0 || n["circle.record held"]+n["circle.record held late"] == 0 {
		t.Errorf("no held dot for %d held records", c.held)
	}
}

// TestSVGOfALongLiveRunIsBoundedAndShowsTheHold: an hour of a live run at 20 records a
// second (72,000 records, each arriving 0-49 ms after its timestamp, and the watermark
// moving with every one), with a 35 s hold of gw-1 from 10:30:40, stays under
// maxPicture; the held records are drawn apart, above the diagonal where they arrived,
// and the late ones among them too.
func TestSVGOfALongLiveRunIsBoundedAndShowsTheHold(t *testing.T) {
	start := int64(36_000_000) // 10:00
	hold, flush := start+30*jobspec.Minute+40_000, start+30*jobspec.Minute+75_000
	m := Model{X: Range{start, start + 60*jobspec.Minute}, Y: Range{start, start + 61*jobspec.Minute}, Held: "gw-1", WindowSize: jobspec.Minute,
		Marks: []Mark{{"hiccup", hold}, {"flush", flush}}}
	held := 0
	for i := range int64(72_000) {
		ts := start + i*50
		gw := fmt.Sprintf("gw-%d", i%3)
		p := Point{RequestID: fmt.Sprintf("r-%d", i), Gateway: gw, Event: ts, Processing: ts + i*7%50, USD: 0.1}
		if gw == "gw-1" && ts >= hold && ts < flush {
			p.Processing, p.Held = flush+i%50, true
			held++
		}
		m.Points = append(m.Points, p)
	}
	slices.SortStableFunc(m.Points, func(a, b Point) int { return cmp.Compare(a.Processing, b.Processing) })
	wm, late := int64(0), 0
	for i := range m.Points {
		p := &m.Points[i]
		if p.Event < wm {
			p.Late = true
			late++
		}
		wm = max(wm, p.Event)
		m.Watermark = append(m.Watermark, Step{Processing: p.Processing, Watermark: wm})
	}
	var buf bytes.Buffer
	if err := WriteSVG(&buf, m, SVGOptions{Title: "run 1 · an hour"}); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > maxPicture {
		t.Errorf("the picture of an hour is %d bytes, more than %d", buf.Len(), maxPicture)
	}
	n := svgCounts(t, buf.Bytes())
	if n["circle.record held"]+n["circle.record held late"] == 0 || n["circle.record"] == 0 {
		t.Errorf("dots: %v", n)
	}
	want := fmt.Sprintf("72,000 records, drawn as one dot per 2 px and kind: 71,767 on time, 233 held, %s late (dropped), of which 233 held and late",
		thousands.Format(int64(late)))
	if held != 233 || late < held || !strings.Contains(buf.String(), want) {
		t.Errorf("%d held, %d late; caption %q not in the picture", held, late, want)
	}
	if n["circle.record held late"] == 0 {
		t.Errorf("no held and late dot: %v", n)
	}
	t.Logf("%d bytes, %d dots for 72,000 records", buf.Len(), n["circle"])
}

// TestRenderSeedBurstGolden: the braille picture of the course's burst, reviewed by eye
// and kept in testdata (go test ./skew -update rewrites it).
func TestRenderSeedBurstGolden(t *testing.T) {
	got := Render(seedModel(t), 80, 24) + "\n"
	const golden = "testdata/seed-burst-80x24.txt"
	if *update {
		os.WriteFile(golden, []byte(got), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("render differs from %s:\n%s", golden, got)
	}
}

func TestRenderIsExactlyTheSizeAsked(t *testing.T) {
	m := seedModel(t)
	for _, size := range [][2]int{{80, 24}, {40, 10}, {132, 50}, {21, 6}, {12, 3}, {5, 1}} {
		out := Render(m, size[0], size[1])
		lines := strings.Split(out, "\n")
		if len(lines) != size[1] {
			t.Fatalf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for i, l := range lines {
			if n := len([]rune(l)); n != size[0] {
				t.Fatalf("%dx%d: line %d is %d cells: %q", size[0], size[1], i, n, l)
			}
		}
	}
}

func TestRenderStyledMarksLayers(t *testing.T) {
	m := seedModel(t)
	plain := Render(m, 80, 24)
	var held int
	styled := RenderStyled(m, 80, 24, func(l Layer, s string) string {
		if l == HeldRecords {
			held += len([]rune(s))
		}
		return "<" + string(rune('a'+l)) + ">" + s + "</>"
	})
	for l := Strips; l <= Text; l++ {
		styled = strings.ReplaceAll(styled, "<"+string(rune('a'+l))+">", "")
	}
	if strings.ReplaceAll(styled, "</>", "") != plain || held == 0 {
		t.Fatalf("styled text is not the plain text with styles around it (held cells %d)", held)
	}
}

func TestBuildSpanKeepsTheWatermarkInside(t *testing.T) {
	span := Range{t0 + 30_000, t0 + 90_000}
	m := Build(run(t, seedBurst), Options{Span: span})
	// r-102 met 10:00:29.999 at 10:00:31, r-105 10:00:57.999 at 10:01:09, r-103 10:01:08.999
	// at 10:01:17; r-106's step at 10:01:30 is past the span.
	if len(m.Watermark) != 3 || m.Watermark[0].Processing != t0+31_000 {
		t.Fatalf("watermark %+v", m.Watermark)
	}
	for _, st := range m.Watermark {
		if !span.has(st.Processing) {
			t.Fatalf("step outside the span: %+v", st)
		}
	}
}

// TestSVGOfRecordsScatteredAllOverIsBounded: 200,000 records spread over the whole
// picture would make a dot in nearly every 2 px cell; the cells grow until the picture
// stays under maxPicture, and the caption says how big they are.
func TestSVGOfRecordsScatteredAllOverIsBounded(t *testing.T) {
	m := Model{X: Range{0, 60 * jobspec.Minute}, Y: Range{0, 60 * jobspec.Minute}, WindowSize: jobspec.Minute}
	for i := range int64(200_000) {
		m.Points = append(m.Points, Point{Event: i * 7_919 % m.X.To, Processing: i * 104_729 % m.Y.To, Late: i%5 == 0})
	}
	var buf bytes.Buffer
	if err := WriteSVG(&buf, m, SVGOptions{}); err != nil {
		t.Fatal(err)
	}
	n := svgCounts(t, buf.Bytes())
	if buf.Len() > maxPicture || n["circle"] > maxDots || n["circle.record late"] == 0 {
		t.Errorf("%d bytes, %d dots (%d late)", buf.Len(), n["circle"], n["circle.record late"])
	}
	if !strings.Contains(buf.String(), "200,000 records, drawn as one dot per 32 px and kind: 160,000 on time, 0 held, 40,000 late") {
		t.Errorf("caption: %s", buf.String()[strings.Index(buf.String(), "caption"):][:200])
	}
}

// TestSVGOfTheMostRecordsWithTooltipsIsBounded: up to maxTitled records each get a
// circle with a tooltip; that many, with the live run's request ids, stay under
// maxPicture (1,601 of them once made 236 KB).
func TestSVGOfTheMostRecordsWithTooltipsIsBounded(t *testing.T) {
	m := Model{X: Range{0, 10 * jobspec.Minute}, Y: Range{0, 10 * jobspec.Minute}, WindowSize: jobspec.Minute}
	for i := range int64(maxTitled) {
		m.Points = append(m.Points, Point{RequestID: fmt.Sprintf("r-tpdhz8-%d", 10_000+i), Gateway: "gw-1", Event: i * 600, Processing: i*600 + 40, USD: 0.1234})
		m.Watermark = append(m.Watermark, Step{Processing: i*600 + 40, Watermark: i * 600})
	}
	var buf bytes.Buffer
	if err := WriteSVG(&buf, m, SVGOptions{Title: "run 7 · job restarted with empty state · completed_ts"}); err != nil {
		t.Fatal(err)
	}
	if n := svgCounts(t, buf.Bytes()); buf.Len() > maxPicture || n["title"] != maxTitled+1 {
		t.Errorf("%d bytes, %d titles, for %d records", buf.Len(), n["title"], maxTitled)
	}
}

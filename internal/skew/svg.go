package skew

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/internal/thousands"
)

// SVGOptions size and title the SVG.
type SVGOptions struct {
	// Title is written above the picture.
	Title string
	// Width and Height are in pixels; zero means 960 by 720.
	Width, Height int
}

// maxTitled is how many records get a circle and a tooltip each (about 150 bytes: 1,601
// records made a 236 KB file); above it they are drawn as dots (dots.go).
const maxTitled = 1000

// WriteSVG draws the model as a standalone SVG document: processing-time bands, event-time
// strips, the ideal diagonal, the watermark, the marks, one circle per record, axes and
// a legend. Classes name every element (record, held, late, diagonal, watermark,
// event-window, processing-window, mark), so a stylesheet can restyle it.
func WriteSVG(w io.Writer, m Model, o SVGOptions) error {
	if o.Width <= 0 {
		o.Width = 960
	}
	if o.Height <= 0 {
		o.Height = 720
	}
	g := svgGeom{left: 84, right: float64(o.Width) - 130, top: 64, bottom: float64(o.Height) - 64, m: &m}
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n",
		o.Width, o.Height, o.Width, o.Height)
	p("<title>%s</title>\n", esc(o.Title))
	p(`<style>
.background { fill: #ffffff; }
.processing-window { fill: #f2f2f2; } .processing-window.odd { fill: #e6e6e6; }
.processing-window.open { fill: #fff4d6; }
.event-window { fill: #4c78a8; fill-opacity: 0.10; stroke: #4c78a8; stroke-opacity: 0.5; }
.event-window.open { fill-opacity: 0.04; stroke-dasharray: 4 3; }
.close { stroke: #4c78a8; stroke-width: 2; }
.diagonal { stroke: #888888; stroke-dasharray: 6 4; }
.watermark { fill: none; stroke: #d62728; stroke-width: 1.5; }
.mark { stroke: #9467bd; stroke-dasharray: 2 3; } .mark-label { fill: #9467bd; }
.record { fill: #1f77b4; fill-opacity: 0.7; } .record.held { fill: #ff7f0e; fill-opacity: 0.9; }
.record.late { stroke: #d62728; stroke-width: 1.2; }
.axis { stroke: #333333; } .tick { stroke: #333333; } .label { fill: #333333; }
.band-label { fill: #555555; font-size: 10px; } .strip-label { fill: #4c78a8; font-size: 10px; }
</style>` + "\n")
	p(`<rect class="background" x="0" y="0" width="%d" height="%d"/>`+"\n", o.Width, o.Height)
	p(`<text class="label" x="%d" y="24" font-size="13">%s</text>`+"\n", int(g.left), esc(o.Title))

	// Processing-time windows: horizontal bands with their sums on the right.
	p(`<g class="processing-windows">` + "\n")
	for i, b := range m.ProcessingWindows {
		if b.End <= m.Y.From || b.Start >= m.Y.To {
			continue
		}
		y0, y1 := g.y(min(b.End, m.Y.To)), g.y(max(b.Start, m.Y.From))
		cls := "processing-window"
		if i%2 == 1 {
			cls += " odd"
		}
		if b.Open {
			cls += " open"
		}
		p(`<rect class="%s" x="%s" y="%s" width="%s" height="%s"/>`+"\n", cls, f(g.left), f(y0), f(g.right-g.left), f(y1-y0))
		if y1-y0 >= 8 {
			label := fmt.Sprintf("%s · %d", usd(b.USD), b.Requests)
			if b.Open {
				label += " open"
			}
			p(`<text class="band-label" x="%s" y="%s" dominant-baseline="middle" font-size="%d">%s</text>`+"\n", f(g.right+6), f((y0+y1)/2),
				min(10, int(y1-y0)-1), esc(label))
		}
	}
	p("</g>\n")

	// Event-time windows: vertical strips from the bottom up to where they closed.
	p(`<g class="event-windows">` + "\n")
	for _, s := range m.EventWindows {
		if s.End <= m.X.From || s.Start >= m.X.To {
			continue
		}
		x0, x1 := g.x(max(s.Start, m.X.From)), g.x(min(s.End, m.X.To))
		top, cls := g.top, "event-window open"
		if s.Closed != 0 {
			top, cls = g.y(min(max(s.Closed, m.Y.From), m.Y.To)), "event-window"
		}
		p(`<rect class="%s" x="%s" y="%s" width="%s" height="%s"/>`+"\n", cls, f(x0), f(top), f(x1-x0), f(g.bottom-top))
		if s.Closed != 0 {
			p(`<line class="close" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", f(x0), f(top), f(x1), f(top))
		}
		if x1-x0 >= 44 {
			label := usd(s.USD)
			if s.Closed == 0 {
				label += " open"
			}
			ly := top - 4
			if s.Closed == 0 {
				ly = top + 12
			}
			p(`<text class="strip-label" x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", f((x0+x1)/2), f(ly), esc(label))
		}
	}
	p("</g>\n")

	// The ideal: processing time equal to event time.
	if lo, hi := max(m.X.From, m.Y.From), min(m.X.To, m.Y.To); lo < hi {
		p(`<line class="diagonal" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", f(g.x(lo)), f(g.y(lo)), f(g.x(hi)), f(g.y(hi)))
	}

	for _, mk := range m.Marks {
		if !m.Y.has(mk.At) {
			continue
		}
		y := g.y(mk.At)
		p(`<line class="mark" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", f(g.left), f(y), f(g.right), f(y))
		p(`<text class="mark-label" x="%s" y="%s">%s</text>`+"\n", f(g.left+4), f(y-3), esc(mk.Label+" "+jobspec.Clock(mk.At)))
	}

	// The records: one circle each, with a tooltip, up to maxTitled; past it one dot per
	// cell of dotCell pixels and kind of record, so the file stays bounded whatever the
	// run's length, and a caption gives the exact counts.
	p(`<g class="records">` + "\n")
	side := 0
	if len(m.Points) <= maxTitled {
		for _, pt := range m.Points {
			late := ""
			if pt.Late {
				late = ", late"
			}
			p(`<circle class="%s" cx="%s" cy="%s" r="3"><title>%s %s: ts %s, arrived %s, %s%s</title></circle>`+"\n", pointClass(pt),
				f(g.x(pt.Event)), f(g.y(pt.Processing)), esc(pt.RequestID), esc(pt.Gateway), jobspec.Clock(pt.Event), jobspec.Clock(pt.Processing), usd(pt.USD), late)
		}
	} else {
		var ds []dot
		ds, side = dots(m.Points, g)
		for _, d := range ds {
			p(`<circle class="%s" cx="%s" cy="%s" r="1.5"/>`+"\n", d.class, f(d.x), f(d.y))
		}
	}
	p("</g>\n")
	if len(m.Points) > maxTitled {
		c := countPoints(m.Points)
		caption := fmt.Sprintf("%s records, drawn as one dot per %d px and kind: %s on time, %s held, %s late (dropped)",
			thousands.Format(int64(len(m.Points))), side, thousands.Format(c.onTime), thousands.Format(c.held), thousands.Format(c.late))
		if c.heldLate > 0 {
			caption += fmt.Sprintf(", of which %s held and late", thousands.Format(c.heldLate))
		}
		p(`<text class="label caption" x="%s" y="%d">%s</text>`+"\n", f(g.left), o.Height-8, esc(caption))
	}

	// The watermark, over the records: at each processing time, the event time it had
	// reached (clipped to the picture), to the whole pixel, each corner once.
	if len(m.Watermark) > 0 {
		p(`<polyline class="watermark" points="`)
		for _, pt := range staircase(m, g) {
			p("%d,%d ", pt[0], pt[1])
		}
		p("\"/>\n")
	}

	// Axes, ticks and their times.
	p(`<line class="axis" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", f(g.left), f(g.bottom), f(g.right), f(g.bottom))
	p(`<line class="axis" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", f(g.left), f(g.bottom), f(g.left), f(g.top))
	xt, xs := ticks(m.X, 10)
	for _, t := range xt {
		x := g.x(t)
		p(`<line class="tick" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", f(x), f(g.bottom), f(x), f(g.bottom+4))
		p(`<text class="label" x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", f(x), f(g.bottom+16), clock(t, xs))
	}
	yt, ys := ticks(m.Y, 12)
	for _, t := range yt {
		y := g.y(t)
		p(`<line class="tick" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", f(g.left-4), f(y), f(g.left), f(y))
		p(`<text class="label" x="%s" y="%s" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", f(g.left-6), f(y), clock(t, ys))
	}
	p(`<text class="label" x="%s" y="%s" text-anchor="middle">event time (UTC) →</text>`+"\n", f((g.left+g.right)/2), f(g.bottom+36))
	p(`<text class="label" x="%s" y="%s" text-anchor="middle" transform="rotate(-90 %s %s)">processing time (UTC) →</text>`+"\n",
		f(20), f((g.top+g.bottom)/2), f(20), f((g.top+g.bottom)/2))

	// The legend, along the top.
	lx, ly := g.left, 44.0
	item := func(shape, text string) {
		p("%s\n", fmt.Sprintf(shape, f(lx), f(ly)))
		p(`<text class="label" x="%s" y="%s" dominant-baseline="middle">%s</text>`+"\n", f(lx+14), f(ly), esc(text))
		lx += 22 + 6.2*float64(len([]rune(text)))
	}
	item(`<circle class="record" cx="%s" cy="%s" r="3"/>`, "record")
	if m.Held != "" {
		item(`<circle class="record held" cx="%s" cy="%s" r="3"/>`, "held "+m.Held)
	}
	item(`<circle class="record late" cx="%s" cy="%s" r="3"/>`, "late (dropped)")
	item(`<line class="diagonal" x1="%s" y1="%[2]s" x2="`+f(lx+10)+`" y2="%[2]s"/>`, "ideal")
	item(`<line class="watermark" x1="%s" y1="%[2]s" x2="`+f(lx+10)+`" y2="%[2]s"/>`, "watermark")
	item(`<rect class="event-window" x="%s" y="%s" width="10" height="8" transform="translate(0 -4)"/>`, "event-time window")
	item(`<rect class="processing-window odd" x="%s" y="%s" width="10" height="8" transform="translate(0 -4)"/>`, "processing-time window")
	p("</svg>\n")
	return bw.Flush()
}

// svgGeom maps times to pixels: event time across from left to right, processing time up
// from bottom to top.
type svgGeom struct {
	left, right, top, bottom float64
	m                        *Model
}

func (g svgGeom) x(t int64) float64 {
	return g.left + float64(t-g.m.X.From)/float64(g.m.X.len())*(g.right-g.left)
}

func (g svgGeom) y(t int64) float64 {
	return g.bottom - float64(t-g.m.Y.From)/float64(g.m.Y.len())*(g.bottom-g.top)
}

func f(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// esc makes text from the recording (a tenant id, a file name) character data of the
// document: XML 1.0 allows no control character there, so those are shown escaped.
func esc(s string) string { return safetext.XML(s) }

// usd writes dollars with two decimals, or more when a sum is under a cent.
func usd(v float64) string {
	if v != 0 && v < 0.01 && v > -0.01 {
		return "$" + strconv.FormatFloat(v, 'f', 4, 64)
	}
	return "$" + strconv.FormatFloat(v, 'f', 2, 64)
}

package skew

import (
	"fmt"
	"strings"

	"github.com/labtui/labtui/internal/safetext"
)

// Layer is what a cell of the braille rendering shows, for RenderStyled's colours: the
// topmost thing drawn in it, in this order from the bottom.
type Layer uint8

const (
	// Blank cells show nothing.
	Blank Layer = iota
	// Strips are event-time windows: their edges and the line where each closed.
	Strips
	// Bands are processing-time windows' edges.
	Bands
	// Diagonal is the ideal, processing time equal to event time.
	Diagonal
	// WatermarkLine is the watermark the records met.
	WatermarkLine
	// Marks are a hiccup's start and flush.
	Marks
	// Records are records of any gateway but the held one, on time.
	Records
	// LateRecords are records the event-time window dropped, of any gateway but the held one.
	LateRecords
	// HeldRecords are the held gateway's records.
	HeldRecords
	// Text is axes, labels and the legend.
	Text
)

// Render draws the model in braille cells (U+2800 to U+28FF, two dots across and four
// down per cell) as width by height terminal cells: processing time up the left, event
// time along the bottom, processing-time sums on the right, a legend on the last line.
// Every line is exactly width cells wide. It is plain text; RenderStyled colours it.
func Render(m Model, width, height int) string {
	return RenderStyled(m, width, height, nil)
}

// RenderStyled is Render with each run of cells of one Layer passed through style (a
// lipgloss Style's Render, say); a nil style leaves the text plain.
func RenderStyled(m Model, width, height int, style func(Layer, string) string) string {
	g := layout(m, width, height)
	if g == nil {
		line := fit("skew: too small to draw", width)
		return strings.TrimSuffix(strings.Repeat(line+"\n", max(height, 1)), "\n")
	}
	g.draw()
	return g.text(style)
}

// grid is the rendering: a plot of braille cells with text around it.
type grid struct {
	m             *Model
	width, height int
	// left, right are the margins' widths; pw, ph the plot's size in cells.
	left, right, pw, ph int
	runes               [][]rune
	layers              [][]Layer
	dots                [][]uint8 // the plot's braille bits
}

// The margins: "10:01:30" and the axis on the left, sums on the right, the x axis, its
// times and the legend below.
const (
	leftMargin  = 9
	bottomLines = 3
)

func layout(m Model, width, height int) *grid {
	right := 0
	for _, b := range m.ProcessingWindows {
		right = max(right, len(bandLabel(b))+1)
	}
	for _, mk := range m.Marks {
		right = max(right, len(mk.Label)+2)
	}
	right = min(right, 10)
	if width-leftMargin-right < 12 {
		right = 0
	}
	pw, ph := width-leftMargin-right, height-bottomLines
	if pw < 8 || ph < 3 {
		return nil
	}
	g := &grid{m: &m, width: width, height: height, left: leftMargin, right: right, pw: pw, ph: ph}
	g.runes, g.layers = make([][]rune, height), make([][]Layer, height)
	for y := range height {
		g.runes[y], g.layers[y] = []rune(strings.Repeat(" ", width)), make([]Layer, width)
	}
	g.dots = make([][]uint8, ph)
	for y := range ph {
		g.dots[y] = make([]uint8, pw)
	}
	return g
}

// dx and dy map times to dot coordinates: event time across, processing time up.
func (g *grid) dx(t int64) int {
	return clamp(int((t-g.m.X.From)*int64(2*g.pw)/g.m.X.len()), 0, 2*g.pw-1)
}

func (g *grid) dy(t int64) int {
	return clamp(4*g.ph-1-int((t-g.m.Y.From)*int64(4*g.ph)/g.m.Y.len()), 0, 4*g.ph-1)
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

// brailleBit is the bit of dot (col, row) of a cell, in Unicode's braille numbering.
var brailleBit = [2][4]uint8{{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}}

// set lights dot (x, y) of the plot with layer l.
func (g *grid) set(x, y int, l Layer) {
	if x < 0 || y < 0 || x >= 2*g.pw || y >= 4*g.ph {
		return
	}
	cx, cy := x/2, y/4
	g.dots[cy][cx] |= brailleBit[x%2][y%4]
	if l > g.layers[cy][g.left+cx] {
		g.layers[cy][g.left+cx] = l
	}
}

// line lights the dots from (x0, y0) to (x1, y1) (Bresenham), every step-th one.
func (g *grid) line(x0, y0, x1, y1, step int, l Layer) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	e := dx + dy
	for i := 0; ; i++ {
		if i%step == 0 {
			g.set(x0, y0, l)
		}
		if x0 == x1 && y0 == y1 {
			return
		}
		if e2 := 2 * e; e2 >= dy {
			e, x0 = e+dy, x0+sx
		} else {
			e, y0 = e+dx, y0+sy
		}
	}
}

func abs(v int) int { return max(v, -v) }

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// put writes s at (x, y) as Text, cut at the grid's edge.
func (g *grid) put(x, y int, s string) {
	// A label may quote the recording (a gateway's name): a control character in it
	// would be drawn into a cell raw.
	for _, r := range safetext.Line(s) {
		if x >= 0 && x < g.width && y >= 0 && y < g.height {
			g.runes[y][x], g.layers[y][x] = r, Text
		}
		x++
	}
}

func (g *grid) draw() {
	m := g.m
	// Event-time windows: an edge at each start (and after the last) from the bottom up
	// to where the window closed, and the closing line across it; drawn only when the
	// windows are at least three dots wide.
	if n := len(m.EventWindows); n > 0 && g.dx(m.X.From+m.WindowSize)-g.dx(m.X.From) >= 3 {
		for i, s := range m.EventWindows {
			top := 0
			if s.Closed != 0 {
				top = g.dy(s.Closed)
			}
			x0, x1 := g.dx(s.Start), g.dx(s.End)
			g.line(x0, 4*g.ph-1, x0, top, 2, Strips)
			if i == n-1 || m.EventWindows[i+1].Start != s.End {
				g.line(x1, 4*g.ph-1, x1, top, 2, Strips)
			}
			if s.Closed != 0 {
				g.line(x0, top, x1, top, 1, Strips)
			}
		}
	}
	// Processing-time windows: a dotted edge at each start, when at least three dots
	// apart; each window's sum in the right margin, on its middle line.
	if g.dy(m.Y.From)-g.dy(m.Y.From+m.WindowSize) >= 3 {
		for _, b := range m.ProcessingWindows {
			if b.Start > m.Y.From {
				y := g.dy(b.Start)
				g.line(0, y, 2*g.pw-1, y, 3, Bands)
			}
		}
	}
	labelled := make(map[int]bool)
	if g.right > 0 {
		for _, mk := range m.Marks {
			row := g.dy(mk.At) / 4
			g.put(g.left+g.pw+1, row, "◂"+mk.Label)
			labelled[row] = true
		}
		for _, b := range m.ProcessingWindows {
			row := (g.dy(b.Start) + g.dy(b.End-1)) / 8
			if !labelled[row] && b.End > m.Y.From && b.Start < m.Y.To {
				g.put(g.left+g.pw+1, row, bandLabel(b))
				labelled[row] = true
			}
		}
	}
	// The ideal diagonal, where the two axes overlap.
	if lo, hi := max(m.X.From, m.Y.From), min(m.X.To, m.Y.To)-1; lo < hi {
		g.line(g.dx(lo), g.dy(lo), g.dx(hi), g.dy(hi), 2, Diagonal)
	}
	// The watermark, as steps: it holds its event time until the next record meets a
	// later one.
	for i := 1; i < len(m.Watermark); i++ {
		a, b := m.Watermark[i-1], m.Watermark[i]
		if a.Watermark < m.X.From || b.Watermark < m.X.From {
			continue
		}
		g.line(g.dx(a.Watermark), g.dy(a.Processing), g.dx(a.Watermark), g.dy(b.Processing), 1, WatermarkLine)
		g.line(g.dx(a.Watermark), g.dy(b.Processing), g.dx(b.Watermark), g.dy(b.Processing), 1, WatermarkLine)
	}
	for _, mk := range m.Marks {
		if mk.At >= m.Y.From && mk.At < m.Y.To {
			g.line(0, g.dy(mk.At), 2*g.pw-1, g.dy(mk.At), 5, Marks)
		}
	}
	for _, p := range m.Points {
		if !m.X.has(p.Event) || !m.Y.has(p.Processing) {
			continue
		}
		l := Records
		switch {
		case p.Held:
			l = HeldRecords
		case p.Late:
			l = LateRecords
		}
		g.set(g.dx(p.Event), g.dy(p.Processing), l)
	}
	g.stripLabels()
	g.axes()
}

// stripLabels writes each event-time window's sum inside it, on the line above where
// it closed (on the top line if it never did), where it fits.
func (g *grid) stripLabels() {
	for _, s := range g.m.EventWindows {
		label := usd(s.USD)
		row := 0
		if s.Closed != 0 {
			row = g.dy(s.Closed)/4 - 1
		} else {
			label += " open"
		}
		c0, c1 := g.dx(max(s.Start, g.m.X.From))/2+1, g.dx(min(s.End, g.m.X.To)-1)/2
		if row < 0 || c1-c0 < len(label)+1 {
			continue
		}
		g.put(g.left+(c0+c1-len(label))/2, row, label)
	}
}

// axes draws both axes with their times, and the legend.
func (g *grid) axes() {
	m := g.m
	for y := range g.ph {
		g.put(g.left-1, y, "│")
	}
	yt, ys := ticks(m.Y, max(2, g.ph/2))
	for _, t := range yt {
		row := g.dy(t) / 4
		if t == m.Y.To {
			row = 0
		}
		label := clock(t, ys)
		g.put(g.left-1-len(label), row, label)
		g.put(g.left-1, row, "┤")
	}
	axis := g.ph
	g.put(g.left-1, axis, "└"+strings.Repeat("─", g.pw))
	xt, xs := ticks(m.X, max(2, g.pw/10))
	end := -1
	for _, t := range xt {
		col := g.left + g.dx(t)/2
		if t == m.X.To {
			col = g.left + g.pw - 1
		}
		g.put(col, axis, "┬")
		label := clock(t, xs)
		at := clamp(col-len(label)/2, 0, g.width-len(label))
		if at > end {
			g.put(at, axis+1, label)
			end = at + len(label)
		}
	}
	g.put(0, axis+2, fit(g.legend(), g.width))
}

// legend says what the picture shows in one line.
func (g *grid) legend() string {
	m := g.m
	late, held := 0, 0
	for _, p := range m.Points {
		if p.Late {
			late++
		}
		if p.Held {
			held++
		}
	}
	s := fmt.Sprintf("x event time · y processing time · %d records", len(m.Points))
	if m.Held != "" {
		s += fmt.Sprintf(", %d held (%s)", held, m.Held)
	}
	if late > 0 {
		s += fmt.Sprintf(", %d late", late)
	}
	for _, more := range []string{" · steps: watermark", " · diagonal: ideal", " · right: processing-time sums"} {
		if len([]rune(s+more)) > g.width {
			break
		}
		s += more
	}
	return s
}

// text returns the grid's lines, the plot's cells as braille.
func (g *grid) text(style func(Layer, string) string) string {
	for y := range g.ph {
		for x := range g.pw {
			if d := g.dots[y][x]; d != 0 && g.layers[y][g.left+x] != Text {
				g.runes[y][g.left+x] = rune(0x2800 + int(d))
			}
		}
	}
	var sb strings.Builder
	for y := range g.height {
		if y > 0 {
			sb.WriteByte('\n')
		}
		if style == nil {
			sb.WriteString(string(g.runes[y]))
			continue
		}
		for x := 0; x < g.width; {
			j := x + 1
			for j < g.width && g.layers[y][j] == g.layers[y][x] {
				j++
			}
			if s := string(g.runes[y][x:j]); g.layers[y][x] == Blank {
				sb.WriteString(s)
			} else {
				sb.WriteString(style(g.layers[y][x], s))
			}
			x = j
		}
	}
	return sb.String()
}

// bandLabel is a processing-time window's sum as the right margin shows it.
func bandLabel(b Band) string {
	return usd(b.USD)
}

// fit cuts or pads s to exactly n cells.
func fit(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		if n > 0 {
			return string(r[:n-1]) + "…"
		}
		return ""
	}
	return s + strings.Repeat(" ", n-len(r))
}

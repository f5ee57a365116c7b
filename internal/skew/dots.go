package skew

import (
	"math"
	"slices"
)

// dotCell is the side, in pixels, of the cells a long run's records are drawn in: a dot
// per cell and kind of record (on time, held, late, held and late), so the picture has
// at most one dot per 2 by 2 pixels of each kind. Where that still makes more than
// maxDots dots (records scattered all over the picture), the cell doubles until it does
// not, so the file stays bounded (about 60 bytes a dot) whatever the run.
const (
	dotCell = 2
	maxDots = 3000
)

// dot is one circle of a long run's picture: its class and where it is drawn.
type dot struct {
	class string
	x, y  float64
}

// pointClass is the record's SVG class: record, plus held and late when it is.
func pointClass(pt Point) string {
	cls := "record"
	if pt.Held {
		cls += " held"
	}
	if pt.Late {
		cls += " late"
	}
	return cls
}

// kinds are the records' classes in drawing order: the held and late ones on top.
var kinds = []string{"record", "record held", "record late", "record held late"}

// dots bins the records into cells of dotCell pixels, or more (see maxDots), and returns
// the dots and the cell's side.
func dots(points []Point, g svgGeom) ([]dot, int) {
	side := dotCell
	for {
		ds := dotsIn(points, g, float64(side))
		if len(ds) <= maxDots || side >= 64 {
			return ds, side
		}
		side *= 2
	}
}

// dotsIn bins the records into cells of side pixels, one dot per cell and kind at the
// cell's first record, drawn kind by kind in the order of kinds and each kind in arrival
// order.
func dotsIn(points []Point, g svgGeom, side float64) []dot {
	type cell struct {
		kind int
		x, y int
	}
	seen := map[cell]bool{}
	byKind := make([][]dot, len(kinds))
	for _, pt := range points {
		k := slices.Index(kinds, pointClass(pt))
		x, y := g.x(pt.Event), g.y(pt.Processing)
		c := cell{k, int(math.Floor(x / side)), int(math.Floor(y / side))}
		if seen[c] {
			continue
		}
		seen[c] = true
		byKind[k] = append(byKind[k], dot{class: kinds[k], x: x, y: y})
	}
	return slices.Concat(byKind...)
}

// pointCounts are a picture's records by kind.
type pointCounts struct{ onTime, held, late, heldLate int64 }

func countPoints(points []Point) pointCounts {
	var c pointCounts
	for _, pt := range points {
		switch {
		case pt.Held && pt.Late:
			c.held++
			c.late++
			c.heldLate++
		case pt.Held:
			c.held++
		case pt.Late:
			c.late++
		default:
			c.onTime++
		}
	}
	return c
}

// staircase is the watermark's polyline in whole pixels: at each step's processing time
// the event time it had reached before and after, clipped to the picture, with repeated
// points and the middle of three on one line left out.
func staircase(m Model, g svgGeom) [][2]int {
	cx := func(t int64) int { return int(math.Round(g.x(min(max(t, m.X.From), m.X.To)))) }
	cy := func(t int64) int { return int(math.Round(g.y(min(max(t, m.Y.From), m.Y.To)))) }
	var out [][2]int
	add := func(x, y int) {
		pt := [2]int{x, y}
		n := len(out)
		if n > 0 && out[n-1] == pt {
			return
		}
		if n > 1 && ((out[n-2][0] == x && out[n-1][0] == x) || (out[n-2][1] == y && out[n-1][1] == y)) {
			out[n-1] = pt
			return
		}
		out = append(out, pt)
	}
	for i, st := range m.Watermark {
		if i > 0 {
			add(cx(m.Watermark[i-1].Watermark), cy(st.Processing))
		}
		add(cx(st.Watermark), cy(st.Processing))
	}
	return out
}

package recording

import (
	"errors"
	"fmt"
	"io"
	"slices"
)

// defaultSkipReports is how many skipped lines a Skips keeps the reports of when its
// Limit is 0: a file of nothing but bad lines is summarized by a count, not printed.
const defaultSkipReports = 100

// Skip is one skipped line and why.
type Skip struct {
	Line int
	Err  error
}

// Skips counts the lines a read skipped, malformed lines and tombstones apart, and keeps
// the reports of the first Limit malformed ones by line number, whatever order they are
// added in (a replay at recorded pace finds a malformed event only after reading the
// whole file, and in arrival order). Its zero value is ready; its Add is the skip
// function of Reader.Records and of a replay.
type Skips struct {
	// Limit is how many reports are kept; 0 means DefaultSkipReports.
	Limit int
	// Malformed counts the lines that are not a record or hold no valid event;
	// Tombstones the records with a null value.
	Malformed, Tombstones int64
	kept                  []Skip
	// worst is the index in kept of the highest line.
	worst int
}

// Add counts a skipped line, and keeps its report while it is among the first Limit.
func (s *Skips) Add(line int, err error) {
	if errors.Is(err, ErrTombstone) {
		s.Tombstones++
		return
	}
	s.Malformed++
	limit := s.Limit
	if limit <= 0 {
		limit = defaultSkipReports
	}
	if len(s.kept) < limit {
		s.kept = append(s.kept, Skip{line, err})
		if line > s.kept[s.worst].Line {
			s.worst = len(s.kept) - 1
		}
		return
	}
	if line >= s.kept[s.worst].Line {
		return
	}
	s.kept[s.worst] = Skip{line, err}
	for i, k := range s.kept {
		if k.Line > s.kept[s.worst].Line {
			s.worst = i
		}
	}
}

// Total is every line skipped: malformed lines and tombstones.
func (s *Skips) Total() int64 { return s.Malformed + s.Tombstones }

// reports returns the reports kept, in line order.
func (s *Skips) reports() []Skip {
	out := slices.Clone(s.kept)
	slices.SortStableFunc(out, func(a, b Skip) int { return a.Line - b.Line })
	return out
}

// Lines returns what a person reads about the skipped lines of the file called name:
// one "name:line: skipped: why" a kept report, in line order, then a line for the
// reports left out and one for the tombstones.
func (s *Skips) Lines(name string) []string {
	var out []string
	for _, k := range s.reports() {
		out = append(out, fmt.Sprintf("%s:%d: skipped: %v", name, k.Line, k.Err))
	}
	if more := s.Malformed - int64(len(s.kept)); more > 0 {
		out = append(out, fmt.Sprintf("%s: %d more malformed lines skipped, not shown (only the first %d are)", name, more, len(s.kept)))
	}
	if s.Tombstones > 0 {
		out = append(out, fmt.Sprintf("%s: %d tombstones (records with a null value) skipped", name, s.Tombstones))
	}
	return out
}

// Report writes Lines(name) to w, one a line.
func (s *Skips) Report(w io.Writer, name string) error {
	for _, l := range s.Lines(name) {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	return nil
}

package labrt

import (
	"fmt"
	"strconv"

	"github.com/labtui/labtui/internal/logcap"
)

// What the job cannot do is said here, the same on every backend, in lines capped by
// kind (logcap): a stream of malformed records, or an error that comes back with every
// fetch, would otherwise write a line each without end.

// Skipped logs a record the job skipped as malformed: where it was (a topic, partition
// and offset, or what it held when the backend cannot say where) and why. The first
// logcap.First are logged, then one at each power of ten that says how many there were;
// the job's Stats.Malformed counts them all.
func (rt *Runtime) Skipped(where string, why error) {
	ok, n := rt.logs.Line("malformed")
	switch {
	case !ok:
	case n <= logcap.First:
		rt.Logf("skipped %s: %v", where, why)
	default:
		rt.Logf("skipped %s: %v (the %s record skipped as malformed: past the first %d only every power of ten is logged)",
			where, why, ordinal(n), logcap.First)
	}
}

// Unreadable says that the job cannot read topic (deleted from outside, say, or a fetch
// that fails each time): it then reads nothing more, and the panes stand still. It is
// said once, then at each power of ten of the times it was seen again.
func (rt *Runtime) Unreadable(topic string, why error) {
	ok, n := rt.logs.Line("unreadable " + topic)
	if !ok || (n > 1 && n <= logcap.First) {
		return
	}
	what := fmt.Sprintf("the job cannot read topic %s (%v): it reads nothing more, so the panes stand still; quit and start labtui again", topic, why)
	if n > 1 {
		what += fmt.Sprintf(" (seen %d times)", n)
	}
	rt.Logf("%s", what)
}

// ordinal is n as "21st", "100th".
func ordinal(n int64) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.FormatInt(n, 10) + suffix
}

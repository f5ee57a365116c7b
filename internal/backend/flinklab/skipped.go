package flinklab

import (
	"encoding/json"
	"errors"
	"strings"
)

// malformed takes the body of a "malformed>" print line, {"reason": …, "value": …}, as
// the lab's job writes a value it refused, from the TaskManager's stdout or the results
// topic: it counts it in Stats.Malformed and says it through the runtime's capped log
// (labrt.Runtime.Skipped). The job's print line does not say where the value was, so the
// line names what it held, cut to 200 bytes.
func (l *Lab) malformed(body string) {
	l.mu.Lock()
	l.books.stats.Malformed++
	l.mu.Unlock()
	body = strings.TrimSpace(body)
	var m struct {
		Reason *string `json:"reason"`
		Value  *string `json:"value"`
	}
	if err := json.Unmarshal([]byte(body), &m); err != nil || m.Reason == nil || m.Value == nil {
		l.Skipped("a record of "+l.Spec().Topic, errors.New(truncate(body, 200)))
		return
	}
	l.Skipped("a record of "+l.Spec().Topic+" holding "+truncate(*m.Value, 200), errors.New(*m.Reason))
}

package flinklab

import (
	"encoding/json"
	"errors"
	"strings"
)

// skipped takes the body of a "malformed>" print line, {"reason": …, "value": …}, as the
// lab's job writes a value it refused, and says it through the runtime's capped log
// (labrt.Runtime.Skipped): the job's print line does not say where the value was, so
// the line names what it held, cut to 200 bytes.
func (l *Lab) skipped(body string) {
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

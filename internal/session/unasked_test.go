package session

import (
	"testing"

	"github.com/labtui/labtui/internal/state"
)

// TestAnswersToQuestionsThisLabDoesNotAskAreKept: a saved answer to a question the lab
// does not ask (4.9z, from another version) is listed by Unasked and saved again by
// every Snapshot, beside the answers the driver hands it; a question it asks is the
// driver's to restore.
func TestAnswersToQuestionsThisLabDoesNotAskAreKept(t *testing.T) {
	l := newLab()
	saved := state.New()
	saved.Answers["4.9z"] = "from another version"
	saved.Answers["4.1a"] = "they agree"
	l.h.Restore(saved)
	if u := l.h.Unasked(); len(u) != 1 || u["4.9z"] != "from another version" {
		t.Errorf("Unasked = %v, want only 4.9z", u)
	}
	st := l.h.Snapshot(map[string]string{"4.1a": "they agree, now typed"}, 3)
	if st.Answers["4.9z"] != "from another version" || st.Answers["4.1a"] != "they agree, now typed" {
		t.Errorf("the snapshot's answers = %v", st.Answers)
	}
}

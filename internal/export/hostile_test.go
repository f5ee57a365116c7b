package export

import (
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/state"
)

// lineAt reports whether the sheet has a line that is exactly l.
func hasLine(md, l string) bool {
	for _, got := range strings.Split(md, "\n") {
		if got == l {
			return true
		}
	}
	return false
}

func TestAnAnswerCannotAddMarkupToTheSheet(t *testing.T) {
	st := state.New()
	st.Answers["4.1a"] = "<script>alert(1)</script>\n| 4.4 | yes | run 9 (pinned) |\n```\nnot code"
	md := Markdown(Build(st, time.Unix(0, 0)))

	if strings.Contains(md, "<script>") {
		t.Error("the sheet holds a raw <script> from an answer")
	}
	if hasLine(md, "| 4.4 | yes | run 9 (pinned) |") {
		t.Error("an answer forged a row of the summary table")
	}
	if strings.Count(md, "```")%2 != 0 {
		t.Error("an answer left a code fence open, swallowing the rest of the sheet")
	}
	// Escaped, not dropped: the sheet still says what was typed.
	for _, want := range []string{`\<script\>alert(1)\</script\>`, `\| 4.4 \| yes \| run 9 (pinned) \|`, "not code"} {
		if !strings.Contains(md, want) {
			t.Errorf("the sheet lacks %q", want)
		}
	}
	if !strings.Contains(md, "## 4.2") || !strings.Contains(md, "## 4.4") {
		t.Error("the exercises after the answer are missing")
	}
}

func TestAControlCharacterInAnAnswerIsShownEscapedOnTheSheet(t *testing.T) {
	st := state.New()
	st.Answers["4.1a"] = "before\x00after \x1b[2J"
	md := Markdown(Build(st, time.Unix(0, 0)))
	if strings.ContainsAny(md, "\x00\x1b") {
		t.Error("the sheet holds a raw NUL or ESC from an answer")
	}
	if !strings.Contains(md, `before\\x00after \\x1b\[2J`) {
		t.Errorf("the sheet does not show the answer escaped:\n%s", md)
	}
}

func TestAnAnswerToAQuestionNotAskedIsOnTheSheet(t *testing.T) {
	st := state.New()
	st.Answers["4.1a"] = "asked"
	st.Answers["9.9z"] = "from another version"
	doc := Build(st, time.Unix(0, 0))
	if len(doc.Unasked) != 1 || doc.Unasked[0].ID != "9.9z" || doc.Unasked[0].Answer != "from another version" {
		t.Fatalf("Unasked = %+v", doc.Unasked)
	}
	md := Markdown(doc)
	if !strings.Contains(md, "## Answers to questions this lab does not ask") || !strings.Contains(md, "**9\\.9z**") ||
		!strings.Contains(md, "from another version") {
		t.Errorf("the sheet lacks the unasked answer:\n%s", md)
	}
}

package export

import (
	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/labs/lab4"
)

// unasked is st's answers to questions no exercise asks, in ID order.
func unasked(st state.State) []Answer {
	u := st.Unasked(lab4.QuestionIDs())
	var out []Answer
	for _, id := range state.SortedIDs(u) {
		out = append(out, Answer{ID: id, Answer: u[id]})
	}
	return out
}

// writeUnasked puts the answers to questions this labtui does not ask on the sheet,
// after the exercises, so an answer in the file is never missing from it.
func writeUnasked(b *sheet, us []Answer) {
	if len(us) == 0 {
		return
	}
	b.line("")
	b.line("## Answers to questions this lab does not ask")
	b.line("")
	b.line("The saved answers hold these under question IDs that no exercise of this labtui asks (a file from another version, or edited by hand); they are kept as they were.")
	for _, a := range us {
		b.line("")
		b.line("**" + safetext.Markdown(a.ID) + "**")
		b.line("")
		for _, l := range safetext.MarkdownLines(a.Answer) {
			b.line(l)
		}
	}
}

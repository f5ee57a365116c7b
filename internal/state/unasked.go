package state

import "sort"

// Unasked returns the answers whose question is not among questions, the IDs of those
// this labtui asks (lab4.QuestionIDs): a file from another version, or edited by hand;
// by question ID, or nil when there are none. They are kept: saved again with the rest
// and written on the sheet, never dropped.
func (s State) Unasked(questions []string) map[string]string {
	asked := map[string]bool{}
	for _, q := range questions {
		asked[q] = true
	}
	var out map[string]string
	for id, a := range s.Answers {
		if !asked[id] && a != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[id] = a
		}
	}
	return out
}

// SortedIDs returns the keys of answers in order.
func SortedIDs(answers map[string]string) []string {
	ids := make([]string, 0, len(answers))
	for id := range answers {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Package thousands writes counts the way labtui shows them to the learner: digits in
// groups of three, separated by commas (143,400), on screen and in the answer sheet alike.
package thousands

import "strconv"

// Format writes n with thousands separated by commas: 143,400, -1,024, 999.
func Format(n int64) string {
	s := strconv.FormatInt(n, 10)
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

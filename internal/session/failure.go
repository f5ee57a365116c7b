package session

// runBefore is the run the session kept just before run, nil when none is kept.
func (s *Session) runBefore(run *Run) *Run {
	for i, r := range s.runs {
		if r == run && i > 0 {
			return s.runs[i-1]
		}
	}
	return nil
}

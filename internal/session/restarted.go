package session

import "fmt"

// RestartNote says what run is when the job was started again on a replay's topic (w, t
// or x after a replay): it reads the recorded hour again from the earliest offset, as
// fast as it can, but it is not a replay: it reports no replay progress, it is not
// compared with the reference, and no exercise counts it. It is "" for any other run.
func RestartNote(run *Run) string {
	if run == nil || run.Replay || !run.ReadsRecording() {
		return ""
	}
	return fmt.Sprintf("run %d is not a replay (r replays with this strategy, t with the other field): the job restarted on the "+
		"replay's topic and reads the recorded hour again from the earliest offset, with no progress bar and no diff, "+
		"and no exercise counts it", run.ID)
}

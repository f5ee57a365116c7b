package state

// Exercise is one "Try it" step of Lab 4: the course's instruction, what labtui
// counts as evidence that the step was done, and the questions the learner answers.
type Exercise struct {
	// ID is the course's number, "4.1" to "4.4".
	ID string
	// Instruction is the course's text for the step, verbatim.
	Instruction string
	// Evidence says, in one sentence, what ticks the step.
	Evidence string
	// Questions are what the learner writes down for the step.
	Questions []Question
}

// Question is one answer the learner writes for an exercise.
type Question struct {
	// ID is the exercise's ID and a letter, "4.2b".
	ID string
	// Prompt is the question as the learner reads it.
	Prompt string
}

// Exercises returns the four steps of Lab 4's "Try it", with the instructions quoted
// from the course (../shared/course, "Event Time and Processing Time").
func Exercises() []Exercise {
	return []Exercise{
		{
			ID: "4.1",
			Instruction: "Add both TenantCost windows to the job side by side, writing to two print sinks, " +
				"and run the live generator for five minutes. Confirm the per-minute sums agree while " +
				"events arrive promptly.",
			Evidence: "five minutes of one live run in which events arrived promptly (no hiccup, restart or late record in them) " +
				"and both windows agree, tenant by tenant",
			Questions: []Question{
				{ID: "4.1a", Prompt: "Do the per-minute sums agree while events arrive promptly? Note any minute that did not, and why."},
			},
		},
		{
			ID: "4.2",
			Instruction: "Inject the 30-second retry delay for one gateway instance. Reproduce the table above " +
				"from the two outputs, and record whether the event-time window still receives the burst " +
				"under for_monotonous_timestamps() — and what the operator's event time was when r-103 arrived.",
			Evidence: "a hiccup whose hold crossed a minute boundary and made the event-time window drop records as late " +
				"under for_monotonous_timestamps(), taken once both windows closed the minute the hold ended in: " +
				"the late records, the watermark each met, and both columns for the minutes it touched",
			Questions: []Question{
				{ID: "4.2a", Prompt: "Does the event-time window still receive the burst under for_monotonous_timestamps()?"},
				{ID: "4.2b", Prompt: "What was the operator's event time (its watermark) when the r-103-style late records arrived?"},
			},
		},
		{
			ID: "4.3",
			Instruction: "Replay the recorded hour from the earliest offset into both jobs. Diff the event-time " +
				"output against the live run; explain the processing-time output.",
			Evidence: "a replay of the recorded hour with completed_ts, read to the end and diffed against the reference you chose " +
				"(by default the hour re-enacted at its recorded times), with the processing-time minutes the whole hour landed in",
			Questions: []Question{
				{ID: "4.3a", Prompt: "How does the replayed event-time output compare with the live run?"},
				{ID: "4.3b", Prompt: "Explain the processing-time output of the replay."},
			},
		},
		{
			ID: "4.4",
			Instruction: "Switch EventTsAssigner to started_ts, replay again, and find a request whose cost " +
				"moved minutes. State in one sentence each why TenantCost and module 6's ModelLatency both " +
				"use completed_ts.",
			Evidence: "a replay with started_ts read to the end, and a request whose cost moved to another minute",
			Questions: []Question{
				{ID: "4.4a", Prompt: "Which request's cost moved minutes, from which minute to which?"},
				{ID: "4.4b", Prompt: "In one sentence: why does TenantCost use completed_ts?"},
				{ID: "4.4c", Prompt: "In one sentence: why does module 6's ModelLatency use completed_ts?"},
			},
		},
	}
}

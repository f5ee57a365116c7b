package session

import "context"

// Task is work a Session needs done off its driver's loop: re-enacting a recording,
// comparing a replay with its reference, listing the requests whose minute moved. Run it
// in any goroutine and hand its Outcome to Finish on the loop that calls Apply.
type Task struct {
	// What says in a few words what the task works out, for a log line.
	What string
	run  func(ctx context.Context) Outcome
}

// Run does the work. It reads only copies taken when the Task was made, so it may run
// while the Session takes in more updates.
func (t Task) Run(ctx context.Context) Outcome { return t.run(ctx) }

// Outcome is what a Task worked out, to be taken in by Finish.
type Outcome struct {
	apply func(*Session) []Task
}

// Finish takes in a Task's outcome: the reference, comparison or list it worked out,
// and the evidence that goes with it. It returns the Tasks that can start now.
func (s *Session) Finish(o Outcome) []Task {
	if o.apply == nil {
		return nil
	}
	return o.apply(s)
}

// RunTasks runs tasks one after the other on the caller's goroutine, taking in each
// outcome and the tasks it starts, until none is left or ctx is done: for a driver with
// no loop of its own to spare, as the headless run before it saves.
func (s *Session) RunTasks(ctx context.Context, tasks []Task) {
	for len(tasks) > 0 && ctx.Err() == nil {
		t := tasks[0]
		tasks = append(tasks[1:], s.Finish(t.Run(ctx))...)
	}
}

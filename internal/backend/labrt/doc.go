// Package labrt is the lab runtime: what every backend of Lab 4 shares, so that a
// backend is only what differs between them, where Kafka and the job are and how they
// start, stop and restart.
//
// A Runtime holds:
//
//   - the gateway fleet (SetGenerator, with the seed bumped at each start so a new
//     schedule has new request ids), the hiccup injector at its connections (Inject,
//     and the configured schedule from Started), and their totals across every start
//     of the generator (Totals), which a run's summary balances against;
//   - the runs of the job: Restart stops the job, announces the run that begins (its
//     number, its backend.Cause, the recording it reads, its timestamp field and
//     watermarks) and starts the next job; RestartJob and Reconfigure are restarts of
//     that kind; Begin announces a restart the job went through by itself;
//   - one outbox, the only way updates leave: restarts, replay progress and log lines
//     are queued and never dropped; results wait in a bounded batch of the run they
//     belong to, and what is dropped past the bound is counted exactly (Lost), or, with
//     Config.Lossless, the job is held back instead; everything goes out in the order it
//     happened, a run's results before the restart that ends it;
//   - one pump (StartPump) that sends, every StatusEvery, what is queued and then the
//     batch with a fresh backend.Status (the fleet's instances and the job's state, with
//     the job's latency measured on its traces);
//   - the one replay (Replay): a recording into a fresh topic, complete when the job has
//     read all of it.
//   - what the job cannot do, said alike on every backend in lines capped by kind:
//     Skipped for a record the job refused, Unreadable for a topic it cannot read; and a
//     watch that asks Kafka every TopicEvery whether the job's topic is still there
//     (Status.TopicGone), which RestartJob and Reconfigure check first (CheckTopic).
//
// # Adding a backend
//
// A backend embeds *Runtime, which gives it Updates, SetGenerator, Inject, RestartJob,
// Reconfigure and Status, and writes four things:
//
//  1. A Job: Start(ctx, spec, collect) starts a job reading spec.Topic from
//     spec.StartAt with spec's event-time field and watermarks, with empty state, and
//     hands each result to collect; Stop stops it after its last result; Status is
//     what the job's state is now, as far as the backend can see it. A backend that
//     reads every job's output from one place (the compose lab reads one log) calls
//     Runtime.Collect instead of the collect it was given.
//  2. Start: call StartPump first (so progress flows while things come up), bring Kafka
//     and the job's host up, call SetKafka (where Kafka is, the live topic), then
//     Restart with a backend.CauseStart restart and the first Spec, then Started.
//  3. Replay: call Runtime.Replay with a ReplayTarget (a producer for the backend's
//     Kafka, the partitions, a step once the job reads the replay's topic). It stops the
//     generator, writes the recording into a fresh topic (ReplayTopic), restarts the job
//     on it from Earliest and reports Progress; the completion, with Done set, comes
//     once the job has read every record written (its JobStatus.Read), after every
//     result collected before it. So the Job's Status must fill Read, and should fill
//     Reads (how it read each partition); a Job that can say at once that it read more
//     is a Changer.
//  4. Close: Closing (which fails later calls), StopFleet, stop what the backend runs,
//     then Runtime.Close, which sends what waits and closes Updates.
//
// A job that restarts by itself (a TaskManager that dies, Flink restarting a failed
// job) is announced with Begin and a backend.CauseFailure or CauseKill restart as soon
// as the backend sees it; a backend whose kill is not a stop and start (the compose
// lab kills the taskmanager) defines its own RestartJob. Package embedded is the
// smallest example: a livejob.Job on an in-process broker, in about 150 lines.
package labrt

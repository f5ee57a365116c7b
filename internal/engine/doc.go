// Package engine is a small stream processor with Apache Flink's time semantics: records
// carrying event timestamps, periodic watermarks, keyed state with event-time timers, a
// processing-time service, and tumbling windows on either clock.
//
// An engine job is a chain of operators wired by hand, each the Output of the one before
// it, all driven from one goroutine, as a Flink task drives its chained operators from
// its mailbox thread. Processing time comes from a Runtime that the driver advances:
// along a simulated clock for replays and tests, or along the wall clock for live runs.
// Parallelism is one, so the order of records and watermarks on every edge is the order
// a parallelism-one Flink job would see.
//
// Every rule follows Flink 2.x and names the class it comes from; the package tests read
// like Flink's operator-harness tests: elements and watermarks in, exact results out.
package engine

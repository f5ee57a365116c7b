// Package jobspec is the contract of the lab's GatewayMeter job: its options, and what its
// print sinks write (fired windows on both clocks, late records, traces, pending windows),
// with their text and JSON formats and a reader for them. It imports no engine: the job
// itself, on the embedded engine, is package enginejob, and the PyFlink job in the lab
// writes the same lines.
package jobspec

// Package enginejob is the lab's GatewayMeter job wired from the engine's parts, exactly
// as the course's PyFlink job is: parse, a timestamp assigner with its watermark strategy,
// the RequestAssembler keyed by request_id, then TenantCost, a one-minute tumbling window
// keyed by tenant, twice, once on processing time and once on event time, each to its own
// sink, with late records on a side output. Its options and what it writes are package
// meter's, which imports no engine, so what shows results need not import this.
package enginejob

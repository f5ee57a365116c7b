// Package gateway is the domain model of the lab's LLM gateway: the events each gateway
// instance writes to the gateway-events topic, the RequestRecord a job assembles from them,
// the price table, and the per-minute TenantCostMinute the lab's windows emit.
//
// It is plain Go with no Kafka, engine or terminal imports, so every rule here can be
// tested as a pure function.
package gateway

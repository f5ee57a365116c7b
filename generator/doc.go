// Package generator plays the lab's LLM gateway: instances gw-0 … gw-N-1, each its own
// idempotent franz-go producer, writing RequestStarted and RequestCompleted events to the
// gateway-events topic.
//
// It is split in two. A Schedule is pure and clock-free: from a Config and a start time
// it yields the events of a Poisson stream of requests in time order, the same events
// for the same seed, so a simulated recording and the tests can use it without Kafka. A
// Generator releases a schedule's events on a Clock, each when its ts arrives, through
// the client of the instance that owns it, and counts what each instance has produced,
// had acknowledged, and still holds.
package generator

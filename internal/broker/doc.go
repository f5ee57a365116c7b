// Package broker runs the lab's Kafka broker inside labtui: a kfake cluster of one broker
// that speaks the real Kafka wire protocol on a loopback TCP port, with the gateway-events
// topic already created. Any Kafka client (franz-go, kcat, the PyFlink job) can attach to
// it; its data lives in memory and is gone when it closes.
package broker

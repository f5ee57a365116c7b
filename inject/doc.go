// Package inject makes the lab's broker hiccup: for a chosen gateway instance and
// duration, that instance loses its connection to Kafka. Its producer's connections are
// dropped when the hiccup starts and every new dial is refused, with the same errors a
// broker restart produces, until the hiccup ends. The instance's own franz-go retry
// buffer holds its events and retries them; when the hiccup ends they are delivered in
// their original order with their original ts, and idempotence keeps them from being
// duplicated.
//
// The fault sits in the dialer, between the client and the broker, and knows nothing
// of the broker: it behaves the same against the embedded broker and a real Kafka
// cluster. Other instances have their own producers and connections and are untouched.
package inject

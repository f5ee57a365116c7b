package labrt

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/logcap"
)

// What the job cannot do is said here, the same on every backend, in lines capped by
// kind (logcap): a stream of malformed records, or an error that comes back with every
// fetch, would otherwise write a line each without end.

// Skipped logs a record the job skipped as malformed: where it was (a topic, partition
// and offset, or what it held when the backend cannot say where) and why. The first
// logcap.First are logged, then one at each power of ten that says how many there were;
// the job's Stats.Malformed counts them all.
func (rt *Runtime) Skipped(where string, why error) {
	ok, n := rt.logs.Line("malformed")
	switch {
	case !ok:
	case n <= logcap.First:
		rt.Logf("skipped %s: %v", where, why)
	default:
		rt.Logf("skipped %s: %v (the %s record skipped as malformed: past the first %d only every power of ten is logged)",
			where, why, ordinal(n), logcap.First)
	}
}

// Unreadable says that the job cannot read topic (deleted from outside, say, or a fetch
// that fails each time): it then reads nothing more, and the panes stand still. It is
// said once, then at each power of ten of the times it was seen again.
func (rt *Runtime) Unreadable(topic string, why error) {
	ok, n := rt.logs.Line("unreadable " + topic)
	if !ok || (n > 1 && n <= logcap.First) {
		return
	}
	what := fmt.Sprintf("the job cannot read topic %s (%v): it reads nothing more, so the panes stand still; quit and start labtui again", topic, why)
	if n > 1 {
		what += fmt.Sprintf(" (seen %d times)", n)
	}
	rt.Logf("%s", what)
}

// errTopicGone wraps the error of a call that needs the job's topic when Kafka no
// longer has it.
var errTopicGone = errors.New("the topic is gone from Kafka")

// CheckTopic returns an error wrapping ErrTopicGone, in a sentence that says what
// happened and what can be done, when Kafka has no topic named topic; nil when it has
// it or cannot say (the call that needs it then says what went wrong).
func (rt *Runtime) CheckTopic(ctx context.Context, topic string) error {
	cl, _ := rt.topicClient(nil, nil)
	if cl == nil {
		return nil
	}
	defer cl.Close()
	gone, err := topicGone(ctx, cl, topic)
	if err != nil || !gone {
		return nil
	}
	return topicGoneError{topic}
}

// topicGoneError is CheckTopic's sentence, short enough for the TUI's status line.
type topicGoneError struct{ topic string }

func (e topicGoneError) Error() string {
	return "topic " + e.topic + " was deleted from outside: the job is left as it is, with its results; to go on, quit and start labtui again"
}

func (topicGoneError) Is(target error) bool { return target == errTopicGone }

// topicClient returns a client of the brokers the runtime was given (SetKafka), or nil
// before it has any. When cl already talks to those brokers (seeds) it is returned as it
// is; otherwise it is closed and a new one made.
func (rt *Runtime) topicClient(cl *kgo.Client, seeds []string) (*kgo.Client, []string) {
	rt.mu.Lock()
	brokers := rt.brokers
	rt.mu.Unlock()
	if cl != nil && slices.Equal(brokers, seeds) {
		return cl, seeds
	}
	if cl != nil {
		cl.Close()
	}
	if len(brokers) == 0 {
		return nil, nil
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers...))
	if err != nil {
		return nil, nil
	}
	return cl, brokers
}

// topicGone asks Kafka, through cl, whether it has topic; it never creates it.
func topicGone(ctx context.Context, cl *kgo.Client, topic string) (bool, error) {
	if topic == "" {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	md, err := kadm.NewClient(cl).Metadata(ctx, topic)
	if err != nil {
		return false, err
	}
	td, ok := md.Topics[topic]
	if !ok {
		return true, nil
	}
	return errors.Is(td.Err, kerr.UnknownTopicOrPartition) || errors.Is(td.Err, kerr.UnknownTopicID), nil
}

// watchTopic checks, every Config.TopicEvery until the lab closes, that Kafka still has
// the topic the job reads, and says when it has gone (Unreadable) and sets Status's
// TopicGone: a job on a deleted topic reads nothing more, on any backend, and Flink's
// Kafka source does not fail for it.
func (rt *Runtime) watchTopic(done chan struct{}) {
	defer close(done)
	t := time.NewTicker(rt.cfg.TopicEvery)
	defer t.Stop()
	// One client for the watch's life, not one per check: a check is a metadata
	// request on a connection already open.
	var cl *kgo.Client
	var seeds []string
	defer func() {
		if cl != nil {
			cl.Close()
		}
	}()
	for {
		select {
		case <-rt.life.Done():
			return
		case <-t.C:
		}
		if cl, seeds = rt.topicClient(cl, seeds); cl != nil { // else no Kafka yet
			rt.checkTopicGone(cl)
		}
	}
}

// checkTopicGone is one check of watchTopic, through cl: it sets or clears Status's
// TopicGone, and says when the topic has gone since the last check.
func (rt *Runtime) checkTopicGone(cl *kgo.Client) {
	topic := rt.Spec().Topic
	gone, err := topicGone(rt.life, cl, topic)
	if err != nil || rt.life.Err() != nil || topic != rt.Spec().Topic {
		return // a restart onto another topic, or Kafka not answering: asked again
	}
	rt.mu.Lock()
	was := rt.topicGoneName == topic
	if gone {
		rt.topicGoneName = topic
	} else if was {
		rt.topicGoneName = ""
	}
	rt.mu.Unlock()
	if gone && !was {
		rt.Unreadable(topic, errTopicGone)
	}
}

// ordinal is n as "21st", "100th".
func ordinal(n int64) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.FormatInt(n, 10) + suffix
}

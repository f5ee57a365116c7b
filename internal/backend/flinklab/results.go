package flinklab

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/localcluster"
	"github.com/labtui/labtui/internal/logcap"
	"github.com/labtui/labtui/internal/safetext"
)

// ResultsTopic is the topic the job of session writes its results to (its
// --results-topic): gateway-meter-lab4-SESSION-results, one partition, so it keeps the
// order the job wrote in.
func ResultsTopic(session string) string { return SessionJobName(session) + "-results" }

// SessionJobName is the name gateway_meter.py gives the job of session (its --session):
// gateway-meter-lab4-SESSION, or JobName for no session.
func SessionJobName(session string) string {
	if session == "" {
		return JobName
	}
	return JobName + "-" + session
}

// labJob reports whether name is one of the lab's jobs: JobName, or a session's.
func labJob(name string) bool {
	return name == JobName || len(name) > len(JobName)+1 && name[:len(JobName)+1] == JobName+"-"
}

// topicLine is one value of the results topic, as gateway_meter.py's results_line writes
// it: the print line `output> result`, tagged with the session and the submission (its
// --run-id) that wrote it.
type topicLine struct {
	Session *string         `json:"session"`
	Run     *string         `json:"run"`
	Output  string          `json:"output"`
	Result  json.RawMessage `json:"result"`
}

// resultsReader reads the session's results topic from where it ended when the lab
// started, and hands each line of the running submission to the lab. A line that is not
// one the job writes, or that another session or another job wrote, is counted and said
// on the log (capped, logcap), never shown as a result: on a topic labtui does not own,
// anyone may write.
type resultsReader struct {
	topic   string
	session string
	cl      *kgo.Client
	adm     *kadm.Client
	logf    Log
	cap     logcap.Cap

	mu   sync.Mutex
	read *sync.Cond
	// next is the offset after the last record handled.
	next int64
	// run is the running submission's --run-id; earlier are the lab's submissions before.
	run     string
	earlier map[string]bool
	closed  bool
}

// resultsMetadataAge lets listedPartitions ask the broker again within a second: kgo
// answers a metadata request from its cache for MetadataMinAge (5 s by default).
var resultsMetadataAge = kgo.MetadataMinAge(250 * time.Millisecond)

// listedPartitions is how many partitions the broker's metadata lists for topic, asked
// every 100 ms until it lists some, up to wait: a topic just created can be listed for
// a moment with none, or not at all (its metadata has not reached the broker asked),
// which two sessions starting at once on one broker met. After wait, what was last
// listed is the answer.
func listedPartitions(ctx context.Context, adm *kadm.Client, topic string, wait time.Duration) (int, error) {
	deadline := time.Now().Add(wait)
	for {
		topics, err := adm.ListTopics(ctx, topic)
		n := len(topics[topic].Partitions)
		if err == nil && topics[topic].Err != nil {
			err = topics[topic].Err
		}
		if err == nil && n > 0 || ctx.Err() != nil || time.Now().After(deadline) {
			return n, err
		}
		select {
		case <-ctx.Done():
			return n, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// resultsTopicConfigs are the configs of a results topic labtui creates. The job's
// KafkaSink stamps each line with its element's timestamp, a replay's the recording's
// event time, days old; with those stamps a broker's time retention (7 days by default)
// could delete a replay's results before labtui reads them. With LogAppendTime the
// broker stamps each line when it is written, so retention counts from then; labtui reads
// only the values.
var resultsTopicConfigs = map[string]string{"message.timestamp.type": "LogAppendTime"}

// openResults creates the session's results topic unless it exists, and returns a reader
// of it from its end offset now: whatever an earlier run of the session wrote there is
// not read. Run starts reading.
func openResults(ctx context.Context, broker, topic, session string, logf Log) (*resultsReader, error) {
	if err := localcluster.CreateTopic(ctx, broker, topic, 1, resultsTopicConfigs, logf); err != nil {
		return nil, err
	}
	meta, err := kgo.NewClient(kgo.SeedBrokers(broker), kgo.ClientID("labtui-results"), resultsMetadataAge)
	if err != nil {
		return nil, fmt.Errorf("read the results topic %s: %w", topic, err)
	}
	adm := kadm.NewClient(meta)
	n, err := listedPartitions(ctx, adm, topic, 10*time.Second)
	if err == nil && n != 1 {
		err = fmt.Errorf("it has %d partitions, and the job's results are read from one, in the order it wrote them: delete the topic, or give another --session", n)
	}
	if err != nil {
		meta.Close()
		return nil, fmt.Errorf("the results topic %s: %w", topic, err)
	}
	end, err := endOffset(ctx, adm, topic)
	if err != nil {
		meta.Close()
		return nil, err
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(broker), kgo.ClientID("labtui-results"),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().At(end)}}),
		kgo.FetchMaxWait(500*time.Millisecond))
	if err != nil {
		meta.Close()
		return nil, fmt.Errorf("read the results topic %s: %w", topic, err)
	}
	r := &resultsReader{topic: topic, session: session, cl: cl, adm: adm, logf: logf, next: end, earlier: map[string]bool{}}
	r.read = sync.NewCond(&r.mu)
	return r, nil
}

// endOffset is the end offset of the results topic's one partition.
func endOffset(ctx context.Context, adm *kadm.Client, topic string) (int64, error) {
	ends, err := adm.ListEndOffsets(ctx, topic)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		return 0, fmt.Errorf("list the end offset of the results topic %s: %w", topic, err)
	}
	o, ok := ends.Lookup(topic, 0)
	if !ok {
		return 0, fmt.Errorf("the results topic %s has no partition 0", topic)
	}
	return o.Offset, nil
}

// newRunID is a fresh --run-id: 12 hex digits.
func newRunID() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// begin makes id the running submission: the lines it writes are the lab's from now on,
// and those of the submission before are counted and said if any still comes.
func (r *resultsReader) begin(id string) {
	r.mu.Lock()
	if r.run != "" {
		r.earlier[r.run] = true
	}
	r.run = id
	r.mu.Unlock()
}

// follow reads the topic until ctx ends, handing each line of the running submission to
// take as its print line's sink identifier and JSON; a line take refuses is counted and
// said with take's reason.
func (r *resultsReader) follow(ctx context.Context, take func(output string, result []byte) error) {
	defer func() {
		r.cl.Close()
		r.adm.Close()
		r.mu.Lock()
		r.closed = true
		r.read.Broadcast()
		r.mu.Unlock()
	}()
	for ctx.Err() == nil {
		fs := r.cl.PollFetches(ctx)
		if ctx.Err() != nil {
			return
		}
		fs.EachError(func(topic string, p int32, err error) {
			if !errors.Is(err, context.Canceled) {
				if log, n := r.cap.Line("fetch"); log {
					r.logf("read the results topic %s: %v (%d times so far): results wait until it answers", r.topic, err, n)
				}
			}
		})
		fs.EachRecord(func(rec *kgo.Record) {
			r.handle(rec.Offset, rec.Value, take)
			r.mu.Lock()
			r.next = rec.Offset + 1
			r.read.Broadcast()
			r.mu.Unlock()
		})
	}
}

// handle takes one value of the topic at offset.
func (r *resultsReader) handle(offset int64, value []byte, take func(string, []byte) error) {
	var l topicLine
	dec := json.NewDecoder(bytes.NewReader(value))
	err := dec.Decode(&l)
	switch {
	case err == nil && dec.More():
		err = errors.New("more than one JSON value")
	case err == nil && (l.Session == nil || l.Run == nil || l.Output == "" || len(l.Result) == 0):
		err = errors.New(`it lacks one of "session", "run", "output" and "result"`)
	}
	if err != nil {
		r.say("unreadable", "the results topic %s held a line that is not one the lab's job writes (offset %d: %v): %s; it is not shown",
			r.topic, offset, err, safetext.Line(truncate(string(value), 200)))
		return
	}
	r.mu.Lock()
	run, earlier := r.run, r.earlier[*l.Run]
	r.mu.Unlock()
	switch {
	case *l.Session != r.session:
		r.say("session", "the results topic %s held a line of session %s, not of this session %s (offset %d): it is not shown",
			r.topic, safetext.Line(*l.Session), r.session, offset)
	case earlier:
		r.say("earlier", "a line of this session's job before (run %s) came after the next job began (offset %d): it is not shown",
			safetext.Line(*l.Run), offset)
	case *l.Run != run:
		r.say("foreign", "the results topic %s held a line of another job of session %s (run %s, not this lab's %s; offset %d): a job of an earlier labtui of this session may still run, and it is not shown",
			r.topic, r.session, safetext.Line(*l.Run), run, offset)
	default:
		if err := take(l.Output, l.Result); err != nil {
			r.say("unreadable", "the results topic %s held an unreadable %s line (offset %d: %v): %s; it is not shown",
				r.topic, safetext.Line(l.Output), offset, err, safetext.Line(truncate(string(l.Result), 200)))
		}
	}
}

// say logs a line of kind, capped, with how many there were.
func (r *resultsReader) say(kind, format string, args ...any) {
	if log, n := r.cap.Line(kind); log {
		r.logf(format+" (%d such lines so far)", append(args, n)...)
	}
}

// drain returns once every line written to the topic before it was called has been
// handled, or after wait: a job that stopped (cancelled, or its TaskManager dead) wrote
// its last line before, so its lines all reach its run before the next run begins.
func (r *resultsReader) drain(ctx context.Context, wait time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	end, err := endOffset(ctx, r.adm, r.topic)
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() {
		r.mu.Lock()
		r.read.Broadcast()
		r.mu.Unlock()
	})
	defer stop()
	r.mu.Lock()
	defer r.mu.Unlock()
	for r.next < end && !r.closed && ctx.Err() == nil {
		r.read.Wait()
	}
	if r.next < end && !r.closed {
		return fmt.Errorf("the results topic %s was read to offset %d of %d within %s", r.topic, r.next, end, wait)
	}
	return nil
}

// resultLine takes one print line of the job from its results topic, as taskManagerLine
// takes one of the TaskManager's stdout, and says why when it is not a result.
func (l *Lab) resultLine(output string, result []byte) error {
	if output == "malformed" {
		l.malformed(string(result))
		return nil
	}
	if _, ok := jobspec.ParseKind(output); !ok {
		return fmt.Errorf("the lab's job writes no output %q", output)
	}
	r, ok, err := jobspec.ParseResultLine(append([]byte(output+"> "), result...))
	if err == nil && !ok {
		err = errors.New("not a print line")
	}
	if err != nil {
		return err
	}
	l.take(r)
	return nil
}

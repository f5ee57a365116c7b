package recording

import (
	"context"
	"fmt"
	"iter"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// NewProducer returns a Kafka client for Produce on the cluster at seeds: records go to
// the partition Produce gives them (kgo.ManualPartitioner), up to 100,000 buffered, with a
// linger of 5 ms; opts come after these and may override them.
func NewProducer(seeds []string, clientID string, opts ...kgo.Opt) (*kgo.Client, error) {
	base := []kgo.Opt{kgo.SeedBrokers(seeds...), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.MaxBufferedRecords(100_000), kgo.ProducerLinger(5 * time.Millisecond), kgo.ClientID(clientID)}
	return kgo.NewClient(append(base, opts...)...)
}

// Progress is how far a Produce has come. Its counters may be read while it runs.
type Progress struct {
	// Sent counts the records handed to the client, Acked those the cluster acknowledged.
	Sent, Acked atomic.Int64
	// EventTime is the highest Kafka timestamp acknowledged, in milliseconds.
	EventTime atomic.Int64
}

// ProduceOptions are how Produce writes.
type ProduceOptions struct {
	// Partitions, when above 0, is the topic's partition count: a record recorded in a
	// partition the topic does not have goes to Partition % Partitions. At 0 every record
	// goes to its recorded partition.
	Partitions int32
	// At, when set, paces the records: each is produced no earlier than At(e), and sent
	// at once (feed uses the record's arrival).
	At func(e Entry) time.Time
	// Progress, when set, counts as Produce goes.
	Progress *Progress
	// Owned says the entries own their bytes until Produce returns (clones, as an Arena
	// makes); else Produce copies each, as the client sends them after the next is read.
	Owned bool
}

// Produce writes every entry of records into topic through cl (a client from
// NewProducer), each with its key, its Kafka timestamp and its recorded partition, in
// order, and returns once the cluster has acknowledged them all. An error of records (a
// damaged file) is returned after what came before it is acknowledged; the first
// produce error is returned at the end; ctx's error at once.
func Produce(ctx context.Context, cl *kgo.Client, topic string, records iter.Seq2[Entry, error], opt ProduceOptions) error {
	p := opt.Progress
	if p == nil {
		p = new(Progress)
	}
	var failed atomic.Pointer[error]
	// One promise for every record, and the records reused once the client is done with
	// them (it is when it calls the promise): a closure and a kgo.Record allocated for
	// each of a replay's records would be a third of its allocations.
	var free sync.Pool // *kgo.Record
	promise := func(r *kgo.Record, err error) {
		if err != nil {
			first := err
			failed.CompareAndSwap(nil, &first)
		} else {
			p.Acked.Add(1)
			ts := r.Timestamp.UnixMilli()
			for cur := p.EventTime.Load(); ts > cur && !p.EventTime.CompareAndSwap(cur, ts); cur = p.EventTime.Load() {
			}
		}
		*r = kgo.Record{}
		free.Put(r)
	}
	var readErr error
	var arena Arena
	for e, err := range records {
		if err != nil {
			readErr = err
			break
		}
		if !opt.Owned {
			e = arena.Clone(e)
		}
		if opt.At != nil {
			if wait := time.Until(opt.At(e)); wait > 0 {
				t := time.NewTimer(wait)
				select {
				case <-t.C:
				case <-ctx.Done():
					t.Stop()
					return ctx.Err()
				}
			}
		}
		part := e.Partition
		if opt.Partitions > 0 {
			part %= opt.Partitions
		}
		r, _ := free.Get().(*kgo.Record)
		if r == nil {
			r = new(kgo.Record)
		}
		*r = kgo.Record{Topic: topic, Partition: part, Key: e.Key, Value: e.Value, Timestamp: time.UnixMilli(e.Timestamp)}
		if e.Tombstone {
			r.Value = nil // a null value, not an empty one
		}
		p.Sent.Add(1)
		cl.Produce(ctx, r, promise)
		if opt.At != nil {
			cl.Flush(ctx)
		}
	}
	if err := cl.Flush(ctx); err != nil {
		return err
	}
	if err := failed.Load(); err != nil {
		return fmt.Errorf("write the recording into %s: %w", topic, *err)
	}
	return readErr
}

// All yields the entries of a recording held in memory, as Reader.Records yields those
// of a file.
func All(entries []Entry) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		for _, e := range entries {
			if !yield(e, nil) {
				return
			}
		}
	}
}

// Owned yields the entries of records as copies that own their bytes (in an Arena), so
// they may be kept past the next one; an error of records is yielded last, as it came.
func Owned(records iter.Seq2[Entry, error]) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		var arena Arena
		for e, err := range records {
			if err == nil {
				e = arena.Clone(e)
			}
			if !yield(e, err) || err != nil {
				return
			}
		}
	}
}

// Load reads every entry of records into memory, each owning its bytes; an error of
// records (a damaged file, a done context) is returned with the entries before it.
func Load(records iter.Seq2[Entry, error]) ([]Entry, error) {
	var entries []Entry
	for e, err := range Owned(records) {
		if err != nil {
			return entries, err
		}
		entries = append(entries, e)
	}
	return entries, nil
}

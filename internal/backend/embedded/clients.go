package embedded

import (
	"sync"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/recording"
)

// The franz-go settings of the embedded lab's clients, on loopback to kfake in the same
// process (each measured by BenchmarkReplayHourThroughBroker's CPU time per replay:
// docs/PERFORMANCE.md, "Through the embedded broker"):
//   - the replay's producer buffers at most replayBuffered records: many more and it runs
//     ahead of the job it shares two cores with, holding more memory and costing CPU;
//   - batches stay snappy-compressed, as franz-go's default: uncompressed, kfake copies
//     three times the bytes into its segments and out to the fetches;
//   - the job's consumer decodes its fetches into pooled memory (jobPools), which the
//     job recycles record by record; its fetch sizes are livejob's;
//   - neither sends client metrics (KIP-714) to kfake, which takes them: every client
//     would make an lz4 writer with megabytes of buffers, for nobody to read.

// replayBuffered is how many records the replay's producer holds at most.
const replayBuffered = 10_000

// newReplayProducer returns the client a replay writes a recording to the broker at
// addr with.
func newReplayProducer(addr string) (*kgo.Client, error) {
	return recording.NewProducer([]string{addr}, "labtui-replay", kgo.MaxBufferedRecords(replayBuffered), kgo.DisableClientMetrics())
}

// jobClientOpts are the options of the job's consumer beside livejob's own.
func jobClientOpts() []kgo.Opt {
	return []kgo.Opt{kgo.WithPools(&jobPools), kgo.DisableClientMetrics()}
}

// jobPools is shared by every job of the process: a sync.Pool is safe for concurrent use.
var jobPools fetchPools

// fetchPools lend the job's consumer the memory a fetch is decoded into, and take it
// back when the job has recycled every record of it (livejob recycles each record
// once the job has processed it): the slices of records and of decompressed batches
// were a quarter of what a replay allocated, and so of its garbage collections.
type fetchPools struct {
	records    sync.Pool // *[]kgo.Record
	decompress sync.Pool // *[]byte
}

// GetRecords implements kgo.PoolRecords.
func (p *fetchPools) GetRecords(n int) []kgo.Record {
	if v, ok := p.records.Get().(*[]kgo.Record); ok && cap(*v) >= n {
		return (*v)[:n]
	}
	return make([]kgo.Record, n)
}

// PutRecords implements kgo.PoolRecords.
func (p *fetchPools) PutRecords(rs []kgo.Record) { p.records.Put(&rs) }

// GetDecompressBytes implements kgo.PoolDecompressBytes.
func (p *fetchPools) GetDecompressBytes(compressed []byte, _ kgo.CompressionCodecType) []byte {
	if v, ok := p.decompress.Get().(*[]byte); ok {
		return (*v)[:0]
	}
	return make([]byte, 0, 4*len(compressed))
}

// PutDecompressBytes implements kgo.PoolDecompressBytes.
func (p *fetchPools) PutDecompressBytes(b []byte) { p.decompress.Put(&b) }

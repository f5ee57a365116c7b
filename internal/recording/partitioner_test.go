package recording

import (
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Simulate puts a record where kgo.StickyKeyPartitioner(nil) does. Before the copy of
// murmur2 was deleted, the two agreed on 1,200,000 (key, partition count) pairs; these
// are Kafka's own murmur2 vectors (UtilsTest.testMurmur2), as the partition
// toPositive(murmur2(key)) % n that Kafka's default partitioner gives.
func TestTheStickyKeyPartitionerIsKafkasMurmur2(t *testing.T) {
	vectors := map[string]int32{
		"21":                         -973932308,
		"foobar":                     -790332482,
		"a-little-bit-long-string":   -985981536,
		"a-little-bit-longer-string": -1486304829,
		"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8": -58897971,
		"abc": 479470107,
	}
	tp := kgo.StickyKeyPartitioner(nil).ForTopic("t")
	for key, hash := range vectors {
		for _, n := range []int{1, 2, 3, 7, 10, 16, 1000} {
			want := int(uint32(hash&0x7fffffff) % uint32(n))
			if got := tp.Partition(&kgo.Record{Key: []byte(key)}, n); got != want {
				t.Errorf("%q over %d partitions: %d, want %d", key, n, got, want)
			}
		}
	}
}

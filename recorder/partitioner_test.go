package recorder

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

func TestStickyKeyPartitionerChoosesTheCopiedMurmur2sPartitions(t *testing.T) {
	tp := kgo.StickyKeyPartitioner(nil).ForTopic("t")
	rng := rand.New(rand.NewPCG(1, 2))
	var r kgo.Record
	n := 0
	for i := range 200_000 {
		var key []byte
		if i%2 == 0 {
			key = fmt.Appendf(nil, "r-%s-%d", "tp9d40", i)
		} else {
			key = make([]byte, rng.IntN(40))
			for j := range key {
				key[j] = byte(rng.Uint32())
			}
		}
		for _, parts := range []int{1, 2, 3, 7, 10, 16} {
			r.Key = key
			if got, want := tp.Partition(&r, parts), int(Partition(key, parts)); got != want {
				t.Fatalf("key %q, %d partitions: kgo says %d, murmur2 %d", key, parts, got, want)
			}
			n++
		}
	}
	t.Logf("%d keys and partition counts agree", n)
}

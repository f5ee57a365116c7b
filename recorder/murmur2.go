package recorder

// murmur2 is Kafka's murmur2 hash (org.apache.kafka.common.utils.Utils.murmur2), which
// the default partitioner of Kafka clients, franz-go's included, applies to record keys.
func murmur2(data []byte) int32 {
	const (
		seed uint32 = 0x9747b28c
		m    uint32 = 0x5bd1e995
		r           = 24
	)
	length := len(data)
	h := seed ^ uint32(length)
	for i := 0; i+4 <= length; i += 4 {
		k := uint32(data[i]) | uint32(data[i+1])<<8 | uint32(data[i+2])<<16 | uint32(data[i+3])<<24
		k *= m
		k ^= k >> r
		k *= m
		h *= m
		h ^= k
	}
	tail := length &^ 3
	switch length % 4 {
	case 3:
		h ^= uint32(data[tail+2]) << 16
		fallthrough
	case 2:
		h ^= uint32(data[tail+1]) << 8
		fallthrough
	case 1:
		h ^= uint32(data[tail])
		h *= m
	}
	h ^= h >> 13
	h *= m
	h ^= h >> 15
	return int32(h)
}

// Partition returns the partition a Kafka client's default partitioner puts a keyed
// record in: toPositive(murmur2(key)) % partitions.
func Partition(key []byte, partitions int) int32 {
	return int32(uint32(murmur2(key)&0x7fffffff) % uint32(partitions))
}

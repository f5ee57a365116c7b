package engine

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"unsafe"
)

// keyTable maps string keys to values: the keyed state of an operator. It is an
// open-addressing table with linear probing, so that an operator can look a key up once
// per element and then insert or delete at the slot it found, without hashing again, where
// a Go map would hash and probe twice. Every table has its own random seed, so keys read
// from a topic cannot be chosen to collide.
type keyTable[V any] struct {
	slots []keySlot[V]
	mask  uint64
	n     int
	seed  uint64
}

// keySlot is one slot; a hash of zero marks it empty (hashOf never returns zero).
type keySlot[V any] struct {
	hash uint64
	key  string
	val  V
}

func newKeyTable[V any]() keyTable[V] {
	var h maphash.Hash
	return keyTable[V]{seed: h.Sum64() | 1}
}

// hashOf returns key's hash: wyhash's multiply-and-fold over 8-byte words, seeded.
func (t *keyTable[V]) hashOf(key string) uint64 {
	b := unsafe.Slice(unsafe.StringData(key), len(key))
	h := t.seed ^ uint64(len(key))*0x9e3779b97f4a7c15
	for len(b) > 8 {
		h = mix(h^binary.LittleEndian.Uint64(b), 0xa0761d6478bd642f)
		b = b[8:]
	}
	var w uint64
	switch {
	case len(b) >= 4:
		w = uint64(binary.LittleEndian.Uint32(b))<<32 | uint64(binary.LittleEndian.Uint32(b[len(b)-4:]))
	case len(b) > 0:
		w = uint64(b[0])<<16 | uint64(b[len(b)/2])<<8 | uint64(b[len(b)-1])
	}
	h = mix(h^w, 0xe7037ed1a0b428db)
	h = mix(h, 0x8ebc6af09c88c6e3)
	if h == 0 {
		h = 1
	}
	return h
}

func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// find returns the slot holding key, and true; or, when key is absent, the empty slot
// an insert would take (or -1 in a table with no slots), and false.
func (t *keyTable[V]) find(key string, hash uint64) (int, bool) {
	if t.slots == nil {
		return -1, false
	}
	for i := hash & t.mask; ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if s.hash == hash && s.key == key {
			return int(i), true
		}
		if s.hash == 0 {
			return int(i), false
		}
	}
}

// get returns key's value, and false if it has none.
func (t *keyTable[V]) get(key string) (V, bool) {
	if i, ok := t.find(key, t.hashOf(key)); ok {
		return t.slots[i].val, true
	}
	var zero V
	return zero, false
}

// insert adds a key that find reported absent; at is the slot find returned, valid as
// long as nothing was inserted or deleted since.
func (t *keyTable[V]) insert(at int, key string, hash uint64, val V) {
	if at < 0 || 2*(t.n+1) > len(t.slots) {
		t.grow()
		at, _ = t.find(key, hash)
	}
	t.slots[at] = keySlot[V]{hash: hash, key: key, val: val}
	t.n++
}

// deleteAt empties slot i, shifting back the slots after it that probed past it, so the
// table needs no tombstones.
func (t *keyTable[V]) deleteAt(i int) {
	hole := uint64(i)
	for j := (hole + 1) & t.mask; t.slots[j].hash != 0; j = (j + 1) & t.mask {
		home := t.slots[j].hash & t.mask
		// Move j into the hole unless its home lies cyclically in (hole, j].
		if (j-home)&t.mask >= (j-hole)&t.mask {
			t.slots[hole] = t.slots[j]
			hole = j
		}
	}
	t.slots[hole] = keySlot[V]{}
	t.n--
}

func (t *keyTable[V]) grow() {
	old := t.slots
	size := max(16, 2*len(old))
	t.slots, t.mask = make([]keySlot[V], size), uint64(size-1)
	for _, s := range old {
		if s.hash == 0 {
			continue
		}
		i := s.hash & t.mask
		for t.slots[i].hash != 0 {
			i = (i + 1) & t.mask
		}
		t.slots[i] = s
	}
}

// remove deletes key, if the table holds it.
func (t *keyTable[V]) remove(key string) {
	if i, ok := t.find(key, t.hashOf(key)); ok {
		t.deleteAt(i)
	}
}

// len returns how many keys the table holds.
func (t *keyTable[V]) len() int { return t.n }

// each calls fn for every key and value, in no particular order.
func (t *keyTable[V]) each(fn func(key string, val V)) {
	for _, s := range t.slots {
		if s.hash != 0 {
			fn(s.key, s.val)
		}
	}
}

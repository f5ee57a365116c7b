package engine

import "github.com/labtui/labtui/internal/keyhash"

// keyTable maps string keys to values: the keyed state of an operator. It is an
// open-addressing table with linear probing, so that an operator can look a key up once
// per element and then insert or delete at the slot it found, without hashing again, where
// a Go map would hash and probe twice. Keys are hashed with keyhash, whose seed is random
// per process, so keys read from a topic cannot be chosen to collide; a hash computed
// earlier (the parser's, for a request id) is taken as it is.
type keyTable[V any] struct {
	slots []keySlot[V]
	mask  uint64
	n     int
}

// keySlot is one slot; a hash of zero marks it empty (keyhash never returns zero).
type keySlot[V any] struct {
	hash uint64
	key  string
	val  V
}

func newKeyTable[V any]() keyTable[V] { return keyTable[V]{} }

// hashOf returns key's hash as the table computes it. Any other function of the key
// that is never zero may be used instead, as long as every operation on one key passes
// the same hash: find, insert, get, remove.
func (t *keyTable[V]) hashOf(key string) uint64 { return keyhash.String(key) }

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

// get returns key's value, and false if it has none; hash is the hash key was inserted
// with.
func (t *keyTable[V]) get(key string, hash uint64) (V, bool) {
	if i, ok := t.find(key, hash); ok {
		return t.slots[i].val, true
	}
	var zero V
	return zero, false
}

// insert adds a key that find reported absent; at is the slot find returned, valid as
// long as nothing was inserted or deleted since. The table grows to keep at most a
// quarter of its slots used: most keys are then found at their first slot, and a delete
// shifts back short runs (at half full, probing and shifting cost the engine 5 % more
// time an event).
func (t *keyTable[V]) insert(at int, key string, hash uint64, val V) {
	if at < 0 || 4*(t.n+1) > len(t.slots) {
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

// remove deletes key, inserted with hash, if the table holds it.
func (t *keyTable[V]) remove(key string, hash uint64) {
	if i, ok := t.find(key, hash); ok {
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

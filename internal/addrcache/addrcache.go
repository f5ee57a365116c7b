// Package addrcache remembers values by the identity of their string key: the address
// of its bytes and its length. The parser shares one string per tenant and model name, so
// looking one up costs a multiply and a comparison of two words, without reading the
// name's bytes, hashing them, or probing a hash table. Two strings with the same data
// pointer and length hold the same bytes (strings are immutable, and the entry's pointer
// keeps the bytes alive), so a hit is always right; a key that arrives in a string of its
// own misses, and its caller takes the slower lookup the cache stands in front of.
//
// A Cache is a small open-addressing table keyed by the address, never more than half
// full: when it would be, and whenever a value leaves it (Forget), it is emptied and
// fills again from misses. The empty string is never remembered: its data pointer may
// be nil, which marks a slot unused.
package addrcache

import "unsafe"

// Cache remembers the values of a few string keys by the identity of the string. The
// zero value is an empty cache.
type Cache[V comparable] struct {
	slots [size]entry[V]
	n     int
}

type entry[V comparable] struct {
	data *byte
	len  int
	val  V
}

// size is how many slots a Cache has, a power of two; it remembers half as many keys.
const (
	bits = 5
	size = 1 << bits
)

// slotOf is where the key whose bytes are at p is first looked for.
func slotOf(p *byte) uint64 {
	return uint64(uintptr(unsafe.Pointer(p))) * 0x9e3779b97f4a7c15 >> (64 - bits)
}

// Get returns the value remembered for this very string, if any.
func (r *Cache[V]) Get(key string) (V, bool) {
	if len(key) > 0 {
		p := unsafe.StringData(key)
		for i := slotOf(p); ; i = (i + 1) & (size - 1) {
			s := &r.slots[i]
			if s.data == p && s.len == len(key) {
				return s.val, true
			}
			if s.data == nil {
				break
			}
		}
	}
	var zero V
	return zero, false
}

// Put remembers key's value; Get must have just missed it. A Cache holding half its
// slots is emptied first.
func (r *Cache[V]) Put(key string, v V) {
	if len(key) == 0 {
		return
	}
	if 2*(r.n+1) > size {
		r.Clear()
	}
	p := unsafe.StringData(key)
	i := slotOf(p)
	for r.slots[i].data != nil {
		i = (i + 1) & (size - 1)
	}
	r.slots[i] = entry[V]{p, len(key), v}
	r.n++
}

// Forget drops v if it is remembered. It empties the whole cache, which needs no
// shifting of the slots after v's: meant for values that leave rarely.
func (r *Cache[V]) Forget(v V) {
	for i := range r.slots {
		if r.slots[i].data != nil && r.slots[i].val == v {
			r.Clear()
			return
		}
	}
}

// Clear forgets every key.
func (r *Cache[V]) Clear() {
	r.slots, r.n = [size]entry[V]{}, 0
}

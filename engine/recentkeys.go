package engine

import "unsafe"

// recentKeys remembers the values of a few keys an operator looked up, by the identity
// of the key string: the parser shares one string per tenant name, so the windows find a
// tenant's state by hashing the string's address and comparing a pointer and a length,
// without hashing the name's bytes or probing the key table. Two strings with the same
// data pointer and length hold the same bytes (strings are immutable, and the entry's
// pointer keeps the bytes alive), so a hit is always right; a key that arrives in a
// string of its own misses and takes the table.
//
// It is a small open-addressing table keyed by the address, never more than half full:
// when it would be, and whenever a value leaves it (forget, rare: a key whose windows
// are all gone), it is emptied and fills again from the key table. The empty key is
// never remembered: its data pointer may be nil, which marks a slot unused.
type recentKeys[V comparable] struct {
	slots [recentSize]recentKey[V]
	n     int
}

type recentKey[V comparable] struct {
	data *byte
	len  int
	val  V
}

// recentSize is how many slots recentKeys has, a power of two; it remembers half as
// many keys: the lab's five tenants and a few more.
const (
	recentBits = 5
	recentSize = 1 << recentBits
)

// recentSlot is where the key whose bytes are at p is first looked for.
func recentSlot(p *byte) uint64 {
	return uint64(uintptr(unsafe.Pointer(p))) * 0x9e3779b97f4a7c15 >> (64 - recentBits)
}

// get returns the value remembered for this very string, if any.
func (r *recentKeys[V]) get(key string) (V, bool) {
	if len(key) > 0 {
		p := unsafe.StringData(key)
		for i := recentSlot(p); ; i = (i + 1) & (recentSize - 1) {
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

// put remembers key's value; get must have just missed it.
func (r *recentKeys[V]) put(key string, v V) {
	if len(key) == 0 {
		return
	}
	if 2*(r.n+1) > recentSize {
		r.clear()
	}
	p := unsafe.StringData(key)
	i := recentSlot(p)
	for r.slots[i].data != nil {
		i = (i + 1) & (recentSize - 1)
	}
	r.slots[i] = recentKey[V]{p, len(key), v}
	r.n++
}

// forget drops v if it is remembered: its key left the table. It empties the whole
// table, which needs no shifting of the slots after v's.
func (r *recentKeys[V]) forget(v V) {
	for i := range r.slots {
		if r.slots[i].data != nil && r.slots[i].val == v {
			r.clear()
			return
		}
	}
}

func (r *recentKeys[V]) clear() {
	r.slots, r.n = [recentSize]recentKey[V]{}, 0
}

// sameString reports whether a and b are the very same string: the same bytes at the
// same address, which implies equal, without reading the bytes.
func sameString(a, b string) bool {
	return unsafe.StringData(a) == unsafe.StringData(b) && len(a) == len(b)
}

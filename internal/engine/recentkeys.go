package engine

import "unsafe"

// recentKeys remembers the values of the last few distinct keys an operator looked up,
// by the identity of the key string: the parser shares one string per tenant name, so the
// windows find a tenant's state by comparing a pointer and a length, without hashing the
// name or probing the table. Two strings with the same data pointer and length hold the
// same bytes (strings are immutable, and the entry keeps its string alive), so a hit is
// always right; a key that arrives in a string of its own misses and takes the table.
type recentKeys[V comparable] struct {
	keys [recentSize]string
	vals [recentSize]V
	next int
}

// recentSize is how many keys recentKeys remembers: the lab's five tenants and a few more.
const recentSize = 8

// get returns the value remembered for this very string, if any.
func (r *recentKeys[V]) get(key string) (V, bool) {
	p := unsafe.StringData(key)
	var zero V
	for i := range r.keys {
		if unsafe.StringData(r.keys[i]) == p && len(r.keys[i]) == len(key) && r.vals[i] != zero {
			return r.vals[i], true
		}
	}
	return zero, false
}

// put remembers key's value in place of the oldest entry.
func (r *recentKeys[V]) put(key string, v V) {
	r.keys[r.next], r.vals[r.next] = key, v
	r.next = (r.next + 1) % recentSize
}

// forget drops every entry holding v: its key left the table.
func (r *recentKeys[V]) forget(v V) {
	var zero V
	for i := range r.vals {
		if r.vals[i] == v {
			r.keys[i], r.vals[i] = "", zero
		}
	}
}

// sameString reports whether a and b are the very same string: the same bytes at the
// same address, which implies equal, without reading the bytes.
func sameString(a, b string) bool {
	return unsafe.StringData(a) == unsafe.StringData(b) && len(a) == len(b)
}

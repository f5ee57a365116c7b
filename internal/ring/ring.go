// Package ring is a bounded buffer for the streams that meet the screen: it keeps the
// latest items and counts the ones it let go.
package ring

// Ring keeps the last Cap items pushed. The zero value is not usable; use New.
type Ring[T any] struct {
	// buf grows as items arrive, up to capacity: a ring that is never filled (a run's
	// late records, most often none) costs what it holds, not its capacity.
	buf      []T
	capacity int
	start    int
	n        int
	dropped  int
}

// New returns a Ring keeping at most capacity items (at least one).
func New[T any](capacity int) *Ring[T] {
	return &Ring[T]{capacity: max(1, capacity)}
}

// Push adds v, dropping the oldest item when the ring is full.
func (r *Ring[T]) Push(v T) {
	if r.n == len(r.buf) && len(r.buf) < r.capacity {
		// Not full yet, so never wrapped: start is 0 until an item is dropped.
		r.buf = append(r.buf, v)
		r.n++
		return
	}
	if r.n < len(r.buf) {
		r.buf[(r.start+r.n)%len(r.buf)] = v
		r.n++
		return
	}
	r.buf[r.start] = v
	r.start = (r.start + 1) % len(r.buf)
	r.dropped++
}

// Len is the number of items kept.
func (r *Ring[T]) Len() int { return r.n }

// Cap is the most items the ring keeps.
func (r *Ring[T]) Cap() int { return r.capacity }

// Dropped counts the items pushed out by newer ones.
func (r *Ring[T]) Dropped() int { return r.dropped }

// At returns the i-th item kept, oldest first.
func (r *Ring[T]) At(i int) T { return r.buf[(r.start+i)%len(r.buf)] }

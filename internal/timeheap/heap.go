// Package timeheap is the one min-heap of timed items labtui needs: the engine's timers
// that arrive out of order and the generator's completions waiting for their time. Items
// come out in (At, Seq) order, so items due at the same time keep the order they were
// given.
package timeheap

// Item is one entry: due at At, ordered by Seq among items due at the same time.
type Item[V any] struct {
	At    int64
	Seq   uint64
	Value V
}

// Before reports whether a comes out before b.
func (a Item[V]) Before(b Item[V]) bool {
	return a.At < b.At || a.At == b.At && a.Seq < b.Seq
}

// Heap is a binary min-heap of Items. The zero value is an empty heap. With a Value
// type free of pointers, sifting needs no write barriers.
type Heap[V any] struct {
	items []Item[V]
}

// Len is the number of items held.
func (h *Heap[V]) Len() int { return len(h.items) }

// Peek returns the first item, and false when the heap is empty.
func (h *Heap[V]) Peek() (Item[V], bool) {
	if len(h.items) == 0 {
		return Item[V]{}, false
	}
	return h.items[0], true
}

// Push adds it.
func (h *Heap[V]) Push(it Item[V]) {
	s := append(h.items, it)
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if !s[i].Before(s[parent]) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
	h.items = s
}

// Pop removes and returns the first item; the heap must not be empty. The slot it
// leaves is zeroed, so a Value the heap no longer holds is not kept alive.
func (h *Heap[V]) Pop() Item[V] {
	s := h.items
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s[last] = Item[V]{}
	h.items = s[:last]
	h.down(0)
	return top
}

// Retain keeps only the items keep accepts; they come out in the same order as before.
// The slots let go are zeroed.
func (h *Heap[V]) Retain(keep func(Item[V]) bool) {
	kept := h.items[:0]
	for _, it := range h.items {
		if keep(it) {
			kept = append(kept, it)
		}
	}
	clear(h.items[len(kept):])
	h.items = kept
	for i := len(kept)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// down sifts the item at i down to its place.
func (h *Heap[V]) down(i int) {
	s := h.items
	for {
		smallest, l, r := i, 2*i+1, 2*i+2
		if l < len(s) && s[l].Before(s[smallest]) {
			smallest = l
		}
		if r < len(s) && s[r].Before(s[smallest]) {
			smallest = r
		}
		if smallest == i {
			return
		}
		s[i], s[smallest] = s[smallest], s[i]
		i = smallest
	}
}

package engine

import "github.com/labtui/labtui/internal/timeheap"

// timerQueue holds timers, each carrying a P (its key, or what to run), in (time,
// registration) order: the event-time timers of the keyed and window operators, and the
// Runtime's processing-time timers. Timers are mostly registered in time order (a
// window's end, a timestamp plus a timeout, the next watermark tick), so a ring buffer
// takes those in O(1) and a heap takes the rest; the queue's head is the smaller of the
// two heads. It does not deduplicate: the keyed operators above it do.
type timerQueue[P any] struct {
	ring       []timer[P] // a circular buffer in (at, seq) order; its length a power of two
	head, size int
	heap       timeheap.Heap[P]
	seq        uint64
}

type timer[P any] struct {
	at  int64
	seq uint64
	key P
}

func (t timer[P]) before(u timer[P]) bool {
	return t.at < u.at || (t.at == u.at && t.seq < u.seq)
}

// push adds a timer at time at, carrying key.
func (q *timerQueue[P]) push(at int64, key P) {
	q.seq++
	t := timer[P]{at: at, seq: q.seq, key: key}
	if q.size == 0 || q.ring[(q.head+q.size-1)&(len(q.ring)-1)].at <= at {
		q.ringPush(t)
		return
	}
	q.heap.Push(timeheap.Item[P]{At: t.at, Seq: t.seq, Value: t.key})
}

// peek returns the earliest timer.
func (q *timerQueue[P]) peek() (timer[P], bool) {
	h, inHeap := q.heap.Peek()
	switch {
	case q.size == 0 && !inHeap:
		return timer[P]{}, false
	case q.size == 0:
		return timer[P]{at: h.At, seq: h.Seq, key: h.Value}, true
	case !inHeap || q.ring[q.head].before(timer[P]{at: h.At, seq: h.Seq}):
		return q.ring[q.head], true
	}
	return timer[P]{at: h.At, seq: h.Seq, key: h.Value}, true
}

// pop removes the earliest timer; peek must have found one.
func (q *timerQueue[P]) pop() timer[P] {
	h, inHeap := q.heap.Peek()
	if q.size > 0 && (!inHeap || q.ring[q.head].before(timer[P]{at: h.At, seq: h.Seq})) {
		t := q.ring[q.head]
		q.ring[q.head] = timer[P]{}
		q.head = (q.head + 1) & (len(q.ring) - 1)
		q.size--
		return t
	}
	it := q.heap.Pop()
	return timer[P]{at: it.At, seq: it.Seq, key: it.Value}
}

func (q *timerQueue[P]) len() int { return q.size + q.heap.Len() }

func (q *timerQueue[P]) ringPush(t timer[P]) {
	if q.size == len(q.ring) {
		grown := make([]timer[P], max(16, 2*len(q.ring)))
		for i := 0; i < q.size; i++ {
			grown[i] = q.ring[(q.head+i)&(len(q.ring)-1)]
		}
		q.ring, q.head = grown, 0
	}
	q.ring[(q.head+q.size)&(len(q.ring)-1)] = t
	q.size++
}

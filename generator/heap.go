package generator

import "github.com/labtui/labtui/internal/timeheap"

// completionQueue holds the RequestCompleted events waiting for their ts, in (ts, seq)
// order. The events sit in slots that are reused; the heap orders small pointer-free
// references to them, so sifting moves 24 bytes and needs no write barriers.
type completionQueue struct {
	slots []pending
	free  []int32
	// heap holds (ts, seq, slot).
	heap timeheap.Heap[int32]
}

// peekTS returns the ts of the earliest waiting event, and false if none waits.
func (q *completionQueue) peekTS() (int64, bool) {
	top, ok := q.heap.Peek()
	return top.At, ok
}

func (q *completionQueue) push(p pending) {
	var slot int32
	if n := len(q.free); n > 0 {
		slot = q.free[n-1]
		q.free = q.free[:n-1]
		q.slots[slot] = p
	} else {
		slot = int32(len(q.slots))
		q.slots = append(q.slots, p)
	}
	q.heap.Push(timeheap.Item[int32]{At: p.ev.TS, Seq: p.seq, Value: slot})
}

// pop removes and returns the earliest waiting event; the queue must not be empty.
func (q *completionQueue) pop() pending {
	top := q.heap.Pop()
	p := q.slots[top.Value]
	q.slots[top.Value] = pending{}
	q.free = append(q.free, top.Value)
	return p
}

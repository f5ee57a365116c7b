package generator

// completionQueue holds the RequestCompleted events waiting for their ts, in (ts, seq)
// order. The events sit in slots that are reused; the heap orders small pointer-free
// references to them, so sifting moves 24 bytes and needs no write barriers.
type completionQueue struct {
	slots []pending
	free  []int32
	heap  []slotRef
}

type slotRef struct {
	ts   int64
	seq  uint64
	slot int32
}

func (a slotRef) before(b slotRef) bool {
	if a.ts != b.ts {
		return a.ts < b.ts
	}
	return a.seq < b.seq
}

// peekTS returns the ts of the earliest waiting event, and false if none waits.
func (q *completionQueue) peekTS() (int64, bool) {
	if len(q.heap) == 0 {
		return 0, false
	}
	return q.heap[0].ts, true
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
	h := append(q.heap, slotRef{ts: p.ev.TS, seq: p.seq, slot: slot})
	for i := len(h) - 1; i > 0; {
		parent := (i - 1) / 2
		if !h[i].before(h[parent]) {
			break
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
	q.heap = h
}

// pop removes and returns the earliest waiting event; the queue must not be empty.
func (q *completionQueue) pop() pending {
	h := q.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		smallest, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && h[l].before(h[smallest]) {
			smallest = l
		}
		if r < len(h) && h[r].before(h[smallest]) {
			smallest = r
		}
		if smallest == i {
			break
		}
		h[i], h[smallest] = h[smallest], h[i]
		i = smallest
	}
	q.heap = h
	p := q.slots[top.slot]
	q.slots[top.slot] = pending{}
	q.free = append(q.free, top.slot)
	return p
}

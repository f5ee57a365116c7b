package generator

// pendingHeap is a min-heap of pending events by (ts, seq). It is written out rather
// than built on container/heap so that pushing does not box every event.
type pendingHeap struct{ items []pending }

func (h *pendingHeap) less(i, j int) bool {
	a, b := &h.items[i], &h.items[j]
	if a.ev.TS != b.ev.TS {
		return a.ev.TS < b.ev.TS
	}
	return a.seq < b.seq
}

func (h *pendingHeap) peek() (pending, bool) {
	if len(h.items) == 0 {
		return pending{}, false
	}
	return h.items[0], true
}

func (h *pendingHeap) push(p pending) {
	h.items = append(h.items, p)
	for i := len(h.items) - 1; i > 0; {
		parent := (i - 1) / 2
		if !h.less(i, parent) {
			break
		}
		h.items[i], h.items[parent] = h.items[parent], h.items[i]
		i = parent
	}
}

func (h *pendingHeap) pop() pending {
	top := h.items[0]
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items[last] = pending{}
	h.items = h.items[:last]
	for i := 0; ; {
		smallest, l, r := i, 2*i+1, 2*i+2
		if l < len(h.items) && h.less(l, smallest) {
			smallest = l
		}
		if r < len(h.items) && h.less(r, smallest) {
			smallest = r
		}
		if smallest == i {
			break
		}
		h.items[i], h.items[smallest] = h.items[smallest], h.items[i]
		i = smallest
	}
	return top
}

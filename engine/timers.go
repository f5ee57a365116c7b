package engine

// timerQueue holds keyed event-time timers in (time, registration) order. Timers are
// mostly registered in time order (a window's end, a timestamp plus a timeout), so a
// ring buffer takes those in O(1) and a heap takes the rest; the queue's head is the
// smaller of the two heads. It does not deduplicate: the keyed operators above it do.
type timerQueue[K comparable] struct {
	ring       []timer[K] // a circular buffer in (at, seq) order
	head, size int
	heap       []timer[K]
	seq        uint64
}

type timer[K comparable] struct {
	at  int64
	seq uint64
	key K
}

func (t timer[K]) before(u timer[K]) bool {
	return t.at < u.at || (t.at == u.at && t.seq < u.seq)
}

// push adds a timer for key at time at.
func (q *timerQueue[K]) push(at int64, key K) {
	q.seq++
	t := timer[K]{at: at, seq: q.seq, key: key}
	if q.size == 0 || q.ring[(q.head+q.size-1)%len(q.ring)].at <= at {
		q.ringPush(t)
		return
	}
	q.heapPush(t)
}

// peek returns the earliest timer.
func (q *timerQueue[K]) peek() (timer[K], bool) {
	switch {
	case q.size == 0 && len(q.heap) == 0:
		return timer[K]{}, false
	case q.size == 0:
		return q.heap[0], true
	case len(q.heap) == 0 || q.ring[q.head].before(q.heap[0]):
		return q.ring[q.head], true
	}
	return q.heap[0], true
}

// pop removes the earliest timer; peek must have found one.
func (q *timerQueue[K]) pop() timer[K] {
	if q.size > 0 && (len(q.heap) == 0 || q.ring[q.head].before(q.heap[0])) {
		t := q.ring[q.head]
		q.ring[q.head] = timer[K]{}
		q.head = (q.head + 1) % len(q.ring)
		q.size--
		return t
	}
	return q.heapPop()
}

func (q *timerQueue[K]) len() int { return q.size + len(q.heap) }

func (q *timerQueue[K]) ringPush(t timer[K]) {
	if q.size == len(q.ring) {
		grown := make([]timer[K], max(16, 2*len(q.ring)))
		for i := 0; i < q.size; i++ {
			grown[i] = q.ring[(q.head+i)%len(q.ring)]
		}
		q.ring, q.head = grown, 0
	}
	q.ring[(q.head+q.size)%len(q.ring)] = t
	q.size++
}

func (q *timerQueue[K]) heapPush(t timer[K]) {
	q.heap = append(q.heap, t)
	i := len(q.heap) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if !q.heap[i].before(q.heap[parent]) {
			break
		}
		q.heap[i], q.heap[parent] = q.heap[parent], q.heap[i]
		i = parent
	}
}

func (q *timerQueue[K]) heapPop() timer[K] {
	h := q.heap
	t := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h[last] = timer[K]{}
	h = h[:last]
	i := 0
	for {
		l, r, smallest := 2*i+1, 2*i+2, i
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
	return t
}

// Package logcap caps the log lines of one kind: a stream of bad records, or an error
// that comes back with every fetch, would otherwise write a line each, without end (50,000
// malformed records make a 5 MB log). The first lines of a kind are logged, then one at
// each power of ten, and each of those says how many there were; none is lost from the
// count.
package logcap

import "sync"

// First is how many lines of a kind are logged before only the powers of ten are.
const First = 20

// Cap counts lines by kind. Its zero value is ready; it is safe for concurrent use.
type Cap struct {
	mu sync.Mutex
	n  map[string]int64
}

// Line counts one line of kind and reports whether to log it, and how many lines of
// that kind there have been, this one included: the first First, then the 100th, the
// 1,000th, the 10,000th, and so on.
func (c *Cap) Line(kind string) (log bool, n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int64{}
	}
	c.n[kind]++
	n = c.n[kind]
	if n <= First {
		return true, n
	}
	for p := int64(100); p <= n; p *= 10 {
		if p == n {
			return true, n
		}
		if p > n/10 {
			break
		}
	}
	return false, n
}

// Count returns how many lines of kind there have been.
func (c *Cap) Count(kind string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[kind]
}

package gateway

import "sync"

// NameNo is the number the process gives a tenant, model or gateway name the first time
// a Parser reads it: 1, 2, 3 … in order of first sight, the same number for the same name
// in every Parser, on every goroutine, for the life of the process. An operator keyed by
// the name can then find its state by indexing an array with the number instead of
// hashing the string. Zero is no number: a name longer than maxNameLen, every name after
// the first maxNames, and every Event built without a Parser. A number stands for one
// name only, so equal numbers other than zero mean equal names; unequal numbers say
// nothing (one of them may be zero).
type NameNo uint32

const (
	// maxNames bounds the process's numbered names, so hostile input cannot grow the
	// table for ever.
	maxNames = 4096
	// maxNameLen is the longest name that is numbered and shared.
	maxNameLen = 64
)

// nameTable numbers names: the process's table (processNames) or, in tests, one of its
// own. It is safe for concurrent use.
type nameTable struct {
	mu    sync.Mutex
	nos   map[string]NameNo
	names []string // the shared string of each number; names[0] is unused
	limit int
}

// processNames is the table every Parser uses.
var processNames = newNameTable(maxNames)

func newNameTable(limit int) *nameTable {
	return &nameTable{nos: make(map[string]NameNo), names: []string{""}, limit: limit}
}

// number returns the shared string holding b and its number, numbering b if it is new
// and there is room; past the limit, or for a name longer than maxNameLen, it returns a
// string of b's own and zero.
func (t *nameTable) number(b []byte) (string, NameNo) {
	if len(b) > maxNameLen {
		return string(b), 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if n, ok := t.nos[string(b)]; ok {
		return t.names[n], n
	}
	s := string(b)
	if len(t.names) > t.limit {
		return s, 0
	}
	n := NameNo(len(t.names))
	t.names = append(t.names, s)
	t.nos[s] = n
	return s, n
}

// len returns how many names are numbered.
func (t *nameTable) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.names) - 1
}

// recentSize is how many names of one field a Parser remembers in front of the process's
// table. A stream has few tenants, models and gateways, so almost every name is found
// here by a byte comparison, without hashing or taking the table's lock.
const recentSize = 8

// recentNames holds the last names seen in one field, each the string the name table
// shares with its number (or, for a name the table does not number, a copy made then,
// with zero). Its zero value is empty.
type recentNames struct {
	names [recentSize]string
	nos   [recentSize]NameNo
	hit   uint8 // the slot that matched last, tried first
	next  uint8 // the slot the next new name replaces
}

// intern returns b as a shared string with its number: from r when it is recent,
// otherwise from the name table, remembering it in r in place of the oldest entry. It is
// small enough to inline, for the common case of the same name as last time.
func (p *Parser) intern(r *recentNames, b []byte) (string, NameNo) {
	if i := r.hit % recentSize; r.names[i] == string(b) { // hit < recentSize; % spares a bounds check
		return r.names[i], r.nos[i]
	}
	return p.internMiss(r, b)
}

// internMiss is intern when b is not the name r matched last.
func (p *Parser) internMiss(r *recentNames, b []byte) (string, NameNo) {
	for i, s := range r.names {
		if s == string(b) {
			r.hit = uint8(i)
			return s, r.nos[i]
		}
	}
	s, n := p.table().number(b)
	r.names[r.next], r.nos[r.next] = s, n
	r.hit = r.next
	r.next = (r.next + 1) % recentSize
	return s, n
}

// table returns the name table the Parser numbers names in.
func (p *Parser) table() *nameTable {
	if p.names != nil {
		return p.names
	}
	return processNames
}

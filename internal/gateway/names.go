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
// here by one comparison, without hashing the whole name or taking the table's lock.
const recentSize = 32

// recentNames holds names seen in one field, each the string the name table shares with
// its number (or, for a name the table does not number, a copy made then, with zero), in
// the slot recentSlot picks for it: a name that meets another in its slot takes the slot
// over. Its zero value is empty.
type recentNames struct {
	names [recentSize]string
	nos   [recentSize]NameNo
}

// recentSlot picks a name's slot in recentNames from its length and its first, middle
// and last bytes: names that differ in any of those (tenant-1, tenant-2; gw-0, gw-1)
// mostly get slots of their own. b is not empty.
func recentSlot(b []byte) uint32 {
	x := uint32(len(b)) | uint32(b[0])<<8 | uint32(b[len(b)/2])<<16 | uint32(b[len(b)-1])<<24
	return (x * 0x9e3779b1) >> 27 // the top 5 bits: recentSize is 32
}

// intern returns b as a shared string with its number: from r when it is recent,
// otherwise from the name table, remembering it in r. It is small enough to inline, for
// the common case of a name seen before.
func (p *Parser) intern(r *recentNames, b []byte) (string, NameNo) {
	if len(b) == 0 {
		return "", 0
	}
	if i := recentSlot(b) % recentSize; r.names[i] == string(b) { // % spares a bounds check
		return r.names[i], r.nos[i]
	}
	return p.internMiss(r, b)
}

// internMiss is intern of a name not in r.
func (p *Parser) internMiss(r *recentNames, b []byte) (string, NameNo) {
	s, n := p.table().number(b)
	i := recentSlot(b) % recentSize
	r.names[i], r.nos[i] = s, n
	return s, n
}

// table returns the name table the Parser numbers names in.
func (p *Parser) table() *nameTable {
	if p.names != nil {
		return p.names
	}
	return processNames
}

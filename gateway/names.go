package gateway

// recentSize is how many names of one field a Parser remembers in front of its map. A
// stream has few tenants, models and gateways, so almost every name is found here by a
// byte comparison, without hashing.
const recentSize = 8

// recentNames holds the last names seen in one field, each the string the Parser's map
// shares (or, once the map is full, a copy made then). Its zero value is empty.
type recentNames struct {
	names [recentSize]string
	hit   uint8 // the slot that matched last, tried first
	next  uint8 // the slot the next new name replaces
}

// intern returns b as a shared string: from r when it is recent, otherwise from the
// Parser's bounded map, remembering it in r in place of the oldest entry. It is small
// enough to inline, for the common case of the same name as last time.
func (p *Parser) intern(r *recentNames, b []byte) string {
	if s := r.names[r.hit%recentSize]; s == string(b) { // hit < recentSize; % spares a bounds check
		return s
	}
	return p.internMiss(r, b)
}

// internMiss is intern when b is not the name r matched last.
func (p *Parser) internMiss(r *recentNames, b []byte) string {
	for i, s := range r.names {
		if s == string(b) {
			r.hit = uint8(i)
			return s
		}
	}
	s := p.shared(b)
	r.names[r.next] = s
	r.hit = r.next
	r.next = (r.next + 1) % recentSize
	return s
}

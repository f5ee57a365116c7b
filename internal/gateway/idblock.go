package gateway

import "strings"

// idBlockSize is the size of the blocks a Parser with IDBlocks keeps request ids in:
// a few hundred ids of the gateways' length each.
const idBlockSize = 4 << 10

// idBlock is the block of memory request ids are appended to. What was written is never
// written again (a full block is left to the ids in it and a new one begun), so every id
// handed out stays what it was for as long as it is held. The builder is held by pointer,
// so copying a Parser copies no builder (which strings.Builder forbids).
type idBlock struct{ b *strings.Builder }

// requestID returns b as a string: a substring of the current id block when p.IDBlocks
// is set, else a string of its own.
func (p *Parser) requestID(b []byte) string {
	if !p.IDBlocks {
		return string(b)
	}
	ids := p.ids.b
	if ids == nil || ids.Cap()-ids.Len() < len(b) {
		if len(b) > idBlockSize/4 { // a long id is not worth a block
			return string(b)
		}
		ids = new(strings.Builder)
		ids.Grow(idBlockSize)
		p.ids.b = ids
	}
	start := ids.Len()
	ids.Write(b)
	return ids.String()[start:]
}

// Package keyhash is the one hash of a string key labtui's keyed state uses: the parser
// computes it for each event's request id as it reads the id, and the engine's key table
// takes that value instead of hashing the id again. Both must compute the same function,
// so it lives here.
//
// It is wyhash's multiply-and-fold over 8-byte words, seeded once per process from
// hash/maphash's random seed, so keys read from a topic cannot be chosen to collide.
package keyhash

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"unsafe"
)

// seed is the process's random seed, odd so that it is never zero.
var seed = new(maphash.Hash).Sum64() | 1

// String returns key's hash. It is never zero, so a zero hash can mean "not computed".
func String(key string) uint64 {
	return Bytes(unsafe.Slice(unsafe.StringData(key), len(key)))
}

// Bytes returns the hash of the string b holds: String(string(b)), without the string.
func Bytes(b []byte) uint64 {
	h := seed ^ uint64(len(b))*0x9e3779b97f4a7c15
	for len(b) > 8 {
		h = mix(h^binary.LittleEndian.Uint64(b), 0xa0761d6478bd642f)
		b = b[8:]
	}
	var w uint64
	switch {
	case len(b) >= 4:
		w = uint64(binary.LittleEndian.Uint32(b))<<32 | uint64(binary.LittleEndian.Uint32(b[len(b)-4:]))
	case len(b) > 0:
		w = uint64(b[0])<<16 | uint64(b[len(b)/2])<<8 | uint64(b[len(b)-1])
	}
	h = mix(h^w, 0xe7037ed1a0b428db)
	h = mix(h, 0x8ebc6af09c88c6e3)
	if h == 0 {
		h = 1
	}
	return h
}

func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

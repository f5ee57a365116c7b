// Package keyhash is the one hash of a string key labtui's keyed state uses: the parser
// computes it for each event's request id as it reads the id, and the engine's key table
// takes that value instead of hashing the id again. Both must compute the same function,
// so it lives here.
//
// It is the runtime's hash of a Go map's string keys (runtime.memhash: AES rounds on
// CPUs that have them, wyhash elsewhere), called directly, under a seed chosen at random
// once per process, so keys read from a topic cannot be chosen to collide. A hash is
// therefore only meaningful within one process: never store one.
package keyhash

import (
	"math/rand/v2"
	"unsafe"
)

// memhash is the runtime's hash of s bytes at p under seed h. hash/maphash reaches the
// same function through two wrappers that cost more than the hash of a short key; the
// runtime keeps this name and signature for packages that link to it directly.
//
//go:linkname memhash runtime.memhash
//go:noescape
func memhash(p unsafe.Pointer, h, s uintptr) uintptr

// seed is the process's random seed.
var seed = uintptr(rand.Uint64())

// String returns key's hash. It is never zero, so a zero hash can mean "not computed".
func String(key string) uint64 {
	return nonZero(uint64(memhash(unsafe.Pointer(unsafe.StringData(key)), seed, uintptr(len(key)))))
}

// Bytes returns the hash of the string b holds: String(string(b)), without the string.
func Bytes(b []byte) uint64 {
	return nonZero(uint64(memhash(unsafe.Pointer(unsafe.SliceData(b)), seed, uintptr(len(b)))))
}

// nonZero maps a hash of zero to one, so that zero never is one.
func nonZero(h uint64) uint64 {
	if h == 0 {
		return 1
	}
	return h
}

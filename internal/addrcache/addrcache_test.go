package addrcache

import (
	"strings"
	"testing"
)

func TestAHitIsTheVeryStringAndEqualCopiesMiss(t *testing.T) {
	var c Cache[int]
	acme := "acme"
	c.Put(acme, 1)
	if v, ok := c.Get(acme); !ok || v != 1 {
		t.Fatalf("Get(the string put) = %d, %v; want 1, true", v, ok)
	}
	if _, ok := c.Get(strings.Clone(acme)); ok {
		t.Error("an equal string at another address hit; want a miss")
	}
	if _, ok := c.Get(acme[:2]); ok {
		t.Error("a prefix sharing the address hit; want a miss")
	}
	c.Put("", 2)
	if _, ok := c.Get(""); ok {
		t.Error("the empty key was remembered")
	}
}

func TestForgetAndAFullCacheEmptyIt(t *testing.T) {
	var c Cache[int]
	keys := make([]string, 3*size)
	for i := range keys {
		keys[i] = strings.Repeat("k", i+1)
	}
	for i, k := range keys[:size/2] {
		c.Put(k, i+1)
	}
	for i, k := range keys[:size/2] {
		if v, ok := c.Get(k); !ok || v != i+1 {
			t.Fatalf("Get(%q) = %d, %v; want %d, true", k, v, ok, i+1)
		}
	}
	c.Forget(3)
	for _, k := range keys[:size/2] {
		if _, ok := c.Get(k); ok {
			t.Fatalf("Get(%q) hit after Forget; want every key gone", k)
		}
	}
	for i, k := range keys { // more keys than fit: each Put past half full starts over
		c.Put(k, i+1)
		if v, ok := c.Get(k); !ok || v != i+1 {
			t.Fatalf("Get(%q) right after Put = %d, %v", k, v, ok)
		}
		if c.n > size/2 {
			t.Fatalf("%d keys held in %d slots", c.n, size)
		}
	}
}

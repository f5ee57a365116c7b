package engine

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/labtui/labtui/internal/keyhash"
)

// TestKeyTableAgreesWithAMap runs a long random mix of inserts, lookups and deletes
// against a Go map, checking after every step that the table holds exactly the map's
// keys: deletes shift clusters back across the end of the slot array and grows rehash.
// It runs with the table's hash, and with one under which most keys collide.
func TestKeyTableAgreesWithAMap(t *testing.T) {
	for name, hash := range map[string]func(string) uint64{
		"keyhash":    keyhash.String,
		"collisions": func(key string) uint64 { return uint64(len(key)%3) + 1 },
	} {
		t.Run(name, func(t *testing.T) { agreeWithAMap(t, hash) })
	}
}

func agreeWithAMap(t *testing.T, hashOf func(string) uint64) {
	rng := rand.New(rand.NewPCG(7, 9))
	tab := newKeyTable[int]()
	want := map[string]int{}
	steps := 200_000
	if hashOf("a") == hashOf("b") {
		steps = 20_000 // every probe walks a cluster: keep it short
	}
	for step := range steps {
		key := "r-" + strconv.Itoa(rng.IntN(3_000))
		hash := hashOf(key)
		slot, ok := tab.find(key, hash)
		if _, in := want[key]; ok != in {
			t.Fatalf("step %d: find(%q) = %v, map has it: %v", step, key, ok, in)
		}
		switch {
		case ok && rng.IntN(2) == 0:
			if tab.slots[slot].val != want[key] {
				t.Fatalf("step %d: %q = %d, want %d", step, key, tab.slots[slot].val, want[key])
			}
			tab.deleteAt(slot)
			delete(want, key)
		case !ok:
			tab.insert(slot, key, hash, step)
			want[key] = step
		}
		if tab.len() != len(want) {
			t.Fatalf("step %d: len %d, want %d", step, tab.len(), len(want))
		}
		if step%10_000 == 0 {
			checkKeyTable(t, &tab, want, hashOf)
		}
	}
	checkKeyTable(t, &tab, want, hashOf)
	for key := range want {
		tab.remove(key, hashOf(key))
	}
	if tab.len() != 0 {
		t.Fatalf("%d keys left after removing all", tab.len())
	}
	for _, s := range tab.slots {
		if s.hash != 0 {
			t.Fatal("an emptied table still has a used slot")
		}
	}
}

func checkKeyTable(t *testing.T, tab *keyTable[int], want map[string]int, hashOf func(string) uint64) {
	t.Helper()
	seen := 0
	tab.each(func(key string, val int) {
		seen++
		if w, ok := want[key]; !ok || w != val {
			t.Fatalf("table has %q=%d, map has %d (%v)", key, val, w, ok)
		}
	})
	if seen != len(want) {
		t.Fatalf("table lists %d keys, map has %d", seen, len(want))
	}
	for key, val := range want {
		if got, ok := tab.get(key, hashOf(key)); !ok || got != val {
			t.Fatalf("get(%q) = %d, %v; want %d", key, got, ok, val)
		}
	}
}

func TestKeyTableHashesEveryLength(t *testing.T) {
	a := newKeyTable[int]()
	seen := map[uint64]string{}
	key := ""
	for n := 0; n <= 40; n++ {
		h := a.hashOf(key)
		if h == 0 {
			t.Fatalf("hash of %q is zero, the empty-slot mark", key)
		}
		if other, dup := seen[h]; dup {
			t.Fatalf("%q and %q hash alike", key, other)
		}
		seen[h] = key
		key += string(rune('a' + n%26))
	}
	if a.hashOf("r-103") != a.hashOf("r-1"+"03") {
		t.Error("the hash depends on more than the bytes")
	}
}

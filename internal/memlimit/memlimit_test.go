package memlimit

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestApplySetsTheTUIsLimitUnlessGOMEMLIMITIsSet(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetMemoryLimit(-1)
	restore := Apply()
	if got := debug.SetMemoryLimit(-1); got != TUI {
		t.Errorf("the limit is %d, want %d", got, TUI)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("the limit after is %d, want %d back", got, before)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(math.MaxInt64)
	defer Apply()()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set the TUI changed the limit to %d", got)
	}
	debug.SetMemoryLimit(before)
}

package logcap

import "testing"

func TestTheFirstLinesAndThenThePowersOfTenAreLogged(t *testing.T) {
	var c Cap
	var logged []int64
	for range 50_000 {
		if ok, n := c.Line("malformed"); ok {
			logged = append(logged, n)
		}
	}
	if len(logged) != First+3 || logged[First-1] != First || logged[First] != 100 || logged[First+1] != 1000 || logged[First+2] != 10_000 {
		t.Errorf("logged lines %v", logged)
	}
	if c.Count("malformed") != 50_000 || c.Count("other") != 0 {
		t.Errorf("counts %d %d", c.Count("malformed"), c.Count("other"))
	}
	if ok, n := c.Line("other"); !ok || n != 1 {
		t.Errorf("another kind's first line: %v %d", ok, n)
	}
}

package enginejob

import (
	"sort"

	"github.com/labtui/labtui/internal/jobspec"
)

// sortPending orders pending windows by kind (processing time first), window start, then
// tenant, so the end of a run prints the same way every time.
func sortPending(rs []jobspec.Result) {
	sort.Slice(rs, func(a, b int) bool {
		x, y := rs[a], rs[b]
		if x.Window != y.Window {
			return x.Window < y.Window
		}
		if x.Minute.WindowStart != y.Minute.WindowStart {
			return x.Minute.WindowStart < y.Minute.WindowStart
		}
		return x.Minute.TenantID < y.Minute.TenantID
	})
}

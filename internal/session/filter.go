package session

import (
	"strings"

	"github.com/labtui/labtui/internal/jobspec"
)

// Matches reports whether a record passes the filter f: f is empty, or it is part of the
// record's tenant, gateway or request ID (ignoring case).
func Matches(r *jobspec.RecordTrace, f string) bool {
	if f == "" {
		return true
	}
	f = strings.ToLower(f)
	return strings.Contains(strings.ToLower(r.TenantID), f) ||
		strings.Contains(strings.ToLower(r.Gateway), f) ||
		strings.Contains(strings.ToLower(r.RequestID), f)
}

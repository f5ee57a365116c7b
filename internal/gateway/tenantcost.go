package gateway

// TenantCostMinute is the cost one tenant ran up in one window: what both of the lab's
// TenantCost windows emit. WindowEnd is exclusive, so a minute window starting at
// 10:00:00.000 has WindowEnd 10:01:00.000 and holds timestamps up to 10:00:59.999.
type TenantCostMinute struct {
	TenantID    string
	WindowStart int64
	WindowEnd   int64
	USD         float64
	Requests    int64
}

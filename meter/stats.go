package meter

// Stats counts what went through the GatewayMeter job. USD fields add up exactly what was counted.
type Stats struct {
	Events     int64
	Malformed  int64
	Duplicates int64
	// Forgotten counts the request halves let go at their forget timer; Overflowed
	// those dropped on arrival because MaxPendingHalves halves were kept.
	Forgotten       int64
	Overflowed      int64
	Records         int64
	RecordsUSD      float64
	Late            int64
	LateUSD         float64
	ProcessingFired int64
	ProcessingUSD   float64
	EventFired      int64
	EventUSD        float64
}

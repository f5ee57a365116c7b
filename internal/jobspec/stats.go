package jobspec

// Stats counts what went through the GatewayMeter job. USD fields add up exactly what was counted.
type Stats struct {
	Events     int64
	Malformed  int64
	Duplicates int64
	// Forgotten counts the request halves let go at their forget timer; Overflowed
	// those dropped on arrival because MaxPendingHalves halves were kept.
	Forgotten  int64
	Overflowed int64
	// ForgottenUncounted says the job does not count the halves it lets go, so
	// Forgotten is 0 whatever it let go: the lab's PyFlink job on real Flink.
	ForgottenUncounted bool
	Records            int64
	RecordsUSD         float64
	Late               int64
	LateUSD            float64
	ProcessingFired    int64
	ProcessingUSD      float64
	EventFired         int64
	EventUSD           float64
}

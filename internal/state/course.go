package state

import "github.com/labtui/labtui/internal/minutes"

// HiccupTable is 4.2's table in the learner's numbers, worked out by the session from the
// hiccup's evidence: the tenant the hold moved most, its two minutes with both windows,
// and the held records its event-time column lacks. The lab panel and the sheet both
// show it; it is not saved, since it follows from the hiccup's evidence.
type HiccupTable struct {
	// Run is the run the hiccup's table was taken from, the run that backs 4.2.
	Run      int    `json:"run"`
	Instance string `json:"instance"`
	Tenant   string `json:"tenant"`
	// Minutes are the minute the hold began in and the next.
	Minutes [2]HiccupMinute `json:"minutes"`
	// Late is the tenant's late records: those its event-time column lacks.
	Late Tally `json:"late"`
	// Gap is the processing-time column less the event-time column in the second minute,
	// where processing time bills the held records; GapKnown is false when the tenant has
	// no row there.
	Gap      float64 `json:"gap_usd"`
	GapKnown bool    `json:"gap_known"`
	// Note explains the difference between the columns with these numbers.
	Note string `json:"note"`
}

// HiccupMinute is one minute of a HiccupTable: both windows' cells for the tenant, and
// whether each wrote anything (a window that wrote nothing shows as "—").
type HiccupMinute struct {
	WindowStart int64        `json:"window_start"`
	Processing  minutes.Cell `json:"processing"`
	Event       minutes.Cell `json:"event"`
	// Written says, per window (minutes.Processing, minutes.Event), whether it wrote the cell.
	Written [2]bool `json:"written"`
}

// CourseHiccup is the course's own 4.2 table (acme, every request $0.10, gw-1 held
// 10:00:40-10:01:15): per minute, 10:00 and 10:01, the processing-time and the
// event-time column in dollars.
var CourseHiccup = [2][2]float64{{0.20, 0.40}, {0.40, 0.20}}

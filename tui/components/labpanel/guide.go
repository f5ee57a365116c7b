package labpanel

// Guide is how an exercise is done in labtui: a short title, the keys, what to do with
// them and what to look for on screen. The course's own text is quoted below it.
type Guide struct {
	Title string
	// Keys is the one-line reminder the collapsed panel shows.
	Keys string
	// Uses are the main screen's keys the exercise's text tells the learner to press,
	// most needed first: the footer lists them first, so an 80-column footer has them.
	Uses []string
	Do   string
	// Short is Do in two lines of an 80-column panel: what a compact panel (80x24) shows
	// so the exercise in progress says what to do without o.
	Short string
	Look  string
}

// guides are the four exercises of Lab 4 as done in labtui.
var guides = map[string]Guide{
	"4.1": {
		Uses:  []string{"g"},
		Title: "both windows agree while events arrive promptly",
		Keys:  "g on, 5 minutes",
		Short: "Nothing to press: leave the generator on five whole minutes, with no hiccup, restart or replay, and watch each minute close in both panes.",
		Do: "Nothing to press: the generator starts with labtui (g stops and starts it). Leave it five minutes " +
			"without a hiccup (i), a restart (x, w) or a replay, and watch each minute close in both panes.",
		Look: "Rows without ≠: the processing-time and the event-time window bill the same USD and requests, " +
			"minute by minute, tenant by tenant. A ≠ row in a quiet live run is a request that completed in the " +
			"last moments of a minute and reached the job in the next (enter on the row shows it). labtui counts only " +
			"minutes without one, so on a busy machine, where they are more common, the five take longer.",
	},
	"4.2": {
		Uses:  []string{"i", "m", "l", "w"},
		Title: "a hiccup bills the burst to the wrong minute",
		Keys:  "i enter, m, l, w",
		Short: "Press i, then enter: gw-1 is held 35 s from the next second :40, across a minute. m marks it; l lists the late records once both minutes close.",
		Do: "Press i, then enter: the picker's default holds gw-1 for 35 s from the next second :40, so the hold " +
			"crosses a minute boundary as the course's 10:00:40-10:01:15 does. m marks it in both panes; l opens the " +
			"late records. Later, w switches to for_bounded_out_of_orderness with a bound above the hold (40 s), and a " +
			"second hiccup shows the course's event-time column.",
		Look: "The minutes of the hold once both have closed. Processing time bills the held records in the minute " +
			"they arrived. Under for_monotonous_timestamps() the watermark has run past the held records' minute " +
			"when they arrive, so event time drops them as late: the late pane lists each with the watermark it met, " +
			"which is the operator's event time when r-103 arrived (4.2b).",
	},
	"4.3": {
		Uses:  []string{"r", "d", "l", "w"},
		Title: "replay the recorded hour",
		Keys:  "r, then d and ←/→",
		Short: "Press r to replay the recorded hour; when it is done, d diffs it against the reference (←/→ tabs). w, p, enter, then r: the second result.",
		Do: "Press r: the recorded hour is written into a fresh topic and the job restarts on it from the " +
			"earliest offset, as fast as it can read. When it is done, d diffs the replay against the reference " +
			"(the same hour re-enacted at its recorded times); ←/→ switches between the event-time and the " +
			"processing-time tab.",
		Look: "Event time: the same minutes and dollars as the reference, but for differences the diff explains: " +
			"at full speed the three partitions are read unevenly and the watermark follows the one furthest ahead, " +
			"so a replay drops records as late that the hour's live run kept; the diff and the late pane (l) say " +
			"which partition ran ahead and how many were late only because of it. w, p, enter puts watermarks per " +
			"partition on the source, which removes those: r again gives the second result for your answer, and p " +
			"here picks the replay the step names. Processing time: one or two enormous minutes, the whole " +
			"hour billed to the wall-clock minutes the replay ran in.",
	},
	"4.4": {
		Uses:  []string{"t", "d"},
		Title: "started_ts moves a request's cost",
		Keys:  "t, then d and →",
		Short: "Press t: the job replays the recorded hour reading started_ts. Then d and → to the moved requests: find one whose cost moved minutes.",
		Do: "Press t: the job restarts with started_ts as its event time and replays the recorded hour. Then d " +
			"and → to the moved requests tab: the requests whose minute changed between the completed_ts replay " +
			"and this one.",
		Look: "A request that started in one minute and completed in the next: with started_ts its cost moves " +
			"to the earlier minute. Long requests move most; a request is billed when it completes, which is " +
			"why TenantCost (and ModelLatency, whose latency ends then) read completed_ts.",
	},
}

// GuideOf returns the exercise's guide.
func GuideOf(id string) Guide { return guides[id] }

// Package diff compares the outputs of two runs of the GatewayMeter job, A and B (the
// reference re-enactment of a recording and a replay of it, say, or a live run and a
// replay): it lines up every (tenant, window) of one sink, folds the identical rows, and
// explains each difference from the runs' traces, record by record: which records one run
// counted in the window and the other did not, and why (dropped as late, stamped into
// another window, never assembled). It also lists the requests whose event-time minute
// moved between two runs (completed_ts against started_ts), for exercise 4.4.
//
// Late data is real Flink behaviour, so a difference is not an error: a difference is
// explained when the records the trace shows on either side add up exactly (requests, and
// USD to a billionth of a dollar) to the difference between the two rows.
package diff

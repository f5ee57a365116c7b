package lab4

import (
	"fmt"
	"strconv"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/state"
)

// LateWhy explains a run's late records, when how the run read explains them: a replay,
// or a restart of the live job that re-read its topic's backlog at full speed; "" when
// nothing needs explaining.
func LateWhy(l state.LateFacts) string {
	if l.Restart {
		return restartLateWhy(l)
	}
	if !l.Recording {
		return ""
	}
	r := l.Reads
	if l.Late == 0 {
		if r != nil && r.ByMS > 0 && l.Source {
			return fmt.Sprintf("With watermarks per partition on the source no record was late, though partition %d ran up to %s ahead of "+
				"partition %d as the job read them: the job's watermark is the minimum over the partitions.", r.Ahead, secs(r.ByMS), r.Behind)
		}
		if r != nil && r.ByMS > 0 && l.IntervalMS > 0 {
			return zeroLateWhy(l, r)
		}
		return ""
	}
	why := fmt.Sprintf("Run %d dropped %s records ($%.2f) as late.", l.Run, count(int64(l.Late)), l.USD)
	if r == nil {
		why += " At full speed the job reads the topic's partitions unevenly, and a watermark generated after the source, " +
			"as in the course's job, follows the partition read furthest ahead, as in Flink: records of the others arrive behind it, " +
			"so successive replays of the same hour disagree; this backend does not report how far each partition ran ahead." + realFlinkReplays
		if !l.Source {
			why += " Watermarks per partition on the source (w, p, enter) take the minimum over the partitions and remove that effect."
		}
		return why
	}
	lead := fmt.Sprintf("partition %d ran up to %s ahead of partition %d (its largest event timestamp against theirs, as partition %d was read)",
		r.Ahead, secs(r.ByMS), r.Behind, r.Behind)
	if r.ByMS == 0 {
		lead = "no partition ran ahead of another"
	}
	if l.Source {
		return why + " Watermarks are per partition on the source: " + lead + ", and their minimum, the job's watermark, made none of " +
			"them late because of it; they were late by their own partition's events."
	}
	n := r.AheadLate
	some := count(n)
	if l.StartedTS {
		some = "at least " + some
	}
	were := "were"
	if n == 1 {
		were = "was"
	}
	why += fmt.Sprintf(" Read as fast as the broker serves it, %s, and a watermark generated after the source, as in the course's job, "+
		"follows the partition furthest ahead, as in Flink: %s of them %s late only because of that (their own partition's events "+
		"had not yet passed the end of their minute)", lead, some, were)
	if rest := r.Late - n; rest > 0 {
		why += fmt.Sprintf(", the other %s by their own partition's events too", count(rest))
		if l.StartedTS {
			why += " or by started_ts's own disorder (a request starts its duration before it completes)"
		}
	}
	why += ". A replay read at another pace leads by another amount, so successive replays of the same hour disagree." + realFlinkReplays
	if l.Forgotten > 0 && r.ByMS > jobspec.DefaultForgetAfter {
		why += fmt.Sprintf(" The job also let go of %s waiting for the other half of their request (the RequestAssembler keeps a half "+
			"10 minutes of event time, by the watermark): a partition more than that behind can lose a request's first half before "+
			"its second is read, the second then waits alone and is let go in turn, and the request reaches neither window. "+
			"When it let them go is not known: the job counts the halves it lets go, not which or when; the diff (d) names the "+
			"minutes of the requests that never reached the windows.",
			halves(l.Forgotten))
	}
	if n > 0 {
		these := "none of these " + count(n) + " records is late"
		if n == 1 {
			these = "this record is not late"
		}
		why += " Watermarks per partition on the source (w, p, enter; or start labtui with --watermarks source) take the minimum over " +
			"the partitions, which never runs ahead of a record's own partition: with them " + these + ", whatever the pace."
	}
	return why
}

// zeroLateWhy is LateWhy for a replay with no late record in which a partition ran
// ahead, with watermarks generated after the source: under a bound at least the lead,
// the bound kept the watermark behind every partition; under a smaller bound or
// for_monotonous_timestamps, where the periodic watermarks fell did.
func zeroLateWhy(l state.LateFacts, r *state.ReadsFacts) string {
	ran := fmt.Sprintf("partition %d ran up to %s ahead of partition %d as the job read them", r.Ahead, secs(r.ByMS), r.Behind)
	other := "Read at another pace the same hour can drop many, as it did on real Kafka and Flink: " + realFlinkFigures
	bound := l.BoundMS
	if bound > 0 && bound >= r.ByMS {
		return fmt.Sprintf("No record was late in run %d, as the course says of a replay, though %s: the watermark, generated after "+
			"the source, follows the partition furthest ahead, but for_bounded_out_of_orderness holds it %s behind the largest "+
			"timestamp, and that bound is more than the lead, so it never passed the events of a partition behind. Read at another "+
			"pace a partition can run further ahead than %s, and the same hour can drop many records as late: with "+
			"for_monotonous_timestamps, "+realFlinkFigures, l.Run, ran, secs(bound), secs(bound))
	}
	after := "a watermark generated after the source follows the partition furthest ahead"
	if bound > 0 {
		after += fmt.Sprintf(" less the %s bound, which covers only that much of the lead", secs(bound))
	}
	return fmt.Sprintf("No record was late in run %d, as the course says of a replay, though %s: %s, but it is emitted only every "+
		"%d ms of the wall clock, and in this run none was emitted where it would have made a record of a slower partition late. %s",
		l.Run, ran, after, l.IntervalMS, other)
}

// restartLateWhy is LateWhy for a restart of the live job that re-read its backlog.
func restartLateWhy(l state.LateFacts) string {
	r := l.Reads
	if r == nil {
		return ""
	}
	n := r.AheadLate
	were := "were"
	if n == 1 {
		were = "was"
	}
	why := fmt.Sprintf("Run %d dropped %s records ($%.2f) as late. It began with empty state and read the live topic again "+
		"from the oldest record the broker keeps, as fast as the broker serves it: partition %d ran up to %s ahead of partition %d "+
		"(its largest event timestamp against theirs, as partition %d was read), and a watermark generated after the source, as in "+
		"the course's job, follows the partition furthest ahead, as in Flink: %s of them %s late only because of that (their own "+
		"partition's events had not yet passed the end of their minute)", l.Run, count(int64(l.Late)), l.USD,
		r.Ahead, secs(r.ByMS), r.Behind, r.Behind, count(n), were)
	if rest := r.Late - n; rest > 0 {
		why += fmt.Sprintf(", the other %s by their own partition's events too", count(rest))
	}
	these := "none of these " + count(n) + " records is late"
	if n == 1 {
		these = "this record is not late"
	}
	return why + ". Once it has caught up it reads at the generator's pace, and what is late again is what a bound or a " +
		"hiccup makes late. Watermarks per partition on the source (w, p, enter) take the minimum over the partitions: with " +
		"them " + these + "."
}

// realFlinkReplays is what real Kafka and Flink did with the lab's recorded hour read at
// full speed, measured by conformance/fairness.sh (run fairness-20261201-130752, 1 Dec
// 2026: Kafka 4.1.1, the anchor's KafkaSource on Flink 2.2.1 with the Kafka consumer's
// defaults, for_monotonous_timestamps after the source; the same run measured the
// embedded lab's consumer on that broker and on kfake, docs/CONFORMANCE.md).
const realFlinkReplays = " Real Kafka and Flink do the same: " + realFlinkFigures

// realFlinkFigures are realFlinkReplays' figures, for a sentence of its own.
const realFlinkFigures = "Flink 2.2.1's KafkaSource, reading the lab's recorded hour from Kafka 4.1.1 " +
	"as fast as it could, dropped 43,801 to 46,390 of its 71,641 requests as late in four replays, and this lab's consumer on that broker " +
	"saw one partition up to 3,600 s ahead (measured on 1 Dec 2026)."

// halves is n request halves in words: "1 request half", "150 request halves".
func halves(n int64) string {
	if n == 1 {
		return "1 request half"
	}
	return count(n) + " request halves"
}

// secs is ms as seconds to a tenth: "41.3 s", "2,285.8 s (38 min)".
func secs(ms int64) string {
	s := count(ms/1000) + "." + strconv.FormatInt(ms%1000/100, 10) + " s"
	if ms >= 120000 {
		s += " (" + strconv.FormatInt(ms/60000, 10) + " min)"
	}
	return s
}

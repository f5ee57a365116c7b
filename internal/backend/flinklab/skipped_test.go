package flinklab

import (
	"fmt"
	"strings"
	"testing"
)

// Given the compose lab, when the job writes a flood of malformed> lines, then the log
// holds the first 20, then one at each power of ten that says how many, each naming
// the topic, what the value held and why it was refused: the same cap as the embedded
// lab's (labrt.Runtime.Skipped).
func TestAFloodOfMalformedLinesFromTheRealJobLogsAFewAndSaysHowMany(t *testing.T) {
	h := newHarness(t)
	lab := h.open()
	if err := lab.SetKafka("127.0.0.1:9092", []string{"127.0.0.1:9092"}, "gateway-events"); err != nil {
		t.Fatal(err)
	}
	for i := range 5_000 {
		lab.malformed(fmt.Sprintf(` {"reason":"missing field ts","value":"{\"n\":%d}"}`, i))
	}
	lab.malformed(` not JSON`)
	h.close()
	var skipped []string
	for _, l := range logLines(h.snapshot()) {
		if strings.HasPrefix(l, "skipped a record of gateway-events") {
			skipped = append(skipped, l)
		}
	}
	if len(skipped) != 20+2 {
		t.Fatalf("%d log lines for 5,001 malformed lines:\n%s", len(skipped), strings.Join(skipped, "\n"))
	}
	if want := `skipped a record of gateway-events holding {"n":0}: missing field ts`; skipped[0] != want {
		t.Errorf("first line %q, want %q", skipped[0], want)
	}
	if !strings.Contains(skipped[21], `holding {"n":999}: missing field ts (the 1000th record skipped as malformed`) {
		t.Errorf("the last line does not say how many: %q", skipped[21])
	}
}

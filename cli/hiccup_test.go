package cli

import (
	"strings"
	"testing"
)

// TestHeadlessSaysWhenEachHiccupEnds runs the lab headless with two hiccups on gw-1, the
// second inside the first: the log says the second joined the first, and when the one
// hold ended.
func TestHeadlessSaysWhenEachHiccupEnds(t *testing.T) {
	code, _, errOut := runCLI(t, "run", "--headless", "--duration", "4s", "--rate", "5", "--broker-addr", "127.0.0.1:0",
		"--hiccup", "gw-1@1s+2s", "--hiccup", "gw-1@1500ms+500ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"# hiccup on gw-1 for 2s, until ",
		"# hiccup on gw-1 for 500ms joins the one on since ",
		"# hiccup ended on gw-1 at ",
		" (held 2s): its producer reconnects and sends what it held\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Count(errOut, "hiccup ended on") != 1 {
		t.Errorf("one hold, one end; stderr:\n%s", errOut)
	}
}

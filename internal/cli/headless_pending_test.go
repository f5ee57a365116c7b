package cli

import (
	"strconv"
	"strings"
	"testing"
)

func TestHeadlessPrintsTheHiccupsEndAndThePendingWindows(t *testing.T) {
	code, out, errOut := runCLI(t, "run", "--headless", "--duration", "4s", "--hiccup", "gw-1@500ms+1500ms",
		"--broker-addr", "127.0.0.1:0", "--rate", "50")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"# hiccup on gw-1 for 1.5s", "# hiccup ended on gw-1 at ", "pending at the stop", "every event and every dollar is accounted for"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	n := strings.Count("\n"+out, "\npending> ")
	if n == 0 {
		t.Errorf("no pending window printed:\n%s", out)
	}
	if !strings.Contains(errOut, "# "+strconv.Itoa(n)+" windows pending at the stop") && !(n == 1 && strings.Contains(errOut, "# 1 window pending")) {
		t.Errorf("%d pending lines, but stderr says otherwise:\n%s", n, errOut)
	}
}

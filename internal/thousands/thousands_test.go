package thousands

import "testing"

func TestFormatGroupsDigitsInThrees(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 143400: "143,400",
		71641: "71,641", 1439161: "1,439,161", -1024: "-1,024", -999: "-999", -100000: "-100,000"} {
		if got := Format(n); got != want {
			t.Errorf("Format(%d) = %q, want %q", n, got, want)
		}
	}
}

package diff

import (
	"testing"

	"github.com/labtui/labtui/internal/minutes"
)

// TestCountsAreWrittenWithThousandsSeparators: the diff's lines reach the TUI's diff view
// and the answer sheet, where every other count reads 71,641, not 71641.
func TestCountsAreWrittenWithThousandsSeparators(t *testing.T) {
	for got, want := range map[string]string{
		plural(71641, "record"): "71,641 records",
		plural(1, "record"):     "1 record",
		cellText(minutes.Cell{USD: 406.906806, Requests: 14199, Fired: 1}): "$406.906806 ×14,199",
	} {
		if got != want {
			t.Errorf("%q, want %q", got, want)
		}
	}
}

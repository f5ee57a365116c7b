package minutes

import (
	"encoding/json"
	"testing"

	"github.com/labtui/labtui/internal/gateway"
)

const t0 = 1795946400000 // 10:00:00.000 UTC

func minute(tenant string, m int64, usd float64, n int64) gateway.TenantCostMinute {
	return gateway.TenantCostMinute{TenantID: tenant, WindowStart: t0 + m*60000, WindowEnd: t0 + (m+1)*60000, USD: usd, Requests: n}
}

func TestSameMinuteAndTenantShareOneRow(t *testing.T) {
	tb := New(0)
	tb.Add(Processing, minute("acme", 0, 0.2, 2), false)
	tb.Add(Event, minute("globex", 0, 0.1, 1), false)
	tb.Add(Event, minute("acme", 0, 0.4, 4), false)
	if tb.Len() != 2 {
		t.Fatalf("Len = %d, want 2 rows (acme, globex)", tb.Len())
	}
	r := tb.Row(0)
	if r.Tenant != "acme" || r.Cells[Processing].USD != 0.2 || r.Cells[Event].USD != 0.4 {
		t.Errorf("row 0 = %+v", r)
	}
	if v := r.Verdict(Clocks{}); v != Differs {
		t.Errorf("Verdict = %v, want Differs", v)
	}
}

func TestRowsSortByMinuteThenTenantWithMarksAfterTheirMinute(t *testing.T) {
	tb := New(0)
	tb.Add(Event, minute("hooli", 1, 1, 1), false)
	tb.Add(Event, minute("acme", 1, 1, 1), false)
	tb.Mark(t0+40000, "hiccup gw-1 10:00:40")
	tb.Add(Event, minute("acme", 0, 1, 1), false)
	want := []string{"acme@0", "hiccup gw-1 10:00:40", "acme@1", "hooli@1"}
	for i, w := range want {
		r := tb.Row(i)
		got := r.Mark
		if got == "" {
			got = r.Tenant + "@" + string(rune('0'+(r.WindowStart-t0)/60000))
		}
		if got != w {
			t.Errorf("row %d = %s, want %s", i, got, w)
		}
	}
}

func TestAMissingCellDiffersOnlyOnceItsClockPassed(t *testing.T) {
	tb := New(0)
	r := tb.Add(Processing, minute("acme", 0, 0.2, 2), false)
	end := r.WindowEnd
	if v := r.Verdict(Clocks{Now: end + 5000, Watermark: end - 2}); v != waiting {
		t.Errorf("before the watermark passed: %v, want Waiting", v)
	}
	if v := r.Verdict(Clocks{Now: end + 5000, Watermark: end + grace}); v != Differs {
		t.Errorf("after the watermark passed: %v, want Differs", v)
	}
	r2 := tb.Add(Event, minute("globex", 0, 0.2, 2), false)
	if v := r2.Verdict(Clocks{Now: end, Watermark: end}); v != waiting {
		t.Errorf("processing window within grace: %v, want Waiting", v)
	}
	if v := r2.Verdict(Clocks{Ended: true}); v != Differs {
		t.Errorf("ended run: %v, want Differs", v)
	}
}

func TestEqualToleratesFloatOrderButNotACent(t *testing.T) {
	a := Cell{USD: 0.1 + 0.2, Requests: 3, Fired: 1}
	b := Cell{USD: 0.3, Requests: 3, Fired: 1}
	if !Equal(a, b) {
		t.Error("0.1+0.2 and 0.3 differ")
	}
	b.USD = 0.31
	if Equal(a, b) {
		t.Error("a cent apart compares equal")
	}
}

func TestTheLimitDropsTheOldestAndCountsThem(t *testing.T) {
	tb := New(3)
	for m := range int64(5) {
		tb.Add(Event, minute("acme", m, 1, 1), false)
	}
	if tb.Len() != 3 || tb.Dropped() != 2 || tb.Row(0).WindowStart != t0+2*60000 {
		t.Fatalf("Len %d Dropped %d first %d", tb.Len(), tb.Dropped(), tb.Row(0).WindowStart)
	}
	tb.Add(Event, minute("acme", 0, 1, 1), false)
	if tb.Len() != 3 || tb.Dropped() != 3 {
		t.Errorf("a row older than all kept: Len %d Dropped %d", tb.Len(), tb.Dropped())
	}
	// A dropped row's key is forgotten: a late report makes a new row, not a stale one.
	tb.Add(Processing, minute("acme", 4, 1, 1), false)
	if r := tb.Row(2); r.Cells[Processing].Fired != 1 || r.Cells[Event].Fired != 1 {
		t.Errorf("row of minute 4 = %+v", r)
	}
}

func TestOpenNeverReplacesFired(t *testing.T) {
	tb := New(0)
	tb.Add(Event, minute("acme", 0, 0.2, 2), false)
	r := tb.Add(Event, minute("acme", 0, 0.9, 9), true)
	if c := r.Cells[Event]; c.Fired != 1 || c.USD != 0.2 {
		t.Errorf("cell = %+v", c)
	}
}

func TestCopyRangeCopiesRowsAndVerdicts(t *testing.T) {
	tb := New(0)
	for m := range int64(4) {
		tb.Add(Processing, minute("acme", m, 0.2, 2), false)
		tb.Add(Event, minute("acme", m, 0.2, 2), false)
	}
	tb.Add(Event, minute("acme", 2, 0.4, 4), false)
	rows, omitted := tb.CopyRange(t0+60000, t0+3*60000, 10, Clocks{Ended: true})
	if len(rows) != 2 || omitted != 1 || !rows[1].Differs || rows[0].Differs {
		t.Errorf("copy = %+v, %d omitted", rows, omitted)
	}
}

func TestARowSavesAsTheEvidenceFormatAndReadsBack(t *testing.T) {
	tb := New(0)
	tb.Add(Processing, minute("acme", 0, 0.2, 2), false)
	tb.Add(Event, minute("acme", 0, 0.4, 4), true)
	rows, _ := tb.Copy(0, 1, Clocks{Ended: true})
	b, err := json.Marshal(rows[0])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"window_start":1795946400000,"window_end":1795946460000,"tenant_id":"acme","processing_time":{"usd":0.2,"requests":2},` +
		`"event_time":{"usd":0.4,"requests":4,"open":true},"differs":true}`
	if string(b) != want {
		t.Errorf("JSON = %s\nwant   %s", b, want)
	}
	var back Row
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Cells[Processing].Fired != 1 || !back.Cells[Event].Open || back.Cells[Event].Fired != 0 || !back.Differs {
		t.Errorf("read back %+v", back)
	}
	var absent Row
	json.Unmarshal([]byte(`{"window_start":1,"window_end":2,"tenant_id":"acme","event_time":{"usd":1,"requests":1}}`), &absent)
	if absent.Cells[Processing].Present() || !absent.Cells[Event].Present() {
		t.Errorf("a missing cell read as %+v", absent)
	}
}

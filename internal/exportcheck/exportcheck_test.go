package exportcheck

import (
	"os"
	"strings"
	"testing"
)

// mod is the module's path, which every key begins with.
const mod = "github.com/labtui/labtui/"

// allowed are the exports nothing in the module uses that stay exported, each with why.
// A new entry needs a reason a reviewer accepts: documented API, or a name reflection,
// encoding or a framework calls by its spelling.
var allowed = map[string]string{
	// Documented API: Result.Name is one of these, for a caller to tell the checks apart.
	mod + "compose.CheckCLI":     "documented: the values of Result.Name",
	mod + "compose.CheckCompose": "documented: the values of Result.Name",
	mod + "compose.CheckDaemon":  "documented: the values of Result.Name",
	mod + "compose.CheckImages":  "documented: the values of Result.Name",
	// Documented API: the Bubble Tea model Run drives, for a program (or teatest) that
	// runs labtui's TUI itself.
	mod + "tui.Model": "documented: the TUI's Bubble Tea model",
	mod + "tui.New":   "documented: the TUI's Bubble Tea model",
}

// TestEveryExportIsUsedOutsideItsPackage fails with the exported identifiers, outside
// internal/, that no other package of the module (tests included) refers to and that
// allowed does not list. Unexport them, or delete them if nothing uses them at all.
func TestEveryExportIsUsedOutsideItsPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the whole module and its tests")
	}
	found, err := Find("../..")
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	seen := map[string]bool{}
	for _, u := range found {
		seen[u.Key] = true
		if _, ok := allowed[u.Key]; !ok {
			bad = append(bad, u.Pos+": "+u.Kind+" "+u.Key)
		}
	}
	if os.Getenv("EXPORTCHECK_LIST") != "" {
		t.Logf("%d unused exports, %d of them allowed:\n%s", len(found), len(found)-len(bad), strings.Join(bad, "\n"))
	}
	if len(bad) > 0 {
		t.Errorf("%d exported identifiers are not used outside their package: unexport them, or list them in allowed with why:\n%s",
			len(bad), strings.Join(bad, "\n"))
	}
	for k := range allowed {
		if !seen[k] {
			t.Errorf("allowed lists %s, which is used outside its package now (or gone): drop it from the list", k)
		}
	}
}

package fileerr

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReasonNamesNoPath(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	_, err := os.CreateTemp(filepath.Join(file, "sub"), ".x.*.tmp")
	if err == nil {
		t.Fatal("CreateTemp under a file succeeded")
	}
	if got := Reason(err); got != "not a directory" {
		t.Errorf("Reason = %q", got)
	}
	if got := Write("/a/b.json", err).Error(); got != "cannot write /a/b.json: not a directory" {
		t.Errorf("Error() = %q", got)
	}
	if strings.Contains(Write("/a/b.json", err).Error(), ".tmp") {
		t.Error("the message names the temporary file")
	}
}

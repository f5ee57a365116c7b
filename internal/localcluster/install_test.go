package localcluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A jar is renamed into place only with its pinned size and SHA-256; a wrong one leaves
// nothing behind.
func TestFetchChecksTheJar(t *testing.T) {
	body := "the jar's bytes"
	sum := sha256.Sum256([]byte(body))
	good := artifact{"org/x/x/1/x-1.jar", int64(len(body)), hex.EncodeToString(sum[:])}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(body))
	}))
	defer srv.Close()
	dir := t.TempDir()
	dest := filepath.Join(dir, "libs", "x-1.jar")
	var seen int64
	if err := fetch(context.Background(), srv.Client(), srv.URL+"/"+good.path, dest, good, func(n int64) { seen = n }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(dest); string(b) != body || seen != good.size {
		t.Fatalf("installed %q after progress %d", b, seen)
	}
	bad := good
	bad.sha256 = strings.Repeat("0", 64)
	dest2 := filepath.Join(dir, "libs", "y-1.jar")
	err := fetch(context.Background(), srv.Client(), srv.URL+"/"+good.path, dest2, bad, func(int64) {})
	if err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Fatalf("a jar with the wrong hash: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "libs", "*y-1.jar*")); len(m) != 0 {
		t.Fatalf("a rejected jar left %v", m)
	}
}

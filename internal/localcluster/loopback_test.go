package localcluster

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Given a jar with folders (one stored deflated, as jar tools do), classes and a
// manifest, when the class is replaced, then the copy holds every entry in the same
// order, the new class, and everything else byte for byte.
func TestPatchJarReplacesOneEntryAndCopiesTheRest(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "in.jar"), filepath.Join(dir, "out.jar")
	entries := []struct {
		name   string
		method uint16
		data   string
	}{
		{"META-INF/", zip.Deflate, ""},
		{"META-INF/MANIFEST.MF", zip.Deflate, "Manifest-Version: 1.0\n"},
		{"org/", zip.Store, ""},
		{"org/A.class", zip.Deflate, "old class"},
		{"org/B.class", zip.Store, "other class"},
	}
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, e := range entries {
		f, err := w.CreateHeader(&zip.FileHeader{Name: e.name, Method: e.method})
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(e.data))
	}
	w.Close()
	if err := os.WriteFile(src, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := patchJar(src, dst, "org/A.class", []byte("new class")); err != nil {
		t.Fatal(err)
	}
	r, err := zip.OpenReader(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if len(r.File) != len(entries) {
		t.Fatalf("%d entries, want %d", len(r.File), len(entries))
	}
	for i, e := range entries {
		if r.File[i].Name != e.name {
			t.Fatalf("entry %d is %s, want %s", i, r.File[i].Name, e.name)
		}
		got, err := jarEntry(dst, e.name)
		if err != nil {
			t.Fatal(err)
		}
		want := e.data
		if e.name == "org/A.class" {
			want = "new class"
		}
		if string(got) != want {
			t.Fatalf("%s holds %q, want %q", e.name, got, want)
		}
	}
	if err := patchJar(src, dst, "org/Missing.class", nil); err == nil {
		t.Fatal("a jar without the entry was patched without an error")
	}
}

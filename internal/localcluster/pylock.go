package localcluster

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"os"
	"path/filepath"
)

// The venv's whole Python dependency set is pinned: pylock/requirements.txt names every
// package apache-flink needs (52 with it), each at one version with the SHA-256 of every
// file PyPI has for that version, and pip installs them with --require-hashes, so it
// installs exactly these files or nothing. Four of them are sources only (crcmod, dill,
// docopt, hdfs); they are built with --no-build-isolation by the setuptools and wheel that
// pylock/build.txt pins the same way, installed first, instead of whatever setuptools
// the index holds that day. pylock/refresh.sh makes both files again (see README).

//go:embed pylock/requirements.txt
var pyRequirements []byte

//go:embed pylock/build.txt
var pyBuildRequirements []byte

// pyLockSum is the SHA-256 of both lock files: the venv's lock stamp holds it.
func pyLockSum() string {
	h := sha256.New()
	h.Write(pyBuildRequirements)
	h.Write([]byte{0})
	h.Write(pyRequirements)
	return hex.EncodeToString(h.Sum(nil))
}

// lockStamp holds pyLockSum once pip has installed the locked set into the venv.
func (l Layout) lockStamp() string { return filepath.Join(l.venv(), ".pylock") }

// venvPinned reports whether the venv holds the set the lock files name.
func (l Layout) venvPinned() bool {
	b, err := os.ReadFile(l.lockStamp())
	return err == nil && string(b) == pyLockSum()
}

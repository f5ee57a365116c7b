package state

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// afterLink runs in moveAside between the backup's link and the removal of path; tests
// set it to act at that moment.
var afterLink = func() {}

// moveAside moves path to the first numbered backup beside it that does not exist yet,
// path.1.bak, path.2.bak, …, one past the highest there, so every earlier set of
// answers stays on disk. It never replaces a file: the backup is a new link to the
// saved file, made only if its name is free, before the saved name is removed.
func moveAside(path string) (string, error) {
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	for n := nextBackup(path); ; n++ {
		bak := fmt.Sprintf("%s.%d.bak", path, n)
		err := os.Link(path, bak)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if errors.Is(err, os.ErrNotExist) {
			return "", nil
		}
		if err != nil {
			// A file system without hard links: rename, the name checked free first.
			if _, serr := os.Lstat(bak); serr == nil {
				continue
			}
			if rerr := os.Rename(path, bak); rerr != nil {
				return "", rerr
			}
			return bak, nil
		}
		afterLink()
		if err := os.Remove(path); err != nil {
			os.Remove(bak)
			return "", err
		}
		return bak, nil
	}
}

// nextBackup is one past the highest N of the path.N.bak files there are.
func nextBackup(path string) int {
	baks, _ := filepath.Glob(path + ".*.bak")
	n := 0
	for _, b := range baks {
		mid := strings.TrimSuffix(strings.TrimPrefix(b, path+"."), ".bak")
		if k, err := strconv.Atoi(mid); err == nil && k > n {
			n = k
		}
	}
	return n + 1
}

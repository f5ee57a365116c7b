package flinklab

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/labtui/labtui/compose"
)

// findComposeFile looks for compose/docker-compose.yml beside a labs folder in dir or
// the nearest of its parents (the labtui checkout the compose file mounts labs/ from),
// and returns its path relative to dir, as docker run in dir is given it. An empty dir
// means the working directory.
func findComposeFile(dir string) (string, error) {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("find the compose file: %w", err)
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("find the compose file: %w", err)
	}
	for d := abs; ; d = filepath.Dir(d) {
		file := filepath.Join(d, "compose", compose.File)
		if isFile(file) && isDir(filepath.Join(d, "labs")) {
			if rel, err := filepath.Rel(abs, file); err == nil {
				return rel, nil
			}
			return file, nil
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return "", fmt.Errorf("no compose/%s in %s or its parents: run labtui from the labtui checkout, or set compose-file (LABTUI_COMPOSE_FILE) to its path", compose.File, abs)
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

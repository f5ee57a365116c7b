package localcluster

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Options are what every part of the cluster shares: where the install is, where a run
// writes, which java runs the JVMs, and where commands are announced.
type Options struct {
	// Layout is the install (see Install).
	Layout Layout
	// RunDir is the folder of this run: configuration, data, logs. Default: a new
	// folder under Layout.Cache/runs, locked while this process lives; making one removes
	// the folders of finished runs beyond the newest five.
	RunDir string
	// JavaHome is the JDK the JVMs run on; default $JAVA_HOME, else the one the java on
	// PATH belongs to.
	JavaHome string
	// Logf receives each command line before it runs, and each change of state; nil
	// discards them.
	Logf func(format string, args ...any)
}

func (o *Options) logf(format string, args ...any) {
	if o.Logf != nil {
		o.Logf(format, args...)
	}
}

// withDefaults fills JavaHome and RunDir, creating the run folder.
func (o Options) withDefaults() (Options, error) {
	if o.JavaHome == "" {
		home, err := findJavaHome()
		if err != nil {
			return o, err
		}
		o.JavaHome = home
	}
	if o.RunDir == "" {
		dir, err := newRunDir(filepath.Join(o.Layout.Cache, "runs"), o.Logf)
		if err != nil {
			return o, err
		}
		o.RunDir = dir
	}
	if err := os.MkdirAll(o.tmpDir(), 0o755); err != nil {
		return o, fmt.Errorf("create the run folder: %w", err)
	}
	return o, nil
}

// tmpDir is the run's folder of temporary files: $TMPDIR and java.io.tmpdir of every
// process of the run, and Flink's io.tmp.dirs. Cluster.Stop removes it, and so does the
// next run for a run that died (see pruneRuns).
func (o *Options) tmpDir() string { return filepath.Join(o.RunDir, tmpName) }

// tmpName is the name of a run's folder of temporary files.
const tmpName = "tmp"

// withTmp adds $TMPDIR, the run's folder of temporary files, to c's environment when
// there is a run folder.
func (o *Options) withTmp(c command) command {
	if o.RunDir == "" {
		return c
	}
	c.Env = append(append([]string(nil), c.Env...), "TMPDIR="+o.tmpDir())
	return c
}

// java is the java executable of JavaHome.
func (o *Options) java() string { return filepath.Join(o.JavaHome, "bin", "java") }

// findJavaHome returns $JAVA_HOME, else the JDK folder of the java found on PATH
// (following its links, as the conformance scripts do).
func findJavaHome() (string, error) {
	if h := os.Getenv("JAVA_HOME"); h != "" {
		return h, nil
	}
	java, err := exec.LookPath("java")
	if err != nil {
		return "", fmt.Errorf("no java on PATH and JAVA_HOME is not set: install a JDK 17 or later (Debian and Ubuntu: sudo apt-get install openjdk-17-jdk-headless)")
	}
	real, err := filepath.EvalSymlinks(java)
	if err != nil {
		return "", fmt.Errorf("find the JDK of %s: %w", java, err)
	}
	return filepath.Dir(filepath.Dir(real)), nil
}

package localcluster

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"

	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// artifact is one jar in a Maven repository.
type artifact struct {
	path   string
	size   int64
	sha256 string
}

// mavenCentral is where Install fetches the jars.
const mavenCentral = "https://repo1.maven.org/maven2"

// Estimates of an install from nothing, measured here (2 busy cores, a fast connection,
// PIP_NO_CACHE_DIR=1): pip downloaded 485 MB (60 files) and made a venv of 836 MB in
// 77 s; the 54 jars came from Maven Central in under a second. On a slower connection
// the download dominates.
const (
	venvDiskBytes      = 836_000_000
	pipDownloadBytes   = 485_000_000
	pipEstimate        = 80 * time.Second
	jarsEstimate       = 5 * time.Second
	pythonJarEstimate  = 10 * time.Second
	pinEstimate        = 15 * time.Second
	pythonJarDiskBytes = 43_000_000
	installDiskMargin  = 200 << 20
)

// Plan is what an install still has to do.
type Plan struct {
	// Venv says the venv with apache-flink is missing; Pin says the venv is there but
	// its packages are not (or not known to be) the locked set of pylock.go, which pip
	// then installs into it in place; Jars lists the jars missing;
	// PythonJar says labtui's copy of flink-python's jar is to be built (pythonjar.go).
	Venv      bool
	Pin       bool
	Jars      []artifact
	PythonJar bool
	// Download is how many bytes the install downloads (the venv's part estimated),
	// Disk how much room it needs, Time how long it should take.
	Download, Disk int64
	Time           time.Duration
}

// Done reports whether nothing is left to install.
func (p Plan) Done() bool { return !p.Venv && !p.Pin && len(p.Jars) == 0 && !p.PythonJar }

// String describes the plan in one sentence, sizes and time included.
func (p Plan) String() string {
	if p.Done() {
		return "everything is installed: nothing to download"
	}
	var download, local []string
	if p.Venv {
		download = append(download, fmt.Sprintf("apache-flink==%s and its pinned Python dependencies with pip (about %s)", FlinkVersion, mib(pipDownloadBytes)))
	}
	if len(p.Jars) > 0 {
		var n int64
		for _, a := range p.Jars {
			n += a.size
		}
		download = append(download, fmt.Sprintf("%d jars from Maven Central (%s)", len(p.Jars), mib(n)))
	}
	if p.Pin {
		local = append(local, "check the venv's Python packages against the pinned set with pip (it downloads only what differs)")
	}
	if p.PythonJar {
		local = append(local, "build labtui's copy of flink-python's jar (javac)")
	}
	var s []string
	if len(download) > 0 {
		s = append(s, fmt.Sprintf("to download: %s; about %s in all", strings.Join(download, " and "), mib(p.Download)))
	}
	if len(local) > 0 {
		s = append(s, "to do: "+strings.Join(local, " and "))
	}
	return fmt.Sprintf("%s; %s of disk, about %s on a fast connection", strings.Join(s, "; "), mib(p.Disk), p.Time.Round(10*time.Second))
}

// mib renders a byte count in MiB.
func mib(n int64) string { return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20)) }

// Plan looks at the cache and says what Install would do.
func (l Layout) Plan() Plan {
	var p Plan
	if _, err := os.Stat(l.venvStamp()); err != nil || l.flinkHome() == "" {
		p.Venv = true
		p.Download += pipDownloadBytes
		p.Disk += venvDiskBytes
		p.Time += pipEstimate
	} else if !l.venvPinned() {
		p.Pin = true
		p.Time += pinEstimate
	}
	for _, j := range l.jars() {
		if st, err := os.Stat(j.dest); err != nil || st.Size() != j.size {
			p.Jars = append(p.Jars, j.artifact)
			p.Download += j.size
			p.Disk += j.size
		}
	}
	if len(p.Jars) > 0 {
		p.Time += jarsEstimate
	}
	if p.Venv || !l.pythonJarBuilt() {
		p.PythonJar = true
		p.Disk += pythonJarDiskBytes
		p.Time += pythonJarEstimate
	}
	if !p.Done() {
		p.Disk += installDiskMargin
	}
	return p
}

// placedJar is an artifact with the file it is installed as.
type placedJar struct {
	artifact
	dest string
}

// jars lists every jar of the install with where it goes.
func (l Layout) jars() []placedJar {
	js := []placedJar{{connectorJar, l.connectorJar()}}
	for _, a := range brokerJars {
		js = append(js, placedJar{a, filepath.Join(l.kafkaLibs(), path.Base(a.path))})
	}
	return js
}

// Progress is how far an install has come.
type Progress struct {
	// Step is "venv", "flink-python" or "jars".
	Step string
	// Done and Total are bytes downloaded and expected (Total estimated for the venv),
	// or, for flink-python, the bytes of the jar built.
	Done, Total int64
	// Line is what the step just did, for a log: a pip line, a jar fetched.
	Line string
	// Elapsed is the time since the install began.
	Elapsed time.Duration
}

// InstallOptions configure Install.
type InstallOptions struct {
	// Python is the interpreter the venv is made from; default python3 on PATH.
	Python string
	// Progress receives progress, from the goroutine running Install; nil discards it.
	Progress func(Progress)
	// Logf receives each command before it runs; nil discards them.
	Logf func(format string, args ...any)
	// HTTP fetches the jars; default a client without a total timeout.
	HTTP *http.Client
	// Repository is the Maven repository's base URL; default MavenCentral.
	Repository string
}

// Install makes whatever the plan says is missing, and nothing else: the venv
// (`python3 -m venv`, then `pip install apache-flink==2.2.1`), then the jars, each
// fetched from Maven Central and checked against its pinned size and SHA-256. Each part
// leaves the stamp file the conformance scripts' env.sh leaves, so either finds the
// other's install complete, and a second Install downloads nothing. One Install runs at
// a time per cache folder (a lock file); a half-made venv is made again.
func Install(ctx context.Context, l Layout, o InstallOptions) error {
	if err := os.MkdirAll(l.Cache, 0o755); err != nil {
		return fmt.Errorf("create the cache folder: %w", err)
	}
	if _, err := os.Stat(filepath.Join(l.Cache, ".gitignore")); err != nil {
		os.WriteFile(filepath.Join(l.Cache, ".gitignore"), []byte("*\n"), 0o644)
	}
	unlock, err := lockFile(filepath.Join(l.Cache, ".install.lock"))
	if err != nil {
		return err
	}
	defer unlock()
	began := time.Now()
	progress := func(p Progress) {
		if o.Progress != nil {
			p.Elapsed = time.Since(began)
			o.Progress(p)
		}
	}
	plan := l.Plan()
	if plan.Venv || plan.Pin {
		if err := installVenv(ctx, l, o, plan.Venv, progress); err != nil {
			return err
		}
	}
	if plan.PythonJar {
		javaHome, err := findJavaHome()
		if err != nil {
			return err
		}
		if err := buildPythonJar(ctx, l, javaHome, o.Logf); err != nil {
			return err
		}
		var size int64 // the bytes written, as the other steps count theirs
		if st, err := os.Stat(l.pythonJar()); err == nil {
			size = st.Size()
		}
		progress(Progress{Step: "flink-python", Done: size, Total: size, Line: "built " + l.pythonJar()})
	}
	if err := installJars(ctx, l, o, plan.Jars, progress); err != nil {
		return err
	}
	if err := os.WriteFile(l.jarsStamp(), nil, 0o644); err != nil {
		return fmt.Errorf("write the jars' stamp: %w", err)
	}
	return nil
}

// lockFile takes an exclusive lock on path, waiting for another install to finish.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock the cache: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock the cache: %w", err)
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

// pipDownload matches pip's "  Downloading apache_flink-2.2.1-….whl (9.6 MB)".
var pipDownload = regexp.MustCompile(`Downloading \S+ \(([0-9.]+) (kB|MB|GB)\)`)

// installVenv installs the locked Python packages (pylock.go) into the venv, made afresh
// when fresh is set, else the one there (pip then changes only what differs from the
// lock). The build tools come first, then apache-flink and its dependencies, each pip
// with --require-hashes.
func installVenv(ctx context.Context, l Layout, o InstallOptions, fresh bool, progress func(Progress)) error {
	py := o.Python
	if py == "" {
		py = "python3"
	}
	opts := Options{Logf: o.Logf}
	if fresh {
		if err := os.RemoveAll(l.venv()); err != nil {
			return fmt.Errorf("remove the half-made venv: %w", err)
		}
		if _, err := opts.run(ctx, command{Path: py, Args: []string{"-m", "venv", l.venv()}}); err != nil {
			return fmt.Errorf("create the venv (Debian and Ubuntu need the python3-venv package): %w", err)
		}
	}
	os.Remove(l.lockStamp())
	reqs, build := filepath.Join(l.venv(), "requirements.txt"), filepath.Join(l.venv(), "build-requirements.txt")
	if err := os.WriteFile(reqs, pyRequirements, 0o644); err != nil {
		return fmt.Errorf("write the venv's pinned requirements: %w", err)
	}
	if err := os.WriteFile(build, pyBuildRequirements, 0o644); err != nil {
		return fmt.Errorf("write the venv's pinned requirements: %w", err)
	}
	pip := []string{"-m", "pip", "install", "--disable-pip-version-check", "--progress-bar", "off", "--require-hashes"}
	if _, err := opts.run(ctx, command{Path: l.python(), Args: append(pip, "-r", build)}); err != nil {
		return fmt.Errorf("pip install the pinned build tools: %w", err)
	}
	c := command{Path: l.python(), Args: append(pip, "--no-build-isolation", "-r", reqs)}
	opts.logf("$ %s", c.Line())
	cmd := c.cmd(ctx)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	waited := make(chan error, 1)
	go func() { waited <- opts.runGuarded(cmd); pw.Close() }()
	var done int64
	last := newLines(8)
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		s := strings.TrimSpace(sc.Text())
		last.add(s)
		if m := pipDownload.FindStringSubmatch(s); m != nil {
			done += pipBytes(m[1], m[2])
		}
		if strings.HasPrefix(s, "Collecting") || strings.HasPrefix(s, "Downloading") || strings.HasPrefix(s, "Installing") || strings.HasPrefix(s, "Successfully") {
			progress(Progress{Step: "venv", Done: min(done, pipDownloadBytes), Total: pipDownloadBytes, Line: s})
		}
	}
	io.Copy(io.Discard, pr)
	if err := <-waited; err != nil {
		return fmt.Errorf("pip install apache-flink==%s: %w:\n  %s", FlinkVersion, err, strings.Join(last.lines, "\n  "))
	}
	out, err := exec.CommandContext(ctx, l.python(), "-c", "import pyflink.version as v; print(v.__version__)").Output()
	if err != nil {
		return fmt.Errorf("pip installed apache-flink, but python cannot import pyflink: %w", err)
	}
	if err := os.WriteFile(l.venvStamp(), out, 0o644); err != nil {
		return fmt.Errorf("write the venv's stamp: %w", err)
	}
	if err := os.WriteFile(l.lockStamp(), []byte(pyLockSum()), 0o644); err != nil {
		return fmt.Errorf("write the venv's stamp: %w", err)
	}
	progress(Progress{Step: "venv", Done: pipDownloadBytes, Total: pipDownloadBytes, Line: "apache-flink " + strings.TrimSpace(string(out)) + " installed"})
	return nil
}

// pipBytes converts pip's "9.6 MB" to bytes (pip's units are powers of 1000).
func pipBytes(n, unit string) int64 {
	f, _ := strconv.ParseFloat(n, 64)
	switch unit {
	case "kB":
		f *= 1e3
	case "MB":
		f *= 1e6
	case "GB":
		f *= 1e9
	}
	return int64(f)
}

// installJars fetches each missing jar to a temporary file, checks its size and
// SHA-256, and renames it into place.
func installJars(ctx context.Context, l Layout, o InstallOptions, missing []artifact, progress func(Progress)) error {
	if len(missing) == 0 {
		return nil
	}
	repo := o.Repository
	if repo == "" {
		repo = mavenCentral
	}
	client := o.HTTP
	if client == nil {
		client = &http.Client{}
	}
	var total, done int64
	for _, a := range missing {
		total += a.size
	}
	dest := map[string]string{}
	for _, j := range l.jars() {
		dest[j.path] = j.dest
	}
	if o.Logf != nil {
		o.Logf("fetch %d jars (%s) from %s into %s and %s", len(missing), mib(total), repo, filepath.Dir(l.connectorJar()), l.kafkaLibs())
	}
	for _, a := range missing {
		if err := fetch(ctx, client, repo+"/"+a.path, dest[a.path], a, func(n int64) {
			progress(Progress{Step: "jars", Done: done + n, Total: total})
		}); err != nil {
			return err
		}
		done += a.size
		progress(Progress{Step: "jars", Done: done, Total: total, Line: path.Base(a.path)})
	}
	return nil
}

// fetch downloads url into dest through a temporary file beside it, calling got with
// the bytes read so far, and checks the artifact's size and hash before the rename.
func fetch(ctx context.Context, client *http.Client, url, dest string, a artifact, got func(int64)) error {
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("fetch %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("fetch %s: %s", url, resp.Status)
	}
	tmp, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	var n int64
	buf := make([]byte, 256<<10)
	for {
		k, rerr := resp.Body.Read(buf)
		if k > 0 {
			if _, err := tmp.Write(buf[:k]); err != nil {
				tmp.Close()
				return fmt.Errorf("write %s: %w", dest, err)
			}
			h.Write(buf[:k])
			n += int64(k)
			got(n)
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			tmp.Close()
			return fmt.Errorf("fetch %s: %w", url, rerr)
		}
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if sum := hex.EncodeToString(h.Sum(nil)); n != a.size || sum != a.sha256 {
		return fmt.Errorf("fetch %s: got %d bytes with SHA-256 %s, want %d bytes with %s", url, n, sum, a.size, a.sha256)
	}
	if err := os.Rename(tmp.Name(), dest); err != nil {
		return err
	}
	return nil
}

// lines keeps the last few lines a command wrote, for an error message.
type lines struct {
	lines []string
	max   int
}

func newLines(max int) *lines { return &lines{max: max} }

func (t *lines) add(s string) {
	if s == "" {
		return
	}
	if len(t.lines) == t.max {
		t.lines = append(t.lines[:0], t.lines[1:]...)
	}
	t.lines = append(t.lines, s)
}

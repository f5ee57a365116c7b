package flinklab

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The fake docker is this test binary, linked into a temporary directory as `docker`
// and found on PATH: TestMain sees the name it was run by and answers as docker would,
// from files in the directory named by fakeDirEnv. It records every invocation (its
// arguments exactly, one JSON array a line) in calls.jsonl. What it knows:
//
//	compose version                          Docker Compose version v2.29.7
//	info --format {{.ServerVersion}}         27.3.1, or the daemon's "Cannot connect" error when daemon-down exists
//	image inspect --format {{.Id}} IMAGE     an image id, as if every image were built
//	compose -p P -f F up … --build …         up.txt on stderr, as Compose writes its progress
//	compose -p P -f F logs -f …              taskmanager-N.log for the Nth call, once a job was
//	                                         submitted; then it exits when
//	                                         taskmanager-N.ends exists (the taskmanager died), else
//	                                         waits until tm-killed or tm-dead exists
//	compose -p P -f F exec -T -e FLINK_OPT_DIR=… jobmanager flink run …
//	                                         "Job has been submitted with JobID <jobid-N>", and writes submitted/<id>
//	compose -p P -f F ps --status running --quiet [taskmanager]
//	                                         a container id, none for the taskmanager when tm-killed or tm-dead exists,
//	                                         none for the project unless cluster-running exists
//	compose -p P -f F kill taskmanager       creates tm-killed
//	compose -p P -f F up -d --no-deps --wait taskmanager
//	                                         removes tm-killed and tm-dead
//	compose -p P -f F down --timeout 1      Compose's lines for taking the project down
const fakeDirEnv = "LABTUI_FAKE_DOCKER_DIR"

func fakeDocker(args []string) int {
	dir := os.Getenv(fakeDirEnv)
	if dir == "" {
		fmt.Fprintln(os.Stderr, "fake docker: "+fakeDirEnv+" is not set")
		return 2
	}
	record(dir, args)
	switch {
	case slices.Equal(args, []string{"compose", "version"}):
		fmt.Println("Docker Compose version v2.29.7")
		return 0
	case slices.Equal(args, []string{"info", "--format", "{{.ServerVersion}}"}):
		if exists(dir, "daemon-down") {
			fmt.Fprintln(os.Stderr, "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?")
			return 1
		}
		fmt.Println("27.3.1")
		return 0
	case len(args) == 5 && slices.Equal(args[:4], []string{"image", "inspect", "--format", "{{.Id}}"}):
		fmt.Println("sha256:0123")
		return 0
	}
	if len(args) < 6 || args[0] != "compose" || args[1] != "-p" || args[3] != "-f" {
		fmt.Fprintf(os.Stderr, "fake docker: unexpected %q\n", args)
		return 2
	}
	sub := args[5:]
	switch {
	case sub[0] == "up" && slices.Contains(sub, "--build"):
		b, _ := os.ReadFile(filepath.Join(dir, "up.txt"))
		os.Stderr.Write(b)
		return 0
	case sub[0] == "logs":
		n := count(dir, "logs")
		for !exists(dir, "submitted") { // a taskmanager prints nothing of a job not yet submitted
			if gone(dir) {
				return 1
			}
			time.Sleep(5 * time.Millisecond)
		}
		b, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("taskmanager-%d.log", n)))
		os.Stdout.Write(b)
		if exists(dir, fmt.Sprintf("taskmanager-%d.ends", n)) {
			return 0
		}
		for !exists(dir, "tm-killed") && !exists(dir, "tm-dead") {
			if gone(dir) {
				return 1
			}
			time.Sleep(5 * time.Millisecond)
		}
		return 0
	case sub[0] == "exec":
		n := count(dir, "exec")
		id, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("jobid-%d", n)))
		if err != nil {
			fmt.Fprintln(os.Stderr, "fake docker: no job id for submission", n)
			return 1
		}
		os.MkdirAll(filepath.Join(dir, "submitted"), 0o755)
		os.WriteFile(filepath.Join(dir, "submitted", strings.TrimSpace(string(id))), nil, 0o644)
		fmt.Printf("WARNING: Unknown job option\nJob has been submitted with JobID %s\n", strings.TrimSpace(string(id)))
		return 0
	case sub[0] == "ps":
		if slices.Contains(sub, "taskmanager") {
			if !exists(dir, "tm-killed") && !exists(dir, "tm-dead") {
				fmt.Println("3f9a0c7d1e2b")
			}
		} else if exists(dir, "cluster-running") {
			fmt.Println("3f9a0c7d1e2b\n8b1e4d2c9a0f")
		}
		return 0
	case slices.Equal(sub, []string{"kill", "taskmanager"}):
		os.WriteFile(filepath.Join(dir, "tm-killed"), nil, 0o644)
		fmt.Fprintln(os.Stderr, " Container labtui-lab4-taskmanager-1  Killing\n Container labtui-lab4-taskmanager-1  Killed")
		return 0
	case slices.Equal(sub, []string{"up", "-d", "--no-deps", "--wait", "taskmanager"}):
		os.Remove(filepath.Join(dir, "tm-killed"))
		os.Remove(filepath.Join(dir, "tm-dead"))
		fmt.Fprintln(os.Stderr, " Container labtui-lab4-taskmanager-1  Starting\n Container labtui-lab4-taskmanager-1  Started\n"+
			" Container labtui-lab4-taskmanager-1  Waiting\n Container labtui-lab4-taskmanager-1  Healthy")
		return 0
	case slices.Equal(sub, []string{"down", "--timeout", "1"}):
		os.WriteFile(filepath.Join(dir, "tm-killed"), nil, 0o644)
		fmt.Fprintln(os.Stderr, " Container labtui-lab4-taskmanager-1  Stopping\n Container labtui-lab4-taskmanager-1  Removed\n"+
			" Network labtui-lab4_default  Removing\n Network labtui-lab4_default  Removed")
		return 0
	}
	fmt.Fprintf(os.Stderr, "fake docker: unexpected %q\n", args)
	return 2
}

// record appends the invocation's arguments to calls.jsonl.
func record(dir string, args []string) {
	b, _ := json.Marshal(args)
	f, err := os.OpenFile(filepath.Join(dir, "calls.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	f.Write(append(b, '\n'))
}

// count returns how many times it was called for name, this call included.
func count(dir, name string) int {
	p := filepath.Join(dir, "count-"+name)
	b, _ := os.ReadFile(p)
	n, _ := strconv.Atoi(string(b))
	n++
	os.WriteFile(p, []byte(strconv.Itoa(n)), 0o644)
	return n
}

// gone says the test's folder was removed: the test that ran this fake has ended (a
// failed one may never have closed its lab), so a fake still following a log exits
// rather than outlive it.
func gone(dir string) bool {
	_, err := os.Stat(dir)
	return os.IsNotExist(err)
}

func exists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}

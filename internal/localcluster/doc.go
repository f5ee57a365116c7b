// Package localcluster runs the real Lab 4 cluster as child processes of labtui, without
// Docker: a single-node KRaft Kafka broker, and a Flink session cluster of one JobManager
// and one TaskManager from the Flink distribution inside the apache-flink wheel
// (bin/jobmanager.sh, bin/taskmanager.sh, bin/flink). Everything listens on 127.0.0.1.
//
// It starts, watches and stops those processes, submits the lab's PyFlink job with
// `flink run -d -py` and cancels it, follows the print sinks from the TaskManager's
// stdout file, and talks to Flink's REST API. It knows nothing of the lab's results: a
// backend reads the lines it hands over.
//
// Every command it runs is announced first, through the Logf of its Options, as the line
// a learner would type to run it by hand (environment assignments, then the program and
// its arguments, quoted for a POSIX shell). Each long-running process is the leader of a
// process group of its own, so stopping it stops its children too (the TaskManager's
// Python workers); the kernel kills it if labtui dies, and a watchdog process kills the
// rest of its group (watchdog.go), so nothing is left however labtui dies.
//
// What it installs (a venv with apache-flink, the Kafka connector jar, the broker's jars)
// lives in a cache folder with the layout of the conformance scripts' env.sh, so either
// can use what the other installed: see Layout and Install.
package localcluster

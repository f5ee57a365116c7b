package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	project "github.com/labtui/labtui/compose"
	"github.com/labtui/labtui/inject"
	clusterlab "github.com/labtui/labtui/internal/backend/clusterplatform"
	"github.com/labtui/labtui/internal/backend/flinklab"
	"github.com/labtui/labtui/internal/livejob"
	"github.com/labtui/labtui/internal/localcluster"
	"github.com/labtui/labtui/internal/recording"
)

func (a *app) clusterCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cluster",
		Short: "The real Kafka and Flink that labtui --backend cluster runs as processes",
		Args:  cobra.NoArgs,
	}
	var cache string
	install := &cobra.Command{
		Use:   "install",
		Short: "Install, once, what --backend cluster needs: apache-flink in a venv, the Kafka connector and broker jars",
		Long: "install makes, in the cluster cache (--cluster-cache, LABTUI_CLUSTER_CACHE, default\n" +
			"~/.cache/labtui/cluster), a venv with apache-flink==" + localcluster.FlinkVersion + " (whose wheel carries Flink's\n" +
			"distribution), and fetches the Kafka connector and Kafka " + localcluster.KafkaVersion + "'s jars from Maven Central,\n" +
			"each checked against its pinned SHA-256. It needs python3 (3.11) with venv and a JDK 17\n" +
			"or later to run the cluster, no Maven and no Docker. A second install downloads nothing.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runClusterInstall(cmd, cache) },
	}
	bindClusterCache(install.Flags(), &cache)
	cmd.AddCommand(a.command(install, &cache))
	return cmd
}

// clusterLayout is the install in dir, the cluster-cache option ("" for the default).
func clusterLayout(dir string) (localcluster.Layout, error) {
	if dir == "" {
		d, err := localcluster.DefaultCache()
		if err != nil {
			return localcluster.Layout{}, err
		}
		dir = d
	}
	return localcluster.Layout{Cache: dir}, nil
}

func (a *app) runClusterInstall(cmd *cobra.Command, cache string) error {
	l, err := clusterLayout(cache)
	if err != nil {
		return err
	}
	return installCluster(cmd, l, a.stdout)
}

// installCluster says what the install will download and how long it should take,
// installs with a progress display on w, and says how long it took.
func installCluster(cmd *cobra.Command, l localcluster.Layout, w io.Writer) error {
	plan := l.Plan()
	fmt.Fprintf(w, "cluster install in %s: %s\n", l.Cache, plan)
	if plan.Done() {
		return nil
	}
	bar := newInstallBar(w)
	began := time.Now()
	err := localcluster.Install(cmd.Context(), l, localcluster.InstallOptions{
		Progress: bar.show,
		Logf:     func(f string, args ...any) { bar.line(fmt.Sprintf(f, args...)) },
	})
	bar.end()
	if err != nil {
		return fmt.Errorf("cluster install: %w", err)
	}
	fmt.Fprintf(w, "installed in %s: labtui --backend cluster starts Kafka and Flink from it\n", time.Since(began).Round(100*time.Millisecond))
	return nil
}

// installBar shows an install's progress: on a terminal one line redrawn in place, a
// bar and the step's last line; elsewhere one line per step line, so a log keeps it.
type installBar struct {
	w        io.Writer
	terminal bool
	drawn    bool
}

func newInstallBar(w io.Writer) *installBar {
	b := &installBar{w: w}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			b.terminal = true
		}
	}
	return b
}

// show takes one progress report.
func (b *installBar) show(p localcluster.Progress) {
	pct := 0
	if p.Total > 0 {
		pct = int(100 * p.Done / p.Total)
	}
	head := fmt.Sprintf("%-4s %s %3d%% %5.1f/%.0f MiB %s", p.Step, bar(pct, 24), pct,
		float64(p.Done)/(1<<20), float64(p.Total)/(1<<20), p.Elapsed.Round(time.Second))
	if b.terminal {
		fmt.Fprintf(b.w, "\r\033[K%s %s", head, truncateRunes(p.Line, 60))
		b.drawn = true
		return
	}
	if p.Line != "" {
		fmt.Fprintf(b.w, "%s %s\n", head, p.Line)
	}
}

// line prints a command or message on a line of its own.
func (b *installBar) line(s string) {
	if b.drawn {
		fmt.Fprint(b.w, "\r\033[K")
		b.drawn = false
	}
	fmt.Fprintln(b.w, s)
}

// end leaves the last drawn line in place.
func (b *installBar) end() {
	if b.drawn {
		fmt.Fprintln(b.w)
	}
}

// bar draws pct percent of width cells.
func bar(pct, width int) string {
	n := min(max(pct, 0), 100) * width / 100
	return "[" + strings.Repeat("#", n) + strings.Repeat(".", width-n) + "]"
}

// truncateRunes shortens s to n runes with an ellipsis.
func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// addrs are --brokers and --flink, which --backend remote needs (their rules checked
// their form).
func (o remoteFlags) addrs() (brokers, flinkURL string, err error) {
	brokers, flinkURL = o.Brokers, o.Flink
	if brokers == "" || flinkURL == "" {
		return "", "", fmt.Errorf("--backend remote needs --brokers HOST:PORT (Kafka) and --flink URL (Flink's REST API), such as --brokers 127.0.0.1:9092 --flink http://127.0.0.1:8081")
	}
	return brokers, strings.TrimRight(flinkURL, "/"), nil
}

// clusterBackend builds the lab of --backend cluster (Kafka and Flink as processes of
// labtui) or remote (--brokers and --flink) from the settings, and runs its doctor's
// checks first, so a machine that cannot run it gets one message and nothing starts.
// lossless is for labtui run --headless, whose printed lines are the product.
func (a *app) clusterBackend(o *tuiOptions, lossless bool) (*flinklab.Lab, error) {
	cfg, err := a.labConfig(o.labOptions)
	if err != nil {
		return nil, err
	}
	layout, err := clusterLayout(o.ClusterCache)
	if err != nil {
		return nil, err
	}
	hiccups, err := inject.ParseHiccups(o.Faults.Hiccups)
	if err != nil {
		return nil, err
	}
	start := "earliest"
	if cfg.StartAt == livejob.Latest {
		start = "latest"
	}
	lab := flinklab.Config{Generator: cfg.Generator, Job: cfg.Job, StartAt: start, Hiccups: hiccups, Lossless: lossless}
	var l *flinklab.Lab
	if o.Backend == "cluster" {
		l, err = clusterlab.New(clusterlab.Config{Lab: lab, Layout: layout, RunDir: o.ClusterRunDir, Session: o.Remote.Session})
	} else {
		brokers, flinkURL, aerr := o.Remote.addrs()
		if aerr != nil {
			return nil, aerr
		}
		l, err = clusterlab.NewRemote(clusterlab.RemoteConfig{Lab: lab, Brokers: brokers, FlinkURL: flinkURL, Layout: layout, Session: o.Remote.Session})
	}
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := l.Preflight(ctx); err != nil {
		l.Close()
		return nil, exitError{code: 1, msg: err.Error()}
	}
	return l, nil
}

// topicRecorder writes every record of the lab's topic, as labtui's own consumer reads
// it (arrival = when it was read), in the recording format: the recording of a real
// lab, which labtui replay re-enacts.
type topicRecorder struct {
	cancel context.CancelFunc
	done   chan error
	path   string
}

// labTopic is the live topic of a real lab: the course's, or a remote session's own.
func labTopic(lab any) string {
	if t, ok := lab.(interface{ Topic() string }); ok {
		return t.Topic()
	}
	return project.Topic
}

// recordTopic starts reading the lab's topic on brokers from its first record into path,
// after the topic line with its partition count (a replay of the recording re-creates
// the topic, its partitions nobody writes to included).
func recordTopic(brokers, topic, path string) (*topicRecorder, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.ClientID("labtui-record"))
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", path, err)
	}
	meta, err := topicOf(cl, topic)
	if err != nil {
		cl.Close()
		return nil, fmt.Errorf("record %s: %w", path, err)
	}
	w, err := createRecording(path, meta)
	if err != nil {
		cl.Close()
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &topicRecorder{cancel: cancel, done: make(chan error, 1), path: path}
	go func() {
		var werr error
		for ctx.Err() == nil {
			fs := cl.PollFetches(ctx)
			arrival := time.Now().UnixMilli()
			fs.EachRecord(func(rec *kgo.Record) {
				if werr == nil {
					werr = w.Write(recording.Entry{Partition: rec.Partition, Offset: rec.Offset, Timestamp: rec.Timestamp.UnixMilli(),
						Arrival: arrival, Key: rec.Key, Value: rec.Value})
				}
			})
		}
		cl.Close()
		if err := w.Close(); werr == nil {
			werr = err
		}
		r.done <- werr
	}()
	return r, nil
}

// topicOf asks the cluster cl talks to how many partitions topic has.
func topicOf(cl *kgo.Client, topic string) (recording.Topic, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	topics, err := kadm.NewClient(cl).ListTopics(ctx, topic)
	if err == nil {
		if d, ok := topics[topic]; !ok {
			err = fmt.Errorf("topic %s does not exist", topic)
		} else if err = d.Err; err == nil {
			return recording.Topic{Name: topic, Partitions: int32(len(d.Partitions))}, nil
		}
	}
	return recording.Topic{}, fmt.Errorf("the partitions of topic %s: %w", topic, err)
}

// close stops the recorder and returns once the recording is complete on disk; a nil
// recorder does nothing.
func (r *topicRecorder) close() error {
	if r == nil {
		return nil
	}
	r.cancel()
	if err := <-r.done; err != nil {
		return fmt.Errorf("write %s: %w", r.path, err)
	}
	return nil
}

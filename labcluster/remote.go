package labcluster

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// maxStdout bounds what one poll of a TaskManager's stdout reads: 64 MiB.
const maxStdout = 64 << 20

// TaskManagerStdout returns the TaskManager's whole stdout file, GET
// /taskmanagers/:id/stdout: what its print sinks wrote, on a cluster whose TaskManagers
// write stdout to a file (a standalone cluster, or labtui's; the official Docker image
// sends it to the container's log instead, and the answer is then an error).
func (c *REST) TaskManagerStdout(ctx context.Context, id string) ([]byte, error) {
	path := "/taskmanagers/" + url.PathEscape(id) + "/stdout"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Base+path, nil)
	if err != nil {
		return nil, err
	}
	// The file can take longer than the API's usual 5 s to send.
	client := *c.http
	client.Timeout = 30 * time.Second
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("flink REST GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxStdout))
	if err != nil {
		return nil, fmt.Errorf("flink REST GET %s: %w", path, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("flink REST GET %s: %s: %s", path, resp.Status, firstLine(body))
	}
	return body, nil
}

// FollowRESTStdout hands each new line the cluster's TaskManagers write on stdout to
// line, polling GET /taskmanagers and each one's stdout every interval until ctx ends.
// What the TaskManagers that run when it starts have written already is not handed over:
// on a shared cluster it is earlier sessions' output, and the caller follows from before
// its job exists. A TaskManager that registers later is read from its first byte.
// It remembers how far it read each TaskManager's file, so a line is handed over once;
// a file that got shorter (its TaskManager started again under the same id) is read from
// its beginning. What a TaskManager wrote after the last poll before it died cannot be
// read any more; what else goes wrong is reported on problem, once until it works again.
func FollowRESTStdout(ctx context.Context, c *REST, interval time.Duration, line func(string), problem func(error)) {
	read := map[string]int{}
	failing, started := false, false
	for {
		var err error
		if started {
			err = pollStdout(ctx, c, read, line)
		} else if err = skipStdout(ctx, c, read); err == nil {
			started = true
		}
		switch {
		case err != nil && !failing && ctx.Err() == nil:
			problem(err)
			failing = true
		case err == nil:
			failing = false
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
	}
}

// skipStdout marks what each TaskManager has written so far as read, up to its last
// complete line.
func skipStdout(ctx context.Context, c *REST, read map[string]int) error {
	tms, err := c.TaskManagers(ctx)
	if err != nil {
		return err
	}
	for _, tm := range tms {
		body, err := c.TaskManagerStdout(ctx, tm.ID)
		if err != nil {
			return err
		}
		read[tm.ID] = strings.LastIndexByte(string(body), '\n') + 1
	}
	return nil
}

// pollStdout reads what is new in each TaskManager's stdout.
func pollStdout(ctx context.Context, c *REST, read map[string]int, line func(string)) error {
	tms, err := c.TaskManagers(ctx)
	if err != nil {
		return err
	}
	for _, tm := range tms {
		body, err := c.TaskManagerStdout(ctx, tm.ID)
		if err != nil {
			return err
		}
		from := read[tm.ID]
		if len(body) < from {
			from = 0
		}
		// Only complete lines: a line still being written waits for the next poll.
		end := strings.LastIndexByte(string(body[from:]), '\n')
		if end < 0 {
			continue
		}
		for _, l := range strings.Split(string(body[from:from+end]), "\n") {
			line(l)
		}
		read[tm.ID] = from + end + 1
	}
	return nil
}

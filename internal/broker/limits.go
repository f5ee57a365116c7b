package broker

import (
	"encoding/binary"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// maxRequestBytes is the largest request the broker reads, Kafka's
// socket.request.max.bytes default (104,857,600 bytes). A connection that announces a
// larger one (or a negative size) is closed before a byte of it is held, as Kafka
// closes it: kfake would allocate whatever the four bytes of a frame's size say, and
// an HTTP request to the port ("POST" read as a size is 1.35 GB) would be taken whole.
const maxRequestBytes = 100 << 20

// maxPartitions is the most partitions the broker creates over its life, in all its
// topics: the lab's topics have 3 each, a session's replays add a few each, and every
// partition costs memory that is never freed (about 470 bytes with kfake). A
// CreateTopics or CreatePartitions that would go beyond it is refused with
// INVALID_PARTITIONS and a message saying the bound.
const maxPartitions = 10_000

// frameCapListener hands out connections whose frames are checked against max.
type frameCapListener struct {
	net.Listener
	max     int32
	refused *atomic.Int64
}

func (l frameCapListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &frameCapConn{Conn: c, max: l.max, refused: l.refused}, nil
}

// frameCapConn follows the Kafka framing of what is read from it (a 4-byte big-endian
// size, then that many bytes) and fails the read that would hand over the size of a
// frame larger than max, closing the connection.
type frameCapConn struct {
	net.Conn
	max     int32
	refused *atomic.Int64

	mu   sync.Mutex
	head [4]byte
	// headN is how many bytes of the current frame's size have been read; left how many
	// of its body are still to come.
	headN int
	left  int64
	err   error
}

func (c *frameCapConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.Conn.Read(p)
	for i := 0; i < n; {
		if c.left > 0 {
			step := min(c.left, int64(n-i))
			c.left -= step
			i += int(step)
			continue
		}
		c.head[c.headN] = p[i]
		c.headN++
		i++
		if c.headN < 4 {
			continue
		}
		c.headN = 0
		size := int32(binary.BigEndian.Uint32(c.head[:]))
		if size < 0 || size > c.max {
			c.refused.Add(1)
			slog.Warn("embedded broker: closed a connection whose request is larger than socket.request.max.bytes",
				"remote", c.Conn.RemoteAddr().String(), "size", uint32(size), "max", c.max)
			c.err = fmt.Errorf("request of %d bytes is larger than socket.request.max.bytes (%d)", uint32(size), c.max)
			c.Conn.Close()
			return 0, c.err
		}
		c.left = int64(size)
	}
	return n, err
}

// partitionGuard refuses topic and partition creation beyond MaxPartitions in all.
type partitionGuard struct {
	cluster *kfake.Cluster
	max     int64
	// made counts the partitions the broker was let create: an upper bound, since a
	// request let through may still fail.
	made int64
}

// install adds the guard's control functions to the cluster; seeded is the count of
// partitions the cluster started with.
func (g *partitionGuard) install(seeded int) {
	g.made = int64(seeded)
	g.cluster.ControlKey(int16(kmsg.CreateTopics), g.createTopics)
	g.cluster.ControlKey(int16(kmsg.CreatePartitions), g.createPartitions)
}

// refusal is the message of a refused creation.
func (g *partitionGuard) refusal(asked int64) string {
	return fmt.Sprintf("the embedded broker creates at most %d partitions in all (it has made %d); this asks for %d more", g.max, g.made, asked)
}

func (g *partitionGuard) createTopics(kreq kmsg.Request) (kmsg.Response, error, bool) {
	g.cluster.KeepControl()
	req := kreq.(*kmsg.CreateTopicsRequest)
	var asked int64
	for _, t := range req.Topics {
		switch {
		case len(t.ReplicaAssignment) > 0:
			asked += int64(len(t.ReplicaAssignment))
		case t.NumPartitions > 0:
			asked += int64(t.NumPartitions)
		default:
			asked++ // the broker's default partition count, 1 in kfake
		}
	}
	if g.made+asked <= g.max {
		g.made += asked
		return nil, nil, false
	}
	resp := req.ResponseKind().(*kmsg.CreateTopicsResponse)
	msg := g.refusal(asked)
	for _, t := range req.Topics {
		rt := kmsg.NewCreateTopicsResponseTopic()
		rt.Topic = t.Topic
		rt.ErrorCode = kerr.InvalidPartitions.Code
		rt.ErrorMessage = &msg
		resp.Topics = append(resp.Topics, rt)
	}
	return resp, nil, true
}

func (g *partitionGuard) createPartitions(kreq kmsg.Request) (kmsg.Response, error, bool) {
	g.cluster.KeepControl()
	req := kreq.(*kmsg.CreatePartitionsRequest)
	var asked int64
	for _, t := range req.Topics {
		asked += int64(max(t.Count, 0)) // the new total: at most this many more
	}
	if g.made+asked <= g.max {
		g.made += asked
		return nil, nil, false
	}
	resp := req.ResponseKind().(*kmsg.CreatePartitionsResponse)
	msg := g.refusal(asked)
	for _, t := range req.Topics {
		rt := kmsg.NewCreatePartitionsResponseTopic()
		rt.Topic = t.Topic
		rt.ErrorCode = kerr.InvalidPartitions.Code
		rt.ErrorMessage = &msg
		resp.Topics = append(resp.Topics, rt)
	}
	return resp, nil, true
}

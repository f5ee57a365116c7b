package localcluster

import (
	"fmt"
	"net"
	"strconv"
)

// Host is the only address the cluster listens on.
const Host = "127.0.0.1"

// pickPort returns want when it can be bound on Host, else a free port the kernel picks.
// The port is free when pickPort returns; the process given it binds it a moment later.
func pickPort(want int) (int, error) {
	if want > 0 {
		if l, err := net.Listen("tcp", net.JoinHostPort(Host, strconv.Itoa(want))); err == nil {
			l.Close()
			return want, nil
		}
	}
	l, err := net.Listen("tcp", net.JoinHostPort(Host, "0"))
	if err != nil {
		return 0, fmt.Errorf("find a free port on %s: %w", Host, err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// portFree reports whether port can be bound on Host now.
func portFree(port int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort(Host, strconv.Itoa(port)))
	if err != nil {
		return false
	}
	l.Close()
	return true
}

// hostPort is Host:port.
func hostPort(port int) string { return net.JoinHostPort(Host, strconv.Itoa(port)) }

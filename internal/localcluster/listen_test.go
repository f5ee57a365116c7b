package localcluster

import (
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// listeners returns the local address of every TCP socket listening in a process of the
// groups pgids, as "ip:port (pid N)", read from /proc as ss -ltnp does.
func listeners(pgids []int) ([]string, error) {
	inodes := map[string]string{} // socket inode -> address
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			fs := strings.Fields(line)
			if len(fs) < 10 || fs[3] != "0A" { // 0A: LISTEN
				continue
			}
			addr, err := procAddr(fs[1])
			if err != nil {
				return nil, err
			}
			inodes[fs[9]] = addr
		}
	}
	in := map[int]bool{}
	for _, g := range pgids {
		in[g] = true
	}
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		stat, err := os.ReadFile(filepath.Join(p, "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …: comm may hold spaces, so count from its ')'.
		rest := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(rest) < 3 {
			continue
		}
		if g, _ := strconv.Atoi(rest[2]); !in[g] {
			continue
		}
		fds, _ := os.ReadDir(filepath.Join(p, "fd"))
		for _, fd := range fds {
			link, err := os.Readlink(filepath.Join(p, "fd", fd.Name()))
			if err != nil || !strings.HasPrefix(link, "socket:[") {
				continue
			}
			if addr, ok := inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")]; ok {
				out = append(out, fmt.Sprintf("%s (pid %s)", addr, filepath.Base(p)))
			}
		}
	}
	return out, nil
}

// procAddr decodes /proc/net/tcp's "0100007F:1F90" (IPv4 little-endian words) into
// "127.0.0.1:8080".
func procAddr(s string) (string, error) {
	h, p, ok := strings.Cut(s, ":")
	if !ok {
		return "", fmt.Errorf("bad address %q", s)
	}
	raw, err := hex.DecodeString(h)
	if err != nil {
		return "", err
	}
	for i := 0; i+4 <= len(raw); i += 4 {
		raw[i], raw[i+1], raw[i+2], raw[i+3] = raw[i+3], raw[i+2], raw[i+1], raw[i]
	}
	port, err := strconv.ParseUint(p, 16, 16)
	if err != nil {
		return "", err
	}
	return net.JoinHostPort(net.IP(raw).String(), strconv.Itoa(int(port))), nil
}

// loopbackOnly reports whether addr ("ip:port (pid N)") is on a loopback address.
func loopbackOnly(addr string) bool {
	host, _, err := net.SplitHostPort(strings.Fields(addr)[0])
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

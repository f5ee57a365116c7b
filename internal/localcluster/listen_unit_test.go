package localcluster

import (
	"net"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Given listeners of this process on loopback and on every interface, listeners finds
// both with their ports, and loopbackOnly tells them apart.
func TestListenersFindsEachListeningSocketOfAGroup(t *testing.T) {
	lo, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer lo.Close()
	all, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	defer all.Close()
	got, err := listeners([]int{syscall.Getpgrp()})
	if err != nil {
		t.Fatal(err)
	}
	find := func(l net.Listener) (string, bool) {
		port := ":" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port) + " "
		for _, a := range got {
			if strings.Contains(a, port) {
				return a, true
			}
		}
		return "", false
	}
	if a, ok := find(lo); !ok || !loopbackOnly(a) {
		t.Errorf("the loopback listener %s: found %q (%v) in %q", lo.Addr(), a, ok, got)
	}
	if a, ok := find(all); !ok || loopbackOnly(a) {
		t.Errorf("the every-interface listener %s: found %q (%v) in %q", all.Addr(), a, ok, got)
	}
}

package textutil

import "testing"

func TestWrapBreaksAtSpacesOnly(t *testing.T) {
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{
		{"start labtui with --broker-addr 127.0.0.1:<port>", 24, "start labtui with\n--broker-addr\n127.0.0.1:<port>"},
		{"one two\nthree", 20, "one two\nthree"},
		{"abcdefghij kl", 4, "abcd\nefgh\nij\nkl"},
		{"", 10, ""},
	} {
		if got := Wrap(c.in, c.w); got != c.want {
			t.Errorf("Wrap(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
	}
}

package labcluster

import (
	"encoding/base64"
	"testing"
)

// TestClusterIDNeverStartsWithDash draws enough ids that, were one in 64 allowed to begin
// with '-' (which kafka-storage format reads as a missing --cluster-id value), the test
// would see one with near certainty; every id must also decode to Kafka's 16 bytes.
func TestClusterIDNeverStartsWithDash(t *testing.T) {
	for i := 0; i < 5000; i++ {
		id := clusterID()
		if id[0] == '-' {
			t.Fatalf("cluster id %q begins with '-'", id)
		}
		b, err := base64.RawURLEncoding.DecodeString(id)
		if err != nil || len(b) != 16 {
			t.Fatalf("cluster id %q: %d bytes, %v; want 16", id, len(b), err)
		}
	}
}

package kit

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

// TestClientAddress: X-Forwarded-For counts only when the peer is a
// trusted proxy, and then the right-most untrusted hop is the client, so a
// client cannot pick its own bucket by writing the header.
func TestClientAddress(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	for _, tt := range []struct {
		peer, xff string
		trusted   []netip.Prefix
		want      string
	}{
		{"203.0.113.9:5000", "", nil, "203.0.113.9"},
		{"203.0.113.9:5000", "198.51.100.1", nil, "203.0.113.9"},             // no trusted proxies: header ignored
		{"203.0.113.9:5000", "198.51.100.1", proxies, "203.0.113.9"},         // the peer is not a proxy
		{"10.1.2.3:5000", "198.51.100.1", proxies, "198.51.100.1"},           // through one proxy
		{"10.1.2.3:5000", "1.1.1.1, 198.51.100.1", proxies, "198.51.100.1"},  // the client's own claim is left of the real hop
		{"10.1.2.3:5000", "198.51.100.1, 10.9.9.9", proxies, "198.51.100.1"}, // two proxies
		{"10.1.2.3:5000", "", proxies, "10.1.2.3"},
		{"10.1.2.3:5000", "198.51.100.1, garbage", proxies, "10.1.2.3"},
		{"[::1]:5000", "2001:db8::7", proxies, "2001:db8::7"},
	} {
		r := httptest.NewRequest("POST", "/api/v1/runs", nil)
		r.RemoteAddr = tt.peer
		if tt.xff != "" {
			r.Header.Set("X-Forwarded-For", tt.xff)
		}
		if got := ClientAddress(r, tt.trusted); got != tt.want {
			t.Errorf("peer %s, X-Forwarded-For %q, trusted %v: %s, want %s", tt.peer, tt.xff, tt.trusted, got, tt.want)
		}
	}
}

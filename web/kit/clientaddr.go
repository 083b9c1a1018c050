package kit

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ClientAddress is the address a request came from, as the upload limits
// count it. Behind a reverse proxy every request comes from the proxy, so
// when the peer is one of the trusted proxies the client is read from
// X-Forwarded-For: the right-most address that is not itself a trusted
// proxy (addresses further left were written by the client and can be
// anything). Without trusted proxies the header is ignored, since anyone
// can send it.
func ClientAddress(r *http.Request, trusted []netip.Prefix) string {
	host := r.RemoteAddr
	if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		host = h
	}
	peer, err := netip.ParseAddr(host)
	if err != nil || !inPrefixes(peer, trusted) {
		return host
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		addr, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break // a garbled hop: trust nothing to its left
		}
		if !inPrefixes(addr.Unmap(), trusted) {
			return addr.Unmap().String()
		}
	}
	return host
}

func inPrefixes(a netip.Addr, prefixes []netip.Prefix) bool {
	a = a.Unmap()
	for _, p := range prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

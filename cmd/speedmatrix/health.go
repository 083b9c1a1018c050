package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"
)

// healthTimeout bounds `speedmatrix health`: above /readyz's own two
// seconds for the database, below the image's HEALTHCHECK timeout of
// three, so a slow database reads as "not ready" rather than a hung check.
const healthTimeout = 2500 * time.Millisecond

// healthCommand is `speedmatrix health`: it asks the server that this
// configuration serves (ADDR) for /readyz and exits 0 when the answer is
// 200, 1 with the reason otherwise. The image's HEALTHCHECK runs it, since
// the slim image has no curl, and `version` said nothing about whether
// the site answers.
func healthCommand(ctx context.Context, cfg config, stdout, stderr io.Writer) int {
	u := readyURL(cfg.Addr)
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		fmt.Fprintln(stderr, "speedmatrix: health:", err)
		return 1
	}
	// The server is on this machine: no proxy from the environment.
	client := &http.Client{Transport: &http.Transport{Proxy: nil}}
	resp, err := client.Do(req)
	if err != nil {
		fmt.Fprintln(stderr, "speedmatrix: health:", err)
		return 1
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
	why := strings.TrimSpace(string(body))
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(stderr, "speedmatrix: health: %s answered %s: %s\n", u, resp.Status, why)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %s\n", u, why)
	return 0
}

// readyURL is the /readyz address of a server listening on addr: a
// listener on every interface (0.0.0.0, [::] or no host) is asked on
// 127.0.0.1.
func readyURL(addr string) string {
	host, port, _ := net.SplitHostPort(addr)
	if ip, err := netip.ParseAddr(host); host == "" || (err == nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/readyz"
}

// Command uploadload posts distinct copies of a result file to a running
// speedmatrix from several clients at once and counts the answers: the
// load that showed two uploads sharing new identities could deadlock.
//
//	go run ./scripts/uploadload -url http://127.0.0.1:18080 -clients 4 -uploads 400 \
//	    -file internal/demo/runs/seed-rtx3060.bench.json -new-identity-every 8
//
// Each copy differs in one number of the document (so each is a new run);
// with -new-identity-every N, every N consecutive copies also name a GPU,
// engine version and model no run had before, so concurrent uploads race
// to create the same identities. It prints the count of each status and
// exits 1 when any answer was not 201. Loopback only.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"sort"
	"sync"
	"time"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:18080", "the site's origin (loopback only)")
	clients := flag.Int("clients", 4, "clients posting at once")
	uploads := flag.Int("uploads", 400, "uploads per client")
	file := flag.String("file", "internal/demo/runs/seed-rtx3060.bench.json", "the document to copy")
	every := flag.Int("new-identity-every", 0, "name new identities every N copies (0: never)")
	flag.Parse()
	if u, err := url.Parse(*base); err != nil || (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost") {
		fmt.Fprintln(os.Stderr, "uploadload: only loopback origins")
		os.Exit(2)
	}
	doc, err := os.ReadFile(*file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "uploadload:", err)
		os.Exit(2)
	}
	// A number every llm-inference-bench document has, made unique per copy.
	number := regexp.MustCompile(`"aggregate_tps": [0-9.]+`)
	if !number.Match(doc) {
		fmt.Fprintln(os.Stderr, "uploadload: the document has no aggregate_tps to vary")
		os.Exit(2)
	}
	stamp := time.Now().UnixNano()
	var mu sync.Mutex
	counts := map[string]int{}
	start := time.Now()
	var wg sync.WaitGroup
	for c := range *clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range *uploads {
				n := c*(*uploads) + i
				body := number.ReplaceAll(doc, fmt.Appendf(nil, `"aggregate_tps": %d.%06d`, 1000+n, stamp%1000000))
				status := post(*base, body, identity(stamp, i, *every))
				mu.Lock()
				counts[status]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	total := (*clients) * (*uploads)
	fmt.Printf("%d uploads from %d clients in %.1f s (%.0f uploads/s)\n", total, *clients, elapsed.Seconds(), float64(total)/elapsed.Seconds())
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("  %s: %d\n", k, counts[k])
	}
	if counts["201"] != total {
		os.Exit(1)
	}
}

// identity is the metadata of a client's i-th upload: new names for every
// every uploads, shared by all clients, whose i-th uploads are in flight at
// about the same time.
func identity(stamp int64, i, every int) map[string]string {
	if every <= 0 {
		return nil
	}
	g := fmt.Sprintf("%d-%d", stamp%100000, i/every)
	return map[string]string{
		"gpu_name":       "Load GPU " + g,
		"engine_version": "0.0." + g,
		"model_id":       "load/model-" + g,
	}
}

func post(base string, doc []byte, fields map[string]string) string {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	part, _ := w.CreateFormFile("file", "benchmark_results.json")
	part.Write(doc)
	w.Close()
	resp, err := http.Post(base+"/api/v1/runs", w.FormDataContentType(), &body)
	if err != nil {
		return "error: " + err.Error()
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	if resp.StatusCode != http.StatusCreated {
		return fmt.Sprintf("%d %s", resp.StatusCode, bytes.TrimSpace(msg))
	}
	return "201"
}

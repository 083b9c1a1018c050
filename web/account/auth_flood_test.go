package account_test

import (
	"context"
	"net/http"
	"net/url"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// postForm sends a browser's form from any goroutine (Visitor.Do may only
// fail the test from the test's own) and returns the status and
// Retry-After.
func postForm(s *webtest.Site, path string, form url.Values) (status int, retryAfter string, err error) {
	req, err := http.NewRequest("POST", s.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Retry-After"), nil
}

// flood sends n forms at once, made by form(i), and counts the answers by
// status; every 429 and 503 must say when to come back.
func flood(t *testing.T, s *webtest.Site, path string, n int, form func(i int) url.Values) map[int]int {
	t.Helper()
	var mu sync.Mutex
	got := map[int]int{}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			status, wait, err := postForm(s, path, form(i))
			if err != nil {
				t.Error(err)
				return
			}
			if secs, _ := strconv.Atoi(wait); (status == 429 || status == 503) && secs <= 0 {
				t.Errorf("%s answered %d with Retry-After %q", path, status, wait)
			}
			mu.Lock()
			got[status]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return got
}

// heapPeak samples the bytes in heap objects (live or not yet swept) every
// millisecond until stop is called, which returns the most seen. A hash
// holds its 64 MiB for a hundred milliseconds or more, so none is missed.
func heapPeak() (stop func() uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	done, result := make(chan struct{}), make(chan uint64)
	go func() {
		var peak uint64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				result <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 { close(done); return <-result }
}

// serveHeapSettings runs the collector as serve does when GOGC and
// GOMEMLIMIT are unset (cmd/speedmatrix/serve_extra.go: a 64 MiB soft
// limit, GOGC 400) for the rest of the test.
func serveHeapSettings(t *testing.T) {
	prevGC, prevLimit := debug.SetGCPercent(400), debug.SetMemoryLimit(64<<20)
	t.Cleanup(func() { debug.SetGCPercent(prevGC); debug.SetMemoryLimit(prevLimit) })
	runtime.GC()
}

// TestPasswordFlood replays the attack on sign-in: 50 wrong passwords for
// one account at once. The limit (10 failures) is checked and counted in
// one step, so at most 10 passwords reach the hash and the rest are 429;
// no more hashes run at once than there are cores, so some of those 10
// may find every slot taken and answer 503 (their attempt is given back:
// no password was tried); and the heap stays far from the 3 GiB that 50
// simultaneous 64 MiB hashes took. Before, the limit was checked first
// and counted after the hash: all 50 were hashed at once and answered
// 401. TestLoginRateLimit checks the limit after the tenth failure.
func TestPasswordFlood(t *testing.T) {
	s := webtest.NewSite(t)
	webtest.NewVisitor(t, s).Signup("target", "target@example.com", webtest.Password)
	serveHeapSettings(t)
	before := accounts.Stats()
	stop := heapPeak()
	got := flood(t, s, "/login", 50, func(i int) url.Values {
		return url.Values{"email": {"target@example.com"}, "password": {"wrong password " + strconv.Itoa(i)}}
	})
	peak := stop()
	after := accounts.Stats()
	hashed := after.Computed - before.Computed
	t.Logf("answers %v; %d hashed, %d busy; at most %d at once; heap peak %d MiB",
		got, hashed, after.Busy-before.Busy, after.Peak, peak>>20)

	if hashed > 10 || got[401] > 10 {
		t.Errorf("%d passwords were hashed and %d answered 401; the limit is 10", hashed, got[401])
	}
	if uint64(got[401]) != hashed {
		t.Errorf("%d answers 401 for %d hashes: every hashed guess is a 401, and only those", got[401], hashed)
	}
	if got[401]+got[429]+got[503] != 50 || got[429] == 0 {
		t.Errorf("answers %v: want only 401, 429 (the limit) and 503 (every slot taken), some 429", got)
	}
	if after.Peak > after.Slots {
		t.Errorf("%d hashes ran at once, more than the %d slots", after.Peak, after.Slots)
	}
	if after.Slots != int64(runtime.GOMAXPROCS(0)) {
		t.Errorf("%d hashing slots for %d cores", after.Slots, runtime.GOMAXPROCS(0))
	}
	if peak > 300<<20 {
		t.Errorf("the heap reached %d MiB during the flood, want under 300 MiB", peak>>20)
	}
}

// TestSignupFlood: sign-ups from one client are counted before their
// password is hashed. Thirty at once against a limit of twenty: at most
// twenty are hashed, the others are refused with 429; once the budget is
// spent a sign-up is refused without hashing. Before, sign-up had no limit
// and hashed first.
func TestSignupFlood(t *testing.T) {
	s := webtest.NewSite(t)
	serveHeapSettings(t)
	before := accounts.Stats()
	got := flood(t, s, "/signup", 30, func(i int) url.Values {
		h := "flood" + strconv.Itoa(i)
		return url.Values{"handle": {h}, "email": {h + "@example.com"}, "password": {webtest.Password}}
	})
	hashed := accounts.Stats().Computed - before.Computed
	t.Logf("answers %v; %d hashed", got, hashed)
	if hashed > 20 || got[303] > 20 {
		t.Errorf("%d sign-ups hashed, %d accounts made; the limit is 20", hashed, got[303])
	}
	if got[429] < 10 || got[303]+got[429]+got[503] != 30 {
		t.Errorf("answers %v: want at least 10 refused with 429, the rest made (303) or busy (503)", got)
	}
	conn, err := pgx.Connect(context.Background(), s.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var accountsMade int
	if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM submitters WHERE handle LIKE 'flood%'`).Scan(&accountsMade); err != nil {
		t.Fatal(err)
	}
	if accountsMade != got[303] {
		t.Errorf("%d accounts in the database for %d sign-ups answered 303", accountsMade, got[303])
	}
	n := accounts.Stats().Computed
	v := webtest.NewVisitor(t, s)
	resp, body := v.Post("/signup?lang=en", url.Values{"handle": {"onemore"}, "email": {"onemore@example.com"}, "password": {webtest.Password}})
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" || !strings.Contains(body, "Too many accounts") {
		t.Errorf("a sign-up over the limit = %d, Retry-After %q; want 429 saying why", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if accounts.Stats().Computed != n {
		t.Error("a sign-up refused by the limit was hashed")
	}
}

// TestLinkTriesLimited: a client's tries of one-time links (a password
// reset, a sign-up or address confirmation) share one budget of 30 an
// hour, counted before the link is looked up or a password hashed.
func TestLinkTriesLimited(t *testing.T) {
	s := webtest.NewSite(t)
	v := webtest.NewVisitor(t, s)
	paths := []string{"/account/reset", "/signup/confirm", "/account/email/verify"}
	form := url.Values{"token": {"guessed"}, "password": {webtest.Password}}
	for i := range 30 {
		if resp, _ := v.Post(paths[i%3], form); resp.StatusCode != 404 {
			t.Fatalf("try %d (%s) = %d, want 404: the link is unknown", i+1, paths[i%3], resp.StatusCode)
		}
	}
	for _, p := range paths {
		resp, body := v.Post(p+"?lang=en", form)
		if secs, _ := strconv.Atoi(resp.Header.Get("Retry-After")); resp.StatusCode != 429 || secs <= 0 ||
			!strings.Contains(body, "Too many links") {
			t.Errorf("%s after 30 tries = %d, Retry-After %q; want 429 saying why", p, resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	}
}

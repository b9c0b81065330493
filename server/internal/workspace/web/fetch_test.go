package web

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestHTMLToMarkdownGolden(t *testing.T) {
	in, err := os.ReadFile("testdata/page.html")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Document(&Response{FinalURL: "https://widgets.example/api/", ContentType: "text/html", Body: in})
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		os.WriteFile("testdata/page.md.golden", []byte(got+"\n"), 0o644)
	}
	want, _ := os.ReadFile("testdata/page.md.golden")
	if got+"\n" != string(want) {
		t.Fatalf("markdown differs from the golden file (go test -update to accept):\n%s", got)
	}
	for _, must := range []string{"# Widget API", "**widget**", "```go\nw := NewWidget()", "| Option | Default |", "1. Install", "- fast",
		"[the guide](https://widgets.example/guide/start)", "Description: How to use the Widget API.", "Title: Widget API"} {
		if !strings.Contains(got, must) {
			t.Errorf("missing %q", must)
		}
	}
	for _, mustNot := range []string{"alert(1)", "color:red", "Log in", "Sidebar link", "Privacy", "Search", "document.write"} {
		if strings.Contains(got, mustNot) {
			t.Errorf("boilerplate %q kept", mustNot)
		}
	}
}

func TestDocumentPassThroughAndBinary(t *testing.T) {
	for _, ct := range []string{"text/plain", "application/json", "application/ld+json", "text/markdown"} {
		got, err := Document(&Response{ContentType: ct, Body: []byte(`{"a": "<b>1</b>"}`)})
		if err != nil || got != `{"a": "<b>1</b>"}` {
			t.Errorf("%s: got %q %v", ct, got, err)
		}
	}
	_, err := Document(&Response{ContentType: "image/png", Body: []byte{0x89, 'P', 'N', 'G'}})
	if err == nil || !strings.Contains(err.Error(), "image/png") {
		t.Fatalf("binary: want a refusal naming the type, got %v", err)
	}
}

func TestWindow(t *testing.T) {
	doc := strings.Repeat("é", 25)
	part, next, total := Window(doc, 0, 10)
	if part != strings.Repeat("é", 10) || next != 10 || total != 25 {
		t.Fatalf("first window: %q %d %d", part, next, total)
	}
	part, next, _ = Window(doc, 20, 10)
	if part != strings.Repeat("é", 5) || next != -1 {
		t.Fatalf("last window: %q %d", part, next)
	}
	if part, next, _ = Window(doc, 99, 10); part != "" || next != -1 {
		t.Fatalf("past the end: %q %d", part, next)
	}
	if part, _, _ = Window(strings.Repeat("x", HardMaxLength*2), 0, HardMaxLength*2); len(part) != HardMaxLength {
		t.Fatalf("hard cap not applied: %d", len(part))
	}
}

func allowLocal() *Fetcher {
	return &Fetcher{Policy: Policy{AllowHosts: []string{"local.test"}}, Lookup: stubLookup(map[string][]string{"local.test": {"127.0.0.1"}})}
}

func TestBodyCappedWhileStreaming(t *testing.T) {
	port := loopbackServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		chunk := []byte(strings.Repeat("a", 1<<16))
		for i := 0; i < (MaxBodyBytes>>16)*4; i++ { // 4x the cap
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	r, err := allowLocal().Fetch(context.Background(), Request{URL: "http://local.test:" + port + "/"})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Truncated || len(r.Body) != MaxBodyBytes {
		t.Fatalf("truncated=%v len=%d", r.Truncated, len(r.Body))
	}
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	port := loopbackServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	_, err := allowLocal().Fetch(context.Background(), Request{URL: "http://local.test:" + port + "/", Timeout: 200 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("want a timeout, got %v", err)
	}
}

func TestHeadersCookieAndRefusals(t *testing.T) {
	var got http.Header
	port := loopbackServer(t, func(w http.ResponseWriter, r *http.Request) { got = r.Header.Clone() })
	f := allowLocal()
	u := "http://local.test:" + port + "/"
	if _, err := f.Fetch(context.Background(), Request{URL: u, Headers: map[string]string{"Accept-Language": "fr"}, Cookie: "a=b"}); err != nil {
		t.Fatal(err)
	}
	if got.Get("Accept-Language") != "fr" || got.Get("Cookie") != "a=b" {
		t.Fatalf("headers not sent: %v", got)
	}
	for _, h := range []map[string]string{{"Host": "x"}, {"X-A": "1\r\nInjected: yes"}} {
		if _, err := f.Fetch(context.Background(), Request{URL: u, Headers: h}); err == nil {
			t.Errorf("%v: want refused", h)
		}
	}
}

func TestRateLimited(t *testing.T) {
	port := loopbackServer(t, func(w http.ResponseWriter, r *http.Request) {})
	f := allowLocal()
	f.Limiter = rate.NewLimiter(rate.Every(time.Hour), 2)
	u := "http://local.test:" + port + "/"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for i := 0; i < 2; i++ {
		if _, err := f.Fetch(ctx, Request{URL: u}); err != nil {
			t.Fatalf("request %d within the burst: %v", i, err)
		}
	}
	if _, err := f.Fetch(ctx, Request{URL: u}); err == nil || !strings.Contains(err.Error(), "too many") {
		t.Fatalf("want rate-limited, got %v", err)
	}
}

// At most MaxRedirects redirects are followed, each re-checked; a cookie or
// an Authorization header set for the first host does not follow a
// redirect to another host.
func TestRedirectLimitAndCredentialsStayWithTheirHost(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]http.Header{}
	port := loopbackServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.Host+r.URL.Path] = r.Header.Clone()
		mu.Unlock()
		if n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hop/")); err == nil && n > 0 {
			http.Redirect(w, r, fmt.Sprintf("/hop/%d", n-1), http.StatusFound)
			return
		}
		if r.URL.Path == "/away" {
			http.Redirect(w, r, "http://other.test:"+strings.Split(r.Host, ":")[1]+"/landing", http.StatusFound)
			return
		}
		w.Write([]byte("arrived"))
	})
	f := &Fetcher{Policy: Policy{AllowHosts: []string{"local.test", "other.test"}},
		Lookup: stubLookup(map[string][]string{"local.test": {"127.0.0.1"}, "other.test": {"127.0.0.1"}})}
	base := "http://local.test:" + port
	r, err := f.Fetch(context.Background(), Request{URL: fmt.Sprintf("%s/hop/%d", base, MaxRedirects)})
	if err != nil || string(r.Body) != "arrived" || r.Redirects != MaxRedirects {
		t.Fatalf("%d redirects: %v %+v", MaxRedirects, err, r)
	}
	if _, err := f.Fetch(context.Background(), Request{URL: fmt.Sprintf("%s/hop/%d", base, MaxRedirects+1)}); err == nil || !strings.Contains(err.Error(), "redirects") {
		t.Fatalf("%d redirects: want stopped, got %v", MaxRedirects+1, err)
	}
	r, err = f.Fetch(context.Background(), Request{URL: base + "/away", Cookie: "session=s3cret", Headers: map[string]string{"Authorization": "Bearer t0ken"}})
	if err != nil || string(r.Body) != "arrived" {
		t.Fatalf("cross-host redirect: %v %+v", err, r)
	}
	mu.Lock()
	defer mu.Unlock()
	first, landed := seen["local.test:"+port+"/away"], seen["other.test:"+port+"/landing"]
	if first.Get("Cookie") != "session=s3cret" || first.Get("Authorization") != "Bearer t0ken" {
		t.Fatalf("the first host did not get its credentials: %v", first)
	}
	if landed == nil || landed.Get("Cookie") != "" || landed.Get("Authorization") != "" {
		t.Fatalf("credentials followed the redirect to another host: %v", landed)
	}
}

// The model's timeout is capped at MaxTimeout; zero or less is the default.
func TestTimeoutBounds(t *testing.T) {
	for in, want := range map[time.Duration]time.Duration{0: DefaultTimeout, -time.Second: DefaultTimeout,
		time.Second: time.Second, 10 * time.Minute: MaxTimeout} {
		if got := effectiveTimeout(in); got != want {
			t.Errorf("timeout %s: got %s, want %s", in, got, want)
		}
	}
}

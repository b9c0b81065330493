package browser

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// testDriver skips only when the driver or Chromium is really absent.
func testDriver(t *testing.T) string {
	t.Helper()
	d, missing := DevDriver()
	if d == "" {
		t.Skip(missing)
	}
	return d
}

// site is the test web application on 127.0.0.1.
type site struct {
	url string
}

func serve(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String()
}

// newSite serves a form that greets by name, and a page linking to,
// embedding and redirecting to forbidden (other loopback) URLs.
func newSite(t *testing.T, forbidden string) site {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><html><head><title>Greeter</title></head><body>
<h1>Greeter</h1>
<form action="/greet" method="get"><label for="name">Name</label><input id="name" name="name">
<select id="lang" name="lang"><option value="en">English</option><option value="fr">French</option></select>
<button type="submit">Send</button></form></body></html>`)
	})
	mux.HandleFunc("/greet", func(w http.ResponseWriter, r *http.Request) {
		hello := map[string]string{"fr": "Bonjour"}[r.URL.Query().Get("lang")]
		if hello == "" {
			hello = "Hello"
		}
		fmt.Fprintf(w, `<!doctype html><html><head><title>Greeting</title></head><body><p id="out">%s, %s!</p>
<script>console.error("greeting rendered")</script></body></html>`, hello, r.URL.Query().Get("name"))
	})
	mux.HandleFunc("/links", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><html><head><title>Links</title></head><body>
<img src="%[1]s/pixel.png" alt="pixel">
<a id="direct" href="%[1]s/secret">internal</a>
<a id="meta" href="http://169.254.169.254/latest/meta-data/">metadata</a>
<a id="hop" href="/hop">redirect</a>
<a id="mapped" href="%[2]s/mapped">IPv4-mapped IPv6</a></body></html>`, forbidden, mappedV6(forbidden))
	})
	mux.HandleFunc("/hop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, forbidden+"/after-redirect", http.StatusFound)
	})
	return site{url: serve(t, mux)}
}

// mappedV6 spells a loopback URL's host as IPv4-mapped IPv6
// ([::ffff:127.0.0.1]), which must be refused like 127.0.0.1.
func mappedV6(u string) string {
	i := strings.LastIndex(u, ":")
	return "http://[::ffff:127.0.0.1]" + u[i:]
}

// counter is a server that must never be reached.
func counter(t *testing.T) (string, *atomic.Int64) {
	var n atomic.Int64
	u := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) }))
	return u, &n
}

func call(name, args string) scripted.Reply {
	return scripted.Reply{ToolCalls: []scripted.ToolCall{{Name: name, Arguments: args}}}
}

func model(t *testing.T, srv *scripted.Server) Model {
	t.Helper()
	c, err := llm.New(llm.Profile{BaseURL: srv.URL(), Model: "browser-model", APIKey: "sk-test"}, llm.Options{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	return Model{Client: c, ToolCalling: "native"}
}

// noProcesses fails if a browser process of tmp's profiles is alive.
func noProcesses(t *testing.T, tmp string) {
	t.Helper()
	if left := ProfileProcesses(tmp); len(left) > 0 {
		t.Fatalf("browser processes survived the run: %v", left)
	}
}

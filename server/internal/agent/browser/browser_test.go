package browser

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

func TestFillClickRead(t *testing.T) {
	drv := testDriver(t)
	s := newSite(t, "http://localhost:1")
	tmp, shots := t.TempDir(), t.TempDir()
	srv := scripted.Start(t,
		call("fill", `{"selector":"#name","value":"Ada"}`),
		call("select", `{"selector":"#lang","values":["French"]}`),
		call("click", `{"selector":"role=button[name=\"Send\"]"}`),
		call("getText", `{"selector":"#out"}`),
		call("screenshot", `{}`),
		call("done", `{"status":"success","summary":"Submitted the form.","extracted":{"greeting":"Bonjour, Ada!"}}`),
		scripted.Reply{Text: "unused"},
	)
	res, err := Run(context.Background(), Config{DriverDir: drv, AllowLocalhost: true, TempDir: tmp, ScreenshotDir: shots},
		Task{Task: "Greet Ada in French", URL: s.url + "/"}, model(t, srv))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "success" || res.Title != "Greeting" || !strings.HasPrefix(res.FinalURL, s.url+"/greet?name=Ada&lang=fr") ||
		string(res.Extracted) != `{"greeting":"Bonjour, Ada!"}` {
		t.Fatalf("result %s", res.JSON())
	}
	want := []string{"navigate", "fill", "select", "click", "getText", "screenshot", "done"}
	if len(res.Steps) != len(want) {
		t.Fatalf("steps %s", res.JSON())
	}
	for i, st := range res.Steps {
		if st.Action != want[i] || !st.OK {
			t.Fatalf("step %d: %+v", i, st)
		}
	}
	if len(res.Screenshots) != 1 || !isFile(res.Screenshots[0]) || !strings.HasPrefix(res.Screenshots[0], shots) {
		t.Fatalf("screenshots %v", res.Screenshots)
	}
	// The model saw the page state after each action: the text it read,
	// and the console error of the result page.
	reqs := srv.Requests()
	if len(reqs) != 6 {
		t.Fatalf("%d model requests", len(reqs))
	}
	first := reqs[0].Messages[len(reqs[0].Messages)-1].Content
	if !strings.Contains(first, "Greet Ada in French") || !strings.Contains(first, `textbox "Name"`) {
		t.Fatalf("first request lacks the task or the accessibility tree:\n%s", first)
	}
	afterClick := reqs[3].Messages[len(reqs[3].Messages)-1].Content
	if !strings.Contains(afterClick, "Title: Greeting") || !strings.Contains(afterClick, "greeting rendered") {
		t.Fatalf("state after click:\n%s", afterClick)
	}
	if read := reqs[4].Messages[len(reqs[4].Messages)-1].Content; !strings.Contains(read, "Bonjour, Ada!") {
		t.Fatalf("getText result:\n%s", read)
	}
	noProcesses(t, tmp)
}

// With loopback refused and only 127.0.0.1 allowed by name, the test page
// loads but nothing it points at on "localhost" is ever reached: not a
// link click, a subresource, a redirect, nor the metadata address.
func TestBlockedRequests(t *testing.T) {
	drv := testDriver(t)
	forbidden, hits := counter(t)
	forbidden = strings.Replace(forbidden, "127.0.0.1", "localhost", 1)
	s := newSite(t, forbidden)
	tmp := t.TempDir()
	srv := scripted.Start(t,
		call("click", `{"selector":"#direct"}`),
		call("navigate", `{"url":"`+s.url+`/links"}`),
		call("click", `{"selector":"#hop"}`),
		call("navigate", `{"url":"`+s.url+`/links"}`),
		call("navigate", `{"url":"`+forbidden+`/typed"}`),
		call("click", `{"selector":"#meta"}`),
		call("navigate", `{"url":"`+s.url+`/links"}`),
		call("click", `{"selector":"#mapped"}`),
		call("done", `{"status":"failure","summary":"Blocked."}`),
	)
	res, err := Run(context.Background(), Config{DriverDir: drv, AllowHosts: []string{"127.0.0.1"}, TempDir: tmp},
		Task{Task: "Open the links", URL: s.url + "/links"}, model(t, srv))
	if err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 0 {
		t.Fatalf("the forbidden server was reached %d times", hits.Load())
	}
	if res.Status != "failure" || len(res.Steps) != 10 {
		t.Fatalf("result %s", res.JSON())
	}
	// A refused navigation is a failed step, and the page it leaves is
	// Chromium's error page.
	notes := map[int]string{0: "pixel.png", 1: "/secret", 3: "/after-redirect", 5: "/typed", 6: "169.254.169.254", 8: "/mapped"}
	for i, frag := range notes {
		st := res.Steps[i]
		if !strings.Contains(st.Target+st.Note, frag) || !strings.Contains(st.Note, "loopback") && !strings.Contains(st.Note, "link-local") {
			t.Errorf("step %d (%s) note lacks the refusal of %s: %q", i, st.Action, frag, st.Note)
		}
		if st.OK != (i == 0 || i == 7) {
			t.Errorf("step %d (%s) ok=%v: %+v", i, st.Action, st.OK, st)
		}
	}
	noProcesses(t, tmp)
}

func TestCancelLeavesNoProcess(t *testing.T) {
	drv := testDriver(t)
	s := newSite(t, "http://localhost:1")
	tmp := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	running := make(chan int, 1)
	srv := scripted.Start(t)
	srv.SetHandler(func(*scripted.RecordedRequest) scripted.Reply {
		// The model is asked while the browser runs: count it, then stop
		// the run in the middle of a long wait.
		running <- len(ProfileProcesses(tmp))
		return call("waitForSelector", `{"selector":"#never","timeoutMs":30000}`)
	})
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, Config{DriverDir: drv, AllowLocalhost: true, TempDir: tmp}, Task{Task: "wait", URL: s.url}, model(t, srv))
		done <- err
	}()
	if n := <-running; n == 0 {
		t.Fatal("no browser process found while the run was going")
	}
	start := time.Now()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if time.Since(start) > 15*time.Second {
		t.Fatalf("cancel took %s", time.Since(start))
	}
	noProcesses(t, tmp)
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Fatalf("profile left behind: %v", entries)
	}
}

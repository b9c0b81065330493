package scripted

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// SessionHeader is the header GoVibe's client sends with Request.SessionID.
const SessionHeader = "X-GoVibe-Session"

// Config enables provider-like validation.
type Config struct {
	// Provider "deepseek" (or "moonshot") rejects assistant messages of
	// tool-call turns that lack reasoning_content; "openai" and "groq"
	// reject any reasoning_content; "gemini" rejects a function call of
	// the current turn sent back without its thought signature. Empty
	// checks none.
	Provider string
	// APIKey, when set, is required as the bearer token (401 otherwise).
	APIKey string
	// ToolsUnsupported answers any request carrying tools with the 400 a
	// model without function calling gives.
	ToolsUnsupported bool
	// ToolsUnsupportedMessage replaces the default wording of that 400
	// ("<model> does not support tools"), e.g. with Azure's
	// "Unrecognized request argument supplied: tools".
	ToolsUnsupportedMessage string
	// ContextWindow, when positive, answers requests whose estimated prompt
	// tokens (chars/4) exceed it with a context-length 400.
	ContextWindow int
	// UsageUnasked sends the usage chunk whether or not the request set
	// stream_options.include_usage (Mistral does; OpenAI, Ollama and
	// DeepSeek send it only when asked).
	UsageUnasked bool
	// RejectFields answers a request carrying any of these top-level body
	// fields with the 422 a strict server gives ("extra_forbidden", as
	// Mistral's validation does for fields it does not know).
	RejectFields []string
	// Dialect shapes the stream as one provider sends it (dialect.go);
	// empty is OpenAI's shape.
	Dialect Dialect
	// ModelsStatus and ModelsBody replace GET /models's answer (status 0
	// is 200; an empty body is the one "scripted" model), e.g. a provider
	// without a list (404) or one whose list carries windows.
	ModelsStatus int
	ModelsBody   string
}

type queued struct {
	reply Reply
	used  int
}

type sessionState struct {
	canonical string
	body      string
	attempt   int
}

// Server is a scripted OpenAI-compatible endpoint on loopback.
//
// Concurrency: all methods are safe for concurrent use; requests are served
// concurrently and recorded in arrival order under one mutex.
type Server struct {
	ln  net.Listener
	srv *http.Server
	url string

	closing   chan struct{}
	closeOnce sync.Once

	mu       sync.Mutex
	closed   bool
	inflight sync.WaitGroup
	cfg      Config
	queue    []*queued
	handler  func(*RecordedRequest) Reply
	rules    *Rules
	requests []*RecordedRequest
	sessions map[string]*sessionState
}

// New starts a server on 127.0.0.1 with a random port.
func New() (*Server, error) { return Listen("127.0.0.1:0") }

// Listen starts a server on addr. Only loopback addresses are accepted: the
// server is test infrastructure and must never be reachable from elsewhere.
func Listen(addr string) (*Server, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("invalid listen address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("refusing to listen on %q: the scripted model only serves loopback", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &Server{
		ln:       ln,
		url:      "http://" + ln.Addr().String() + "/v1",
		closing:  make(chan struct{}),
		sessions: map[string]*sessionState{},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.serveCompletion)
	mux.HandleFunc("POST /chat/completions", s.serveCompletion)
	mux.HandleFunc("GET /v1/models", s.serveModels)
	mux.HandleFunc("GET /models", s.serveModels)
	mux.HandleFunc("GET /_requests", s.serveRequests)
	mux.HandleFunc("POST /_script", s.serveScript)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Start is New for tests: it fails t on error and closes the server in
// t.Cleanup. With t == nil it panics on error and the caller must Close.
// replies are queued in order.
func Start(t testing.TB, replies ...Reply) *Server {
	s, err := New()
	if err != nil {
		if t == nil {
			panic(err)
		}
		t.Fatalf("scripted.Start: %v", err)
	}
	if t != nil {
		t.Helper()
		t.Cleanup(s.Close)
	}
	s.Enqueue(replies...)
	return s
}

// URL is the base URL to configure a client with (it ends in /v1).
func (s *Server) URL() string { return s.url }

// Close stops the server, releases hung streams and waits for every handler
// to return.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.closing)
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = s.srv.Shutdown(ctx)
		cancel()
		_ = s.srv.Close()
		s.inflight.Wait()
	})
}

// SetConfig replaces the validation config.
func (s *Server) SetConfig(c Config) {
	s.mu.Lock()
	s.cfg = c
	s.mu.Unlock()
}

// Enqueue appends replies; queued replies take precedence over the handler
// and rules.
func (s *Server) Enqueue(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range replies {
		s.queue = append(s.queue, &queued{reply: r})
	}
}

// Pending is the number of queued replies not yet served.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// SetHandler answers requests when the queue is empty. It is called without
// the server's lock held, possibly concurrently.
func (s *Server) SetHandler(h func(*RecordedRequest) Reply) {
	s.mu.Lock()
	s.handler = h
	s.mu.Unlock()
}

// SetRules answers requests when the queue is empty and no handler is set.
func (s *Server) SetRules(r *Rules) error {
	if r != nil {
		if err := r.Validate(); err != nil {
			return err
		}
	}
	s.mu.Lock()
	s.rules = r
	s.mu.Unlock()
	return nil
}

// Requests returns snapshots of every request so far, in arrival order.
func (s *Server) Requests() []RecordedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]RecordedRequest, len(s.requests))
	for i, r := range s.requests {
		out[i] = *r
	}
	return out
}

// Violations lists every invariant violation seen, prefixed by request seq.
func (s *Server) Violations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, r := range s.requests {
		for _, v := range r.Violations {
			out = append(out, fmt.Sprintf("request %d: %s", r.Seq, v))
		}
	}
	return out
}

// PrefixStats returns the per-request prefix-cache statistics.
func (s *Server) PrefixStats() []PrefixStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]PrefixStats, len(s.requests))
	for i, r := range s.requests {
		out[i] = r.Prefix
	}
	return out
}

// WaitIdle waits until no request is being served, e.g. to read the final
// outcome of a stream the client abandoned.
func (s *Server) WaitIdle(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		s.mu.Lock()
		busy := 0
		for _, r := range s.requests {
			if r.Outcome == "" {
				busy++
			}
		}
		s.mu.Unlock()
		if busy == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d request(s) still being served after %s", busy, timeout)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (s *Server) serveModels(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	cfg := s.cfg
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if cfg.ModelsStatus != 0 {
		w.WriteHeader(cfg.ModelsStatus)
	}
	body := cfg.ModelsBody
	if body == "" {
		body = `{"object":"list","data":[{"id":"scripted","object":"model","owned_by":"govibe"}]}`
	}
	_, _ = w.Write([]byte(body))
}

func (s *Server) serveRequests(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(s.Requests())
}

func (s *Server) serveScript(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	if err == nil {
		var rules *Rules
		if rules, err = ParseRules(body); err == nil {
			err = s.SetRules(rules)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write(errorJSON(err.Error(), "invalid_request_error", nil))
		return
	}
	_, _ = w.Write([]byte(`{"ok":true}`))
}

// begin registers a handler with the in-flight group unless closing.
func (s *Server) begin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.inflight.Add(1)
	return true
}

func (s *Server) serveCompletion(w http.ResponseWriter, r *http.Request) {
	if !s.begin() {
		http.Error(w, "server closing", http.StatusServiceUnavailable)
		return
	}
	defer s.inflight.Done()

	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	headers, hasAuth := recordHeaders(r.Header)
	rec := &RecordedRequest{
		Time: time.Now(), Method: r.Method, Path: r.URL.Path, Session: r.Header.Get(SessionHeader),
		Headers: headers, HasAuth: hasAuth, Body: json.RawMessage(body),
	}
	if err == nil {
		err = rec.parseBody(body)
	}
	if !json.Valid(body) {
		rec.Body = nil
	}

	s.mu.Lock()
	cfg := s.cfg
	rec.Seq = len(s.requests) + 1
	if err == nil {
		s.trackSession(rec, string(body))
		rec.Violations = append(checkToolPairing(rec.Messages), checkProviderQuirks(cfg.Provider, rec.Messages)...)
	}
	s.requests = append(s.requests, rec)
	s.mu.Unlock()

	switch {
	case err != nil:
		s.reject(w, rec, http.StatusBadRequest, errorJSON(err.Error(), "invalid_request_error", nil))
		return
	case cfg.APIKey != "" && r.Header.Get("Authorization") != "Bearer "+cfg.APIKey:
		// Real providers echo (part of) the key; echoing all of it lets
		// client tests prove they redact it.
		given := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		s.reject(w, rec, http.StatusUnauthorized, errorJSON(
			fmt.Sprintf("Incorrect API key provided: %s. You can find your API key in your account settings.", given),
			"invalid_request_error", "invalid_api_key"))
		return
	case len(rec.Violations) > 0:
		s.reject(w, rec, http.StatusBadRequest, errorJSON("Invalid request: "+strings.Join(rec.Violations, "; "),
			"invalid_request_error", nil))
		return
	case len(cfg.RejectFields) > 0 && forbiddenField(body, cfg.RejectFields) != "":
		f := forbiddenField(body, cfg.RejectFields)
		s.reject(w, rec, http.StatusUnprocessableEntity, extraForbidden(f))
		return
	case cfg.ToolsUnsupported && len(rec.Tools) > 0:
		msg := cfg.ToolsUnsupportedMessage
		if msg == "" {
			msg = fmt.Sprintf("%s does not support tools", rec.Model)
		}
		s.reject(w, rec, http.StatusBadRequest, errorJSON(msg, "invalid_request_error", nil))
		return
	case cfg.ContextWindow > 0 && len(rec.canonical)/4 > cfg.ContextWindow:
		s.reject(w, rec, http.StatusBadRequest, errorJSON(
			fmt.Sprintf("This model's maximum context length is %d tokens. However, you requested %d tokens. Please reduce the length of the messages.",
				cfg.ContextWindow, len(rec.canonical)/4), "invalid_request_error", "context_length_exceeded"))
		return
	}

	reply, fault := s.pick(rec)
	if err := reply.Validate(); err != nil {
		s.reject(w, rec, http.StatusInternalServerError, errorJSON("scripted reply is invalid: "+err.Error(), "server_error", nil))
		return
	}
	for i := range reply.ToolCalls {
		if reply.ToolCalls[i].ID == "" {
			reply.ToolCalls[i].ID = fmt.Sprintf("call_%d_%d", rec.Seq, i)
		}
	}
	s.mu.Lock()
	rec.Reply = &reply
	if fault.Kind != FaultNone {
		f := fault
		rec.Fault = &f
	}
	s.mu.Unlock()

	if fault.Kind == FaultStatus {
		if fault.RetryAfter != "" {
			w.Header().Set("Retry-After", fault.RetryAfter)
		}
		b := []byte(fault.Body)
		if len(b) == 0 {
			b = errorJSON(http.StatusText(fault.Status), "server_error", nil)
		}
		s.finish(rec, fault.Status, "status", false)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(fault.Status)
		_, _ = w.Write(b)
		return
	}
	usage := s.usageFor(rec, reply)
	if rec.Stream {
		s.serveStream(w, r, rec, reply, fault, usage, rec.IncludeUsage || cfg.UsageUnasked, cfg.Dialect)
		return
	}
	s.serveJSON(w, r, rec, reply, fault, usage)
}

// trackSession computes Attempt and PrefixStats. Caller holds s.mu.
func (s *Server) trackSession(rec *RecordedRequest, body string) {
	st := s.sessions[rec.Session]
	if st == nil {
		st = &sessionState{}
		s.sessions[rec.Session] = st
	}
	rec.Prefix = PrefixStats{Chars: len(rec.canonical), PrevChars: len(st.canonical)}
	if st.canonical != "" {
		rec.Prefix.CommonChars = commonPrefix(st.canonical, rec.canonical)
		rec.Prefix.CommonTokens = rec.Prefix.CommonChars / 4
	}
	if st.body == body {
		st.attempt++
	} else {
		st.attempt = 1
	}
	rec.Attempt = st.attempt
	st.body = body
	st.canonical = rec.canonical
}

// pick chooses the reply and the fault for this attempt.
func (s *Server) pick(rec *RecordedRequest) (Reply, Fault) {
	s.mu.Lock()
	if len(s.queue) > 0 {
		q := s.queue[0]
		i := q.used
		q.used++
		var f Fault
		if i < len(q.reply.Faults) {
			f = q.reply.Faults[i]
		}
		if f.Kind == FaultNone {
			s.queue = s.queue[1:]
		}
		s.mu.Unlock()
		return cloneReply(q.reply), f
	}
	h, rules := s.handler, s.rules
	snapshot := *rec
	s.mu.Unlock()

	var reply Reply
	switch {
	case h != nil:
		reply = h(&snapshot)
	case rules != nil:
		reply = rules.Reply(&snapshot)
	default:
		reply = EchoReply(&snapshot)
	}
	reply = cloneReply(reply)
	var f Fault
	if i := rec.Attempt - 1; i < len(reply.Faults) {
		f = reply.Faults[i]
	}
	return reply, f
}

func cloneReply(r Reply) Reply {
	r.ToolCalls = append([]ToolCall(nil), r.ToolCalls...)
	r.Faults = append([]Fault(nil), r.Faults...)
	if r.Usage != nil {
		u := *r.Usage
		r.Usage = &u
	}
	return r
}

func (s *Server) usageFor(rec *RecordedRequest, r Reply) Usage {
	if r.Usage != nil {
		return *r.Usage
	}
	args := 0
	for _, tc := range r.ToolCalls {
		args += len(tc.Name) + len(tc.Arguments)
	}
	u := Usage{
		PromptTokens:     int64(max(1, len(rec.canonical)/4)),
		CompletionTokens: int64(max(1, (len(r.Text)+len(r.Reasoning)+args)/4)),
		ReasoningTokens:  int64(len(r.Reasoning) / 4),
	}
	// Provider caches work in fixed blocks (DeepSeek: 64 tokens).
	u.CachedTokens = int64(rec.Prefix.CommonTokens / 64 * 64)
	return u
}

func (s *Server) reject(w http.ResponseWriter, rec *RecordedRequest, status int, body []byte) {
	s.finish(rec, status, "rejected", false)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func (s *Server) finish(rec *RecordedRequest, status int, outcome string, clientGone bool) {
	s.mu.Lock()
	rec.Status = status
	rec.Outcome = outcome
	rec.ClientGone = rec.ClientGone || clientGone
	s.mu.Unlock()
}

// wait sleeps d unless the client goes away or the server closes; it
// reports whether the client is gone.
func (s *Server) wait(ctx context.Context, d time.Duration) (gone bool) {
	if d <= 0 {
		return ctx.Err() != nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return false
	case <-ctx.Done():
		return true
	case <-s.closing:
		return false
	}
}

func (s *Server) serveStream(w http.ResponseWriter, r *http.Request, rec *RecordedRequest, reply Reply, fault Fault, usage Usage, sendUsage bool, d Dialect) {
	var u *Usage
	if sendUsage {
		u = &usage
	}
	plan := buildDialectStream(d, completionID(rec.Seq), rec.Model, rec.Time.Unix(), reply, u, rec.IncludeUsage)
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_ = rc.Flush()

	ctx := r.Context()
	for i := 0; ; i++ {
		if fault.Kind != FaultNone && i == fault.AfterChunks {
			s.applyFault(w, r, rec, fault)
			return
		}
		if i == len(plan.chunks) {
			break
		}
		if i > 0 && s.wait(ctx, reply.ChunkDelay) {
			s.finish(rec, http.StatusOK, "client_gone", true)
			return
		}
		format := "data: %s\n\n"
		if bytes.HasPrefix(plan.chunks[i], []byte(":")) {
			format = "%s\n\n" // an SSE comment, as OpenRouter sends to keep the line open
		}
		if _, err := fmt.Fprintf(w, format, plan.chunks[i]); err != nil {
			s.finish(rec, http.StatusOK, "client_gone", true)
			return
		}
		if err := rc.Flush(); err != nil {
			s.finish(rec, http.StatusOK, "client_gone", true)
			return
		}
	}
	if !reply.OmitDone {
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
		_ = rc.Flush()
	}
	s.finish(rec, http.StatusOK, "ok", ctx.Err() != nil)
}

func (s *Server) applyFault(w http.ResponseWriter, r *http.Request, rec *RecordedRequest, f Fault) {
	switch f.Kind {
	case FaultReset:
		s.finish(rec, http.StatusOK, "reset", false)
		resetConn(w)
	case FaultNoDone:
		s.finish(rec, http.StatusOK, "no_done", false)
	case FaultHang:
		select {
		case <-r.Context().Done():
			s.finish(rec, http.StatusOK, "hang", true)
		case <-s.closing:
			s.finish(rec, http.StatusOK, "hang", false)
		}
	}
}

// resetConn hijacks the connection and closes it with SO_LINGER 0, so the
// client sees a TCP RST mid-body rather than a clean end.
func resetConn(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

func (s *Server) serveJSON(w http.ResponseWriter, r *http.Request, rec *RecordedRequest, reply Reply, fault Fault, usage Usage) {
	body := buildCompletion(completionID(rec.Seq), rec.Model, rec.Time.Unix(), reply, usage)
	switch fault.Kind {
	case FaultReset:
		s.finish(rec, http.StatusOK, "reset", false)
		resetConn(w)
		return
	case FaultHang:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_ = http.NewResponseController(w).Flush()
		s.applyFault(w, r, rec, fault)
		return
	case FaultNoDone:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body[:len(body)/2])
		s.finish(rec, http.StatusOK, "no_done", false)
		return
	}
	if s.wait(r.Context(), reply.ChunkDelay) {
		s.finish(rec, http.StatusOK, "client_gone", true)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, err := w.Write(body)
	s.finish(rec, http.StatusOK, "ok", err != nil)
}

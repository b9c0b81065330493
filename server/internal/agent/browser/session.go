package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/govibe/govibe/server/internal/workspace/web"
)

// Config is what a run needs from settings and the host.
type Config struct {
	// ExecutablePath is govibe.browser.executablePath ("" = auto-detect).
	ExecutablePath string
	// DriverDir overrides the driver search (tests, a future setting).
	DriverDir string
	// AllowLocalhost is govibe.browser.allowLocalhost: loopback addresses
	// pass the SSRF policy (the user's own dev server).
	AllowLocalhost bool
	// AllowHosts is govibe.web.allowHosts.
	AllowHosts []string
	// Lookup resolves host names for the policy (nil: the system's).
	Lookup web.LookupFunc
	// ScreenshotDir receives screenshots (created on first use).
	ScreenshotDir string
	// TempDir holds the temporary profile ("" = the system's); tests give
	// their own to find the run's processes.
	TempDir string
}

// launchArgs are the Chromium flags that work headless on a server: no GPU,
// no QUIC (every request stays on TCP, where interception sees it), and none
// of the background traffic a fresh profile would start (updates, sync,
// component downloads), which would otherwise bypass the model's intent.
var launchArgs = []string{"--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
	"--disable-component-update", "--disable-sync"}

// Session is one running browser: a driver process, a Chromium on a fresh
// temporary profile and its current page. Actions are serialised by the
// agent loop (the tools are not read-only); the notes collected by event
// handlers are guarded by mu.
type Session struct {
	cfg     Config
	policy  web.Policy
	pw      *playwright.Playwright
	proxy   *proxy
	bctx    playwright.BrowserContext
	Profile string // the temporary user data directory

	mu      sync.Mutex
	page    playwright.Page
	console []string // console errors since the last state
	blocked []string // refused requests since the last state
	// refusedNav holds the URLs of refused requests that were (or may
	// have been) the page's own navigation, since the last state.
	refusedNav []string

	closeOnce sync.Once
	closeErr  error
}

// driverEnvMu serialises driver start-ups: the driver inherits this
// process's environment, so the node override is set only around its start.
var driverEnvMu sync.Mutex

// Start launches the driver and Chromium. The browser is closed when ctx
// ends (Stop), whatever the run is doing then.
func Start(ctx context.Context, cfg Config) (*Session, error) {
	drv, err := FindDriver(cfg.DriverDir)
	if err != nil {
		return nil, err
	}
	exe, err := FindChromium(cfg.ExecutablePath)
	if err != nil {
		return nil, err
	}
	profile, err := os.MkdirTemp(cfg.TempDir, "govibe-browser-")
	if err != nil {
		return nil, err
	}
	s := &Session{cfg: cfg, Profile: profile, policy: web.Policy{AllowHosts: cfg.AllowHosts, AllowLoopback: cfg.AllowLocalhost}}
	s.proxy, err = startProxy(&web.Fetcher{Policy: s.policy, Lookup: cfg.Lookup}, s.refusedByProxy)
	if err != nil {
		_ = os.RemoveAll(profile)
		return nil, err
	}
	s.pw, err = runDriver(drv)
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("%w: starting the playwright driver (%s with %s) failed: %v", ErrUnavailable, drv.Dir, drv.Node, err)
	}
	s.bctx, err = s.pw.Chromium.LaunchPersistentContext(profile, playwright.BrowserTypeLaunchPersistentContextOptions{
		ExecutablePath:  playwright.String(exe),
		Headless:        playwright.Bool(true),
		ChromiumSandbox: playwright.Bool(os.Geteuid() != 0), // Chromium refuses its sandbox as root
		// <-loopback> removes Chromium's implicit proxy bypass for
		// localhost, so loopback requests are checked too.
		Args:            append([]string{"--proxy-server=http://" + s.proxy.Addr(), "--proxy-bypass-list=<-loopback>"}, launchArgs...),
		AcceptDownloads: playwright.Bool(false),
		ServiceWorkers:  playwright.ServiceWorkerPolicyBlock, // their fetches would escape page routing
		Timeout:         playwright.Float(60_000),
	})
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("%w: launching %s failed: %v", ErrUnavailable, exe, err)
	}
	if err := s.guard(); err != nil {
		s.Close()
		return nil, err
	}
	s.bctx.OnPage(s.watch)
	pages := s.bctx.Pages()
	if len(pages) > 0 {
		s.watch(pages[0])
	} else if _, err := s.bctx.NewPage(); err != nil { // OnPage watches it
		s.Close()
		return nil, err
	}
	go func() {
		<-ctx.Done()
		s.Close()
	}()
	return s, nil
}

func runDriver(drv Driver) (*playwright.Playwright, error) {
	driverEnvMu.Lock()
	defer driverEnvMu.Unlock()
	restore := setEnv(map[string]string{"PLAYWRIGHT_NODEJS_PATH": drv.Node, "ELECTRON_RUN_AS_NODE": map[bool]string{true: "1"}[drv.Electron]})
	defer restore()
	return playwright.Run(&playwright.RunOptions{DriverDirectory: drv.Dir, SkipInstallBrowsers: true, Verbose: false,
		Stdout: io.Discard, Stderr: io.Discard})
}

// setEnv sets (or, for "", unsets) variables and returns their restorer.
func setEnv(vars map[string]string) func() {
	old := map[string]*string{}
	for k, v := range vars {
		if o, ok := os.LookupEnv(k); ok {
			old[k] = &o
		} else {
			old[k] = nil
		}
		if v == "" {
			_ = os.Unsetenv(k)
		} else {
			_ = os.Setenv(k, v)
		}
	}
	return func() {
		for k, o := range old {
			if o == nil {
				_ = os.Unsetenv(k)
			} else {
				_ = os.Setenv(k, *o)
			}
		}
	}
}

// guard routes every request of the context (navigations, clicks, forms,
// subresources, popups, redirects) and WebSocket through the SSRF policy.
func (s *Session) guard() error {
	err := s.bctx.Route("**/*", func(r playwright.Route) {
		u := r.Request().URL()
		if err := s.check(u); err != nil {
			s.note(&s.blocked, fmt.Sprintf("blocked %s %s: %v", r.Request().Method(), clip(u, 200), err))
			if r.Request().IsNavigationRequest() && r.Request().Frame() == s.Page().MainFrame() {
				s.note(&s.refusedNav, u)
			}
			_ = r.Abort("blockedbyclient")
			return
		}
		_ = r.Continue()
	})
	if err != nil {
		return err
	}
	return s.bctx.RouteWebSocket("**/*", func(ws playwright.WebSocketRoute) {
		u := ws.URL()
		if err := s.check("http" + strings.TrimPrefix(u, "ws")); err != nil {
			s.note(&s.blocked, fmt.Sprintf("blocked WebSocket %s: %v", clip(u, 200), err))
			ws.Close()
			return
		}
		_, _ = ws.ConnectToServer()
	})
}

// check applies the policy; data:, blob: and about: URLs never leave the
// browser and pass.
func (s *Session) check(u string) error {
	for _, p := range []string{"data:", "blob:", "about:"} {
		if strings.HasPrefix(u, p) {
			return nil
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return s.policy.CheckRequestURL(ctx, s.cfg.Lookup, u)
}

// watch makes p the current page (a popup or target=_blank link moves the
// agent along) and collects its console errors.
func (s *Session) watch(p playwright.Page) {
	s.mu.Lock()
	s.page = p
	s.mu.Unlock()
	p.OnConsole(func(m playwright.ConsoleMessage) {
		if m.Type() == "error" {
			s.note(&s.console, clip(m.Text(), 300))
		}
	})
	p.OnPageError(func(err error) { s.note(&s.console, "uncaught: "+clip(err.Error(), 300)) })
}

func (s *Session) note(list *[]string, msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(*list) < 50 {
		*list = append(*list, msg)
	}
}

// Page is the current page.
func (s *Session) Page() playwright.Page {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.page
}

// refusedByProxy records a connection the proxy refused. The proxy cannot
// tell a navigation from a subresource, so its URL counts as a refused
// navigation when the page ends up on it (a redirect to a blocked address).
func (s *Session) refusedByProxy(url, msg string) {
	s.note(&s.blocked, msg)
	s.note(&s.refusedNav, url)
}

// notes are what happened since the previous state.
type notes struct {
	console, blocked []string
	// navRefused: the page's own navigation was refused.
	navRefused bool
}

// drain returns and clears the notes gathered since the last call.
func (s *Session) drain() notes {
	p := s.Page()
	cur := p.URL()
	s.mu.Lock()
	defer s.mu.Unlock()
	n := notes{console: s.console, blocked: s.blocked}
	for _, u := range s.refusedNav {
		// A refused main-frame request either leaves Chromium's error page
		// or the proxy's 403 at the refused URL; a CONNECT is host:port.
		if u == cur || strings.HasPrefix(cur, "chrome-error://") || !strings.Contains(u, "://") && strings.Contains(cur, "://"+u+"/") {
			n.navRefused = true
		}
	}
	s.console, s.blocked, s.refusedNav = nil, nil, nil
	return n
}

// Close closes Chromium and the driver, kills any browser process still
// running on this session's profile, and removes the profile. Safe to call
// more than once and concurrently.
func (s *Session) Close() error {
	s.closeOnce.Do(func() {
		var errs []error
		if s.bctx != nil {
			errs = append(errs, s.bctx.Close())
		}
		if s.pw != nil {
			errs = append(errs, s.pw.Stop())
		}
		killProfileProcesses(s.Profile, 5*time.Second)
		if s.proxy != nil {
			s.proxy.Close()
		}
		errs = append(errs, os.RemoveAll(s.Profile))
		s.closeErr = errors.Join(errs...)
	})
	return s.closeErr
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Package browser is the browser sub-agent: a headless Chromium driven by
// playwright-go, offered to a model as a small set of tools (navigate,
// click, fill, ...) run by the ordinary agent loop. Every request the page
// makes passes the web package's SSRF policy through request interception.
//
// # The tool
//
// browser_sub_agent(task, url, maxSteps, timeoutMs) (subagent's
// browser_tool.go) runs a headless Chromium through playwright-go v0.5200.1
// and offers the model eleven tools (navigate, click, fill, press, select,
// scroll, waitForSelector, getText, getPageInfo, screenshot, done) in an
// ordinary agent.Run in a hidden child session, like investigate; it is never
// offered ask_human. Every action's result carries the page state: URL, title,
// the ARIA snapshot trimmed to 6000 characters, console errors and refused
// requests. The result is {status, summary, steps[{action, target, ok, note}],
// finalUrl, title, extracted, screenshots}; screenshots go to
// <state>/browser/<child session>/ and the chat card shows them inline (the
// webview's screenshots.ts gives a src only to a .png inside that folder; the
// host opens only PNGs under it).
//
// # Browser and driver
//
// Browser: govibe.browser.executablePath, else the standard Chromium, Chrome
// and Edge locations per OS. Fresh temporary profile per run; the flags are
// --disable-gpu --disable-quic --no-first-run --disable-background-networking
// --disable-component-update --disable-sync, plus --no-sandbox only as root.
//
// The driver is never downloaded at run time: <dir>/package/cli.js of
// playwright-core 1.52.0 (checked) from GOVIBE_PLAYWRIGHT_DRIVER,
// PLAYWRIGHT_DRIVER_PATH, playwright-driver/ next to or above the binary (the
// .vsix bundles it there, about 3.5 MB without the trace viewer and types), or
// $GOVIBE_E2E_CACHE/playwright-driver (e2e/setup.sh). Node: <dir>/node, else
// GOVIBE_PLAYWRIGHT_NODE (the extension passes VS Code's Electron with
// GOVIBE_PLAYWRIGHT_NODE_ELECTRON=1), else PLAYWRIGHT_NODEJS_PATH, else node
// on PATH; the error names what to install. The sidecar sets
// PLAYWRIGHT_NODEJS_PATH and ELECTRON_RUN_AS_NODE only while the driver
// starts, under a mutex, so agent commands do not inherit them (a command
// spawned in that instant could).
//
// # SSRF, two layers
//
// Both are web.Policy. The context routes every request (Route("**/*") and
// RouteWebSocket; service workers are blocked) through Policy.CheckRequestURL,
// which aborts and notes refusals for the step; and Chromium's only way out is
// an in-process proxy (proxy.go: --proxy-server,
// --proxy-bypass-list=<-loopback>) that dials with the web fetcher's checking
// dialer. The proxy catches what routing cannot see: redirects Chromium
// follows itself and DNS answers that change after the route's check. Loopback
// passes only with govibe.browser.allowLocalhost (user-only).
// govibe.web.allowHosts (user-only) is the browser's allow list too, matched
// by host name as in web_fetch (TestBrowserSubAgentObeysWebAllowHosts:
// localhost refused by default with no request reaching it, reachable when
// listed). A refused main-frame navigation fails its step. The run is
// confirmed like web_fetch (package approval).
//
// # Ending
//
// Stop (context cancel) and every other ending close the context and the
// driver, then kill whatever still runs with the profile's --user-data-dir
// (Linux, via /proc: procs_linux.go) and delete the profile; the tests count
// those processes.
package browser

# GoVibe: a VS Code agent with a Go sidecar.
#   make build   sidecar at bin/govibe + bundled extension and webview
#   make test    every test: Go (unit + integration), TypeScript, e2e
#   make run     code-server with the built extension on 127.0.0.1:8080
#   make vsix    platform .vsix files under dist/
#   make bench   benchmark figures as ratios against same-run references

SHELL := /bin/bash
GO ?= go
VERSION ?= 0.1.0
LDFLAGS := -s -w -X github.com/govibe/govibe/server/internal/rpc/server.Version=$(VERSION)
GO_PKGS = $(shell $(GO) list ./... | grep -v /e2e)
VSIX_TARGETS := linux-x64 linux-arm64 alpine-x64 darwin-x64 darwin-arm64 win32-x64 win32-arm64

.PHONY: all build sidecar extension deps generate test test-go test-ts test-e2e e2e-setup vsix vsix-local run bench eval clean

all: build

deps: node_modules/.stamp extension/webview/node_modules/.stamp

node_modules/.stamp: package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

extension/webview/node_modules/.stamp: extension/webview/package-lock.json
	npm --prefix extension/webview ci --no-audit --no-fund
	@touch $@

generate:
	$(GO) generate ./protocol ./server/internal/host/config

sidecar:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/govibe ./server/cmd/govibe

extension: deps
	npm run build

build: sidecar extension

# e2e-setup comes first: the Go browser tests (test-go) run on the Chromium
# and playwright driver it installs, and skip only when they are absent.
# The slowest ten Go tests (unit and integration) are printed at the end of
# test-go and again at the very end (scripts/testsummary), then the slowest
# ten e2e scenarios.
test: e2e-setup test-go test-ts test-e2e
	@cat bin/slowest-go-tests.txt 2>/dev/null || true
	@cat bin/slowest-e2e-tests.txt 2>/dev/null || true

# go test -json through scripts/testsummary: plain go test output (a line
# per package, failing tests' output), then the slowest ten tests; pipefail
# keeps go test's exit status.
test-go:
	$(GO) vet $(GO_PKGS)
	@mkdir -p bin && $(GO) build -o bin/testsummary ./scripts/testsummary
	@rm -f bin/slowest-go-tests.txt
	set -o pipefail; $(GO) test -json -count=1 -timeout 20m $(GO_PKGS) | bin/testsummary -slowest bin/slowest-go-tests.txt

test-ts: deps
	npm run typecheck
	npm test
	npm --prefix extension/webview run typecheck
	npm --prefix extension/webview test

e2e-setup:
	bash e2e/setup.sh

# One line per e2e test as it finishes (name, PASS/FAIL, duration); the
# full verbose log goes to e2e/artifacts/e2e.log.
test-e2e: e2e-setup vsix-local
	@mkdir -p e2e/artifacts
	@set -o pipefail; GOVIBE_VSIX=$(CURDIR)/dist/govibe-linux-x64.vsix $(GO) test -v -count=1 -timeout 50m ./e2e/ 2>&1 \
		| tee e2e/artifacts/e2e.log \
		| grep --line-buffered -E '^(--- (PASS|FAIL|SKIP)|ok |FAIL|panic:)|e2e artifacts for' \
		|| { echo "e2e failed: full log in e2e/artifacts/e2e.log"; exit 1; }
	@mkdir -p bin && { echo "slowest ten e2e tests:"; sed -n -E 's/^--- (PASS|FAIL): ([^ ]+) \(([0-9.]+)s\)$$/\3s \2/p' e2e/artifacts/e2e.log \
		| sort -rn | head -10; } | tee bin/slowest-e2e-tests.txt

# The .vsix for this machine only, used by make run and the e2e tests.
vsix-local: build
	npm run package:target -- linux-x64 bin/govibe

# Every platform: the sidecar cross-compiled without cgo, one .vsix each.
vsix: extension
	@mkdir -p dist/bin
	@set -e; for t in $(VSIX_TARGETS); do \
		os=$${t%-*}; arch=$${t#*-}; ext=""; \
		case $$os in alpine) os=linux;; win32) os=windows; ext=.exe;; esac; \
		case $$arch in x64) arch=amd64;; esac; \
		echo "== $$t"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o dist/bin/$$t/govibe$$ext ./server/cmd/govibe; \
		npm run -s package:target -- $$t dist/bin/$$t/govibe$$ext; \
	done
	@CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/govibe ./server/cmd/govibe
	@ls -l dist/*.vsix

run: vsix-local
	bash scripts/run.sh

# The built-in task suite against a real model (README: "Measuring a model").
# EVAL_ARGS passes flags: make eval EVAL_ARGS='--model deepseek --tasks fix-test,rename --repeat 3'
# CI runs the same suite on the scripted model in test-go (server/cmd/govibe/eval_cmd_test.go).
eval: sidecar
	./bin/govibe eval $(EVAL_ARGS)

bench: build
	bash scripts/bench.sh

clean:
	rm -rf bin dist extension/dist extension/webview/dist playwright-driver

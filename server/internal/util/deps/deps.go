//go:build deps

// Package deps pins the modules GoVibe's packages are built on, so that
// parallel work on separate packages never races on go.mod.
package deps

import (
	_ "github.com/JohannesKaufmann/html-to-markdown/v2"
	_ "github.com/aymanbagabas/go-udiff"
	_ "github.com/bmatcuk/doublestar/v4"
	_ "github.com/fsnotify/fsnotify"
	_ "github.com/go-git/go-git/v5"
	_ "github.com/google/uuid"
	_ "github.com/invopop/jsonschema"
	_ "github.com/openai/openai-go/v3"
	_ "github.com/pkoukk/tiktoken-go"
	_ "github.com/pkoukk/tiktoken-go-loader"
	_ "github.com/playwright-community/playwright-go"
	_ "github.com/segmentio/encoding/json"
	_ "github.com/sourcegraph/jsonrpc2"
	_ "go.uber.org/zap"
	_ "gopkg.in/natefinch/lumberjack.v2"
	_ "gopkg.in/yaml.v3"
	_ "modernc.org/sqlite"
	_ "mvdan.cc/sh/v3/syntax"
)

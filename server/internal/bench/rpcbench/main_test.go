package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidateRejectsBadOptions(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "govibe")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	good := options{bin: bin, cold: 20, calls: 2000, deltas: 10000, streams: 1}
	for _, c := range []struct {
		name  string
		edit  func(*options)
		args  []string
		wants string
	}{
		{"few cold starts", func(o *options) { o.cold = 5 }, nil, "at least 20"},
		{"few calls", func(o *options) { o.calls = 100 }, nil, "at least 2000"},
		{"no deltas", func(o *options) { o.deltas = 0 }, nil, "at least one delta"},
		{"no streams", func(o *options) { o.streams = 0 }, nil, "at least one stream"},
		{"missing binary", func(o *options) { o.bin = filepath.Join(dir, "nope") }, nil, "make sidecar"},
		{"directory as binary", func(o *options) { o.bin = dir }, nil, "not found"},
		{"stray arguments", func(*options) {}, []string{"extra"}, "unexpected arguments"},
	} {
		o := good
		c.edit(&o)
		err := o.validate(c.args)
		if err == nil || !strings.Contains(err.Error(), c.wants) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.wants)
		}
	}
	o := good
	o.bin, _ = filepath.Rel(mustGetwd(t), bin)
	if err := o.validate(nil); err != nil {
		t.Fatalf("valid options rejected: %v", err)
	}
	if o.bin != bin {
		t.Fatalf("binary path %q not made absolute (want %q)", o.bin, bin)
	}
}

func mustGetwd(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

package store

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
)

func TestEndpointToolCallingIsLearnedOnce(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	if m, err := s.EndpointToolCalling(ctx, "http://x/v1", "m"); err != nil || m != "" {
		t.Fatalf("unknown endpoint: %q %v", m, err)
	}
	var firsts atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			changed, err := s.LearnEndpointToolCalling(ctx, "http://x/v1", "m", "text")
			if err != nil {
				t.Error(err)
			}
			if changed {
				firsts.Add(1)
			}
		}()
	}
	wg.Wait()
	if firsts.Load() != 1 {
		t.Fatalf("%d runs were told they learned it first, want 1", firsts.Load())
	}
	if m, _ := s.EndpointToolCalling(ctx, "http://x/v1", "m"); m != "text" {
		t.Fatalf("learned %q", m)
	}
	if m, _ := s.EndpointToolCalling(ctx, "http://x/v1", "other"); m != "" {
		t.Fatalf("another model inherited %q", m)
	}
	if _, err := s.LearnEndpointToolCalling(ctx, "http://x/v1", "m", ""); err == nil {
		t.Fatal("an empty mode was accepted")
	}
}

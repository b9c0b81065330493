package humanerr

import (
	"context"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/model/providers"
	"github.com/govibe/govibe/server/internal/model/providers/recorded"
)

// TestEachPresetsErrorsSayWhatToDo replays every preset's own error
// bodies (context-length exceeded, rate limit, invalid key, unknown
// model: package recorded) through the real chat client built from the
// preset, and checks the message a person reads: it says what to do, in
// English and Chinese, offers the matching button, and names the
// window and the request's size when the provider's error does.
func TestEachPresetsErrorsSayWhatToDo(t *testing.T) {
	type want struct {
		en, zh, action string
	}
	wants := map[string]want{
		recorded.ContextLength: {"/compact", "/compact", "pickModel"},
		recorded.RateLimit:     {"Wait a minute and send again, or switch to another model.", "请稍候一分钟再发送,或换用其他模型。", "pickModel"},
		recorded.Auth:          {"rejected the API key", "拒绝了 API 密钥", "setApiKey"},
		recorded.UnknownModel:  {"does not know this model: pick another with /model", "不认识此模型:请用 /model 换一个", "pickModel"},
	}
	for _, p := range providers.All() {
		for _, pe := range recorded.Exchanges[p.ID].Errors {
			srv := scripted.Start(t, scripted.Reply{Text: "x", Faults: []scripted.Fault{scripted.StatusFault(pe.Status, pe.Body)}})
			prof := p.Profile("m1", "sk-test")
			prof.BaseURL, prof.ContextWindow = srv.URL(), 64000
			c, err := llm.New(prof, llm.Options{MaxAttempts: 1})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil)
			if err == nil {
				t.Fatalf("%s %d: no error", p.ID, pe.Status)
			}
			w := wants[pe.Kind]
			for lang, words := range map[string]string{"en": w.en, "zh-CN": w.zh} {
				tr := trIn(lang)
				info := Explain(tr, err, srv.URL())
				if !strings.Contains(info.Message, words) || info.Action != w.action {
					t.Errorf("%s %s (%s): %q action %q, want %q and %q", p.ID, pe.Kind, lang, info.Message, info.Action, words, w.action)
				}
				if pe.Window > 0 && pe.Requested > 0 {
					counts := "window is " + providers.KTokens(pe.Window)
					if lang == "zh-CN" {
						counts = "窗口为 " + providers.KTokens(pe.Window)
					}
					if !strings.Contains(info.Message, counts) || !strings.Contains(info.Message, providers.KTokens(pe.Requested)) {
						t.Errorf("%s (%s): %q does not name the window %d and the request %d", p.ID, lang, info.Message, pe.Window, pe.Requested)
					}
				}
			}
		}
	}
}

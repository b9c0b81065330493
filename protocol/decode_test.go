package protocol

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// TestLargeParamsDecodeWithoutCopies: params of a MB or more decode into
// the same values as encoding/json gives, with strings that are views of
// the message rather than copies (issue 31), and the same refusals.
func TestLargeParamsDecodeWithoutCopies(t *testing.T) {
	text := strings.Repeat("needle in a haystack ", zeroCopyAbove/20)
	cases := []any{
		&ChatSendParams{SessionID: "s1", Text: text, Editor: &EditorContext{ActiveFile: "a.go", Selection: "é\"\\\n\u2028"}},
		&SessionSearchParams{Query: text, Limit: 7},
		&SessionImportParams{},
	}
	for _, want := range cases {
		raw, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		if len(raw) < zeroCopyAbove {
			raw = append(raw[:len(raw)-1], []byte(`,"pad":"`+strings.Repeat("p", zeroCopyAbove)+`"}`)...)
		}
		got := reflect.New(reflect.TypeOf(want).Elem()).Interface()
		ref := reflect.New(reflect.TypeOf(want).Elem()).Interface()
		if err := decodeParams(raw, got); err != nil {
			t.Fatalf("%T: %v", want, err)
		}
		if err := json.Unmarshal(raw, ref); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, ref) {
			t.Fatalf("%T decoded differently from encoding/json", want)
		}
	}
	raw, _ := json.Marshal(ChatSendParams{SessionID: "s1", Text: text})
	var p ChatSendParams
	if err := decodeParams(raw, &p); err != nil {
		t.Fatal(err)
	}
	start, end := uintptr(unsafe.Pointer(&raw[0])), uintptr(unsafe.Pointer(&raw[len(raw)-1]))
	if at := uintptr(unsafe.Pointer(unsafe.StringData(p.Text))); at < start || at > end {
		t.Fatal("the text of large params is a copy, not a view of the message")
	}
	for _, bad := range []string{`{"text":1}`, `{"text":"x"} {}`, `{"text":"x"`} {
		b := []byte(bad[:len(bad)-1] + strings.Repeat(" ", zeroCopyAbove) + bad[len(bad)-1:])
		if err := decodeParams(b, &p); err == nil || !strings.Contains(err.Error(), "invalid params") {
			t.Errorf("%s…: want an invalid-params error, got %v", bad[:8], err)
		}
	}
}

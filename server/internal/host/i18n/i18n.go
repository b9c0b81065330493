package i18n

import (
	"fmt"
	"strings"
)

// Lang is a supported UI language.
type Lang string

const (
	English Lang = "en"
	Chinese Lang = "zh-cn"
)

// Pick chooses the language: govibe.language wins unless it is "auto",
// then the editor's UI locale.
func Pick(setting, locale string) Lang {
	s := strings.ToLower(strings.TrimSpace(setting))
	if s == "" || s == "auto" {
		s = strings.ToLower(locale)
	}
	if strings.HasPrefix(s, "zh") {
		return Chinese
	}
	return English
}

// T formats msg in lang.
func T(lang Lang, msg string, args ...any) string {
	if lang == Chinese {
		if zh, ok := zhCN[msg]; ok {
			msg = zh
		}
	}
	if len(args) == 0 {
		return msg
	}
	return fmt.Sprintf(msg, args...)
}

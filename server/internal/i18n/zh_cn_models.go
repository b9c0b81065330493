package i18n

// zhCNModels translates messages about model profiles: tool profiles and
// the context-length error in chat.
var zhCNModels = map[string]string{
	"Model profile %s: %s. All tools are offered.":           "模型配置 %s：%s。已提供全部工具。",
	"Model profile %s names tools GoVibe does not have: %s.": "模型配置 %s 列出了 GoVibe 没有的工具：%s。",
}

func init() {
	for k, v := range zhCNModels {
		zhCN[k] = v
	}
}

package i18n

// zhCNModels translates messages about model profiles: tool profiles and
// the context-length error in chat.
var zhCNModels = map[string]string{
	"Model profile %s: %s. All tools are offered.":                                                                             "模型配置 %s：%s。已提供全部工具。",
	"Model profile %s names tools GoVibe does not have: %s.":                                                                   "模型配置 %s 列出了 GoVibe 没有的工具：%s。",
	"This model's window is %s; the request was %s: compact the conversation (/compact) or pick a model with a larger window.": "此模型的窗口为 %s；本次请求为 %s：请压缩对话（/compact），或选择窗口更大的模型。",
	"The conversation no longer fits this model's %s window: compact it (/compact) or pick a model with a larger window.":      "对话已超出此模型 %s 的窗口：请压缩对话（/compact），或选择窗口更大的模型。",
	"The conversation no longer fits the context window of %s: compact it (/compact) or pick a model with a larger window.":    "对话已超出 %s 的上下文窗口：请压缩对话（/compact），或选择窗口更大的模型。",
}

func init() {
	for k, v := range zhCNModels {
		zhCN[k] = v
	}
}

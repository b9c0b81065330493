package i18n

// zhCNCompaction translates what a compaction kept outside its summary
// and the pause after an automatic compaction.
var zhCNCompaction = map[string]string{
	"your request":                                    "你的请求",
	"the todo list (%d of %d done)":                   "待办列表（已完成 %d/%d）",
	"your %d decisions":                               "你的 %d 项决定",
	"%d messages summarised.":                         "已总结 %d 条消息。",
	"%d messages summarised; kept word for word: %s.": "已总结 %d 条消息；原样保留：%s。",
	"Context was compacted — continue?":               "上下文已压缩——是否继续？",
	"Stopped after the conversation was compacted. Send a message to continue.": "对话压缩后已停止。发送消息即可继续。",
}

func init() {
	for k, v := range zhCNCompaction {
		zhCN[k] = v
	}
}

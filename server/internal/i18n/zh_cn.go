package i18n

// zhCN holds the Simplified Chinese translations. TestEveryMessageIsTranslated
// fails when a message passed to T anywhere in the sidecar is missing here.
var zhCN = map[string]string{
	"No API key is set for %s. Set one to start chatting.":                                                     "尚未为 %s 设置 API 密钥。请先设置密钥再开始对话。",
	"The model endpoint rejected the API key: %s":                                                              "模型服务拒绝了 API 密钥:%s",
	"The model endpoint cannot be reached: %s":                                                                 "无法连接模型服务:%s",
	"The model endpoint is rate-limiting requests: %s":                                                         "模型服务正在限流:%s",
	"The conversation no longer fits the model's context window: %s":                                           "对话已超出模型的上下文窗口:%s",
	"The model request failed: %s":                                                                             "模型请求失败:%s",
	"this session is still working on the previous message; stop it or wait":                                   "此会话仍在处理上一条消息;请先停止或等待其完成",
	"This run was interrupted because GoVibe's server stopped. Send \"continue\" to resume.":                   "由于 GoVibe 服务已停止,本次运行被中断。发送“继续”即可恢复。",
	"Stopped after %d tool rounds (%s); the model's next tool calls were not run. Send a message to continue.": "已在 %d 轮工具调用后停止(%s);模型随后的工具调用未执行。发送消息即可继续。",
	"No tool was run: %s is 0, which allows answers only. Send a message to continue.":                         "未执行任何工具:%s 为 0,只允许回答。发送消息即可继续。",
	"This endpoint does not accept tool definitions; switching to the text tool-call protocol.":                "该服务不接受工具定义;已切换为文本工具调用协议。",
	"Malformed tool call; asking the model to correct it.":                                                     "工具调用格式有误;已请模型更正。",
	"GoVibe could not start: %v":                                                                               "GoVibe 无法启动:%v",
	"Permission rule %s entry %d (%q) in %s is invalid and ignored: %v":                                        "权限规则 %s 的第 %d 项(%q,位于%s)无效,已忽略:%v",
	"your user settings":     "用户设置",
	"the workspace settings": "工作区设置",
	"the message is empty":   "消息为空",
}

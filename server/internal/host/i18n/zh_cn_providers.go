package i18n

// zhCNProviders translates the provider-error advice (package providers).
var zhCNProviders = map[string]string{
	"The provider rejected the API key: check it, or run \"GoVibe: Add Model\" to enter it again. (%s)":   "服务商拒绝了 API 密钥:请检查密钥,或运行 \"GoVibe: Add Model\" 重新输入。(%s)",
	"The provider is rate-limiting this key: wait a minute, or pick another model. (%s)":                  "服务商正在对此密钥限流:请稍候一分钟,或换用其他模型。(%s)",
	"The provider does not know this model: pick one from its list (govibe models list). (%s)":            "服务商不认识此模型:请从其列表中选择一个(govibe models list)。(%s)",
	"This model's window is %s; the request was %s: compact or pick a larger model.":                      "此模型的窗口为 %s;本次请求为 %s:请压缩对话,或选择窗口更大的模型。",
	"The request does not fit this model's window: compact or pick a larger model. (%s)":                  "请求超出了此模型的窗口:请压缩对话,或选择窗口更大的模型。(%s)",
	"The provider cannot be reached: check the base URL, that the server is running, and the proxy. (%s)": "无法连接服务商:请检查基础 URL、服务是否在运行,以及代理设置。(%s)",
	"%s has no model list; these are the models GoVibe knows for it.":                                     "%s 没有模型列表;以下是 GoVibe 已知的该服务商模型。",
}

func init() {
	for k, v := range zhCNProviders {
		zhCN[k] = v
	}
}

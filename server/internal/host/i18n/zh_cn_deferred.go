package i18n

// zhCNDeferred translates what the deferred tools' entry (more_tools)
// tells the person.
var zhCNDeferred = map[string]string{
	"%s was asked for a tool it does not have: %s.": "%s 被请求了一个它没有的工具：%s。",
}

func init() {
	for k, v := range zhCNDeferred {
		zhCN[k] = v
	}
}

package i18n

// zhCNTrust translates "Always allow" and the lifecycle-hook notices.
var zhCNTrust = map[string]string{
	"hooks":           "钩子",
	"MCP servers":     "MCP 服务器",
	"custom commands": "自定义命令",
	"custom agents":   "自定义智能体",
	"skills":          "技能",
	"Could not save the always-allow rule: %v": "无法保存“始终允许”规则：%v",
	"Always allowed from now on: %s. Revoke it with “GoVibe: Always-Allowed Rules” or govibe permissions revoke.": "从现在起始终允许：%s。可通过“GoVibe: Always-Allowed Rules”或 govibe permissions revoke 撤销。",
	"Not fetched: your permission rule %s denies it.":                                                             "未获取：你的权限规则 %s 拒绝了它。",
	"Not fetched: a headless run fetches only with --approve all or an allow rule such as %s.":                    "未获取：无界面运行只在使用 --approve all 或有允许规则（例如 %s）时获取网页。",
	"A Stop hook asked the agent to continue: %s":                                                                 "Stop 钩子要求智能体继续：%s",
	"A Stop hook blocked the end of the turn %d times; GoVibe stopped anyway so it cannot loop. Its reason: %s":   "Stop 钩子已 %d 次阻止本轮结束；为避免循环，GoVibe 仍然结束了本轮。其原因：%s",
}

func init() {
	for k, v := range zhCNTrust {
		zhCN[k] = v
	}
}

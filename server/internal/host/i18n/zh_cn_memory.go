package i18n

// zhCNMemory translates what the user reads about project memory.
var zhCNMemory = map[string]string{
	"This creates the project memory in %s: GoVibe's notes about this project (purpose, file inventory, roles), which it reads on demand in later sessions.": "这会在 %s 创建项目记忆：GoVibe 关于本项目的笔记（用途、文件清单、角色），以后的会话会按需读取。",
}

func init() {
	for k, v := range zhCNMemory {
		zhCN[k] = v
	}
}

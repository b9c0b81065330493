package i18n

// zhCNTools translates the tool errors a person reads in a tool card
// (the model's text for them stays English).
var zhCNTools = map[string]string{
	"%s does not exist.":                                                                  "%s 不存在。",
	"%s exists and is a file, not a folder.":                                              "%s 已存在，且是文件而不是文件夹。",
	"%s failed unexpectedly: %v":                                                          "%s 意外失败：%v",
	"%s failed: %v":                                                                       "%s 失败：%v",
	"%s is a binary file (%s); only text files are handled.":                              "%s 是二进制文件（%s）；只处理文本文件。",
	"%s is a file, not a folder.":                                                         "%s 是文件，不是文件夹。",
	"%s is a folder, not a file.":                                                         "%s 是文件夹，不是文件。",
	"%s is not a text page (%s).":                                                         "%s 不是文本页面（%s）。",
	"%s is too large (%s) for this tool.":                                                 "%s 太大（%s），此工具无法处理。",
	"%s is too large, or the disk is full.":                                               "%s 太大，或磁盘已满。",
	"%s stopped: %v":                                                                      "%s 已停止：%v",
	"%s was called with arguments that are not a JSON object.":                            "调用 %s 时传入的参数不是 JSON 对象。",
	"%s was called with the argument %s of the wrong type (%s).":                          "调用 %s 时参数 %s 的类型不对（%s）。",
	"%s was called without an objective.":                                                 "调用 %s 时没有给出目标。",
	"%s was called without the required argument(s): %s.":                                 "调用 %s 时缺少必需的参数：%s。",
	"%s: the command is empty.":                                                           "%s：命令为空。",
	"%s: the context lines must be 0 or more.":                                            "%s：上下文行数必须为 0 或更多。",
	"%s: the message is empty.":                                                           "%s：消息为空。",
	"%s: the occurrence must be 1 or more and the context lines 0 or more.":               "%s：出现序号必须为 1 或更多，上下文行数必须为 0 或更多。",
	"%s: the offset must be 0 or more.":                                                   "%s：偏移量必须为 0 或更多。",
	"%s: the pattern %s is not valid.":                                                    "%s：模式 %s 无效。",
	"%s: the pattern is empty.":                                                           "%s：模式为空。",
	"%s: the query is empty.":                                                             "%s：查询为空。",
	"%s: the scope must be session or workspace.":                                         "%s：范围必须是 session 或 workspace。",
	"%s: the text to search for is empty.":                                                "%s：要查找的文本为空。",
	"A part of %s is a file, not a folder.":                                               "%s 路径中的某一部分是文件，而不是文件夹。",
	"Could not access %s: %v":                                                             "无法访问 %s：%v",
	"Could not activate the skill %s: %v":                                                 "无法启用技能 %s：%v",
	"Could not fetch %s: %v":                                                              "无法获取 %s：%v",
	"Diagnostics are unavailable: no editor is attached.":                                 "无法获取诊断信息：没有连接编辑器。",
	"File not found: %s":                                                                  "找不到文件：%s",
	"Folder not found: %s":                                                                "找不到文件夹：%s",
	"Path not found: %s":                                                                  "找不到路径：%s",
	"Lines %d–%d are out of range for %s, which has %d lines.":                            "第 %d–%d 行超出了 %s 的范围（该文件共 %d 行）。",
	"No MCP tool named %s is available here.":                                             "此处没有名为 %s 的 MCP 工具。",
	"No skill named %s.":                                                                  "没有名为 %s 的技能。",
	"No workspace folder is open.":                                                        "没有打开工作区文件夹。",
	"Not fetched: the fetch needs approval and no one is available to approve it.":        "未获取：获取网页需要批准，但没有人可以批准。",
	"Not run: a PreToolUse hook blocked it: %s":                                           "未运行：PreToolUse 钩子阻止了它：%s",
	"Not run: the browser run needs approval and no one is available to approve it.":      "未运行：浏览器任务需要批准，但没有人可以批准。",
	"Not run: the browser run was declined.":                                              "未运行：浏览器任务被拒绝。",
	"Not run: the call of %s needs approval and no one is available to approve it.":       "未运行：调用 %s 需要批准，但没有人可以批准。",
	"Not run: the call of %s was declined.":                                               "未运行：对 %s 的调用被拒绝。",
	"Not run: the command %s is not allowed at this step.":                                "未运行：此步骤不允许命令 %s。",
	"Not run: the command needs approval and no one is available to approve it.":          "未运行：该命令需要批准，但没有人可以批准。",
	"Not run: the command was refused.":                                                   "未运行：该命令被拒绝。",
	"Not run: the same call was already made in this step.":                               "未运行：此步骤中已做过完全相同的调用。",
	"Not run: the turn was stopped.":                                                      "未运行：本轮已停止。",
	"Not written: %s changed while the change waited for approval.":                       "未写入：%s 在修改等待批准期间已被改动。",
	"Not written: edits are turned off (the lock toggle).":                                "未写入：修改已关闭（锁定开关）。",
	"Not written: lines %d–%d of %s are not valid UTF-8 text.":                            "未写入：%[3]s 的第 %[1]d–%[2]d 行不是有效的 UTF-8 文本。",
	"Not written: the change to %s needs approval and no one is available to approve it.": "未写入：对 %s 的修改需要批准，但没有人可以批准。",
	"Not written: the change to %s was rejected.":                                         "未写入：对 %s 的修改被拒绝。",
	"Not written: lines %d–%d are outside %s as the model read it.":                       "未写入：第 %d–%d 行超出了模型读取到的 %s 的范围。",
	"Not written: this step may not change %s.":                                           "未写入：此步骤不允许修改 %s。",
	"Not written: this step may not change the test part of %s; the change was undone.":   "未写入：此步骤不允许修改 %s 中与测试相关的部分；该修改已撤销。",
	"Notification not shown: it has %d characters, at most %d are allowed.":               "通知未显示：它有 %d 个字符，最多允许 %d 个。",
	"Notification not shown: notifications cannot be shown in this run.":                  "通知未显示：本次运行无法显示通知。",
	"Notification not shown: the severity %s is not info, warning or error.":              "通知未显示：级别 %s 不是 info、warning 或 error。",
	"Notification not shown: this turn already showed %d notifications.":                  "通知未显示：本轮已显示了 %d 条通知。",
	"Occurrence %d was asked for, but the text occurs only %d time(s) in %s.":             "要求第 %d 次出现，但该文本在 %[3]s 中只出现了 %[2]d 次。",
	"Only the main conversation can be compacted.":                                        "只有主对话可以压缩。",
	"Permission denied: %s.":                                                              "权限不足：%s。",
	"Refused: %v":                                                                         "已拒绝：%v",
	"Skills are not available in this session.":                                           "本会话中无法使用技能。",
	"Stopped while %s was running.":                                                       "%s 运行时已被停止。",
	"Text not found in %s.":                                                               "在 %s 中找不到该文本。",
	"The MCP server %s could not run %s: %v":                                              "MCP 服务器 %s 无法运行 %s：%v",
	"The browser is not available: %v":                                                    "浏览器不可用：%v",
	"The browser run failed: %v":                                                          "浏览器任务失败：%v",
	"The browser task is not valid: %v":                                                   "浏览器任务无效：%v",
	"The command could not start: %v":                                                     "命令无法启动：%v",
	"The diff failed: %v":                                                                 "比较差异失败：%v",
	"The editor could not provide diagnostics: %v":                                        "编辑器无法提供诊断信息：%v",
	"The investigation did not return a valid report: %v":                                 "调查没有返回有效的报告：%v",
	"The model called %s with invalid arguments; it was told what to fix.":                "模型调用 %s 时参数无效；已告知它如何更正。",
	"The parent folder of %s does not exist.":                                             "%s 的上级文件夹不存在。",
	"The plan reviewer did not accept the plan; the model revises it.":                    "计划审查未通过该计划；模型将修改它。",
	"The report is not valid; the agent is asked to correct it: %v":                       "报告无效；已请智能体更正：%v",
	"The report of this step was not accepted: %v":                                        "此步骤的报告未被接受：%v",
	"The search failed: %v":                                                               "搜索失败：%v",
	"The search pattern %s is not a valid regular expression.":                            "搜索模式 %s 不是有效的正则表达式。",
	"The summary could not be made (%s); large old tool outputs were shortened instead, saving %d tokens.": "无法生成摘要（%s）；已改为缩短较早的大段工具输出，节省了 %d 个 token。",
	"The todo item could not be completed: %v":                                                             "无法完成该待办事项：%v",
	"The todo plan was not accepted: %v":                                                                   "待办计划未被接受：%v",
	"Web access is turned off in this session.":                                                            "本会话已关闭网络访问。",
	"changes/%s has %d problem(s):":                                                                        "changes/%s 有 %d 个问题：",
}

func init() {
	for k, v := range zhCNTools {
		zhCN[k] = v
	}
}

// zhCNAsk translates ask_human's refusals.
var zhCNAsk = map[string]string{
	"%s: the question is empty.":                                      "%s：问题为空。",
	"Not asked: the question has %d choices, at most %d are allowed.": "未提问：该问题有 %d 个选项，最多允许 %d 个。",
	"Not asked: a choice is longer than %d characters.":               "未提问：有选项超过了 %d 个字符。",
	"Not fetched: you declined fetching %s.":                          "未获取：你拒绝了获取 %s。",
	"Not asked: no one is available to answer in this run.":           "未提问：本次运行中没有人可以回答。",
}

func init() {
	for k, v := range zhCNAsk {
		zhCN[k] = v
	}
}

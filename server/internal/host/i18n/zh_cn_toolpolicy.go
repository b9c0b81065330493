package i18n

// zhCNToolPolicy translates why a tool is not offered here
// (toolpolicy.Reason), shown with a refused call.
var zhCNToolPolicy = map[string]string{
	"Not run: %s is not available here: %s.":                                                        "未运行：此处无法使用 %s：%s。",
	"no editor is attached (headless run): run the build or linter with the shell instead":          "未连接编辑器（无界面运行）：请改用 shell 运行构建或 linter",
	"not offered by this model's tool profile (%s)":                                                 "此模型的工具配置（%s）未提供该工具",
	"the command that started this turn does not allow this tool (its allowedTools)":                "发起本轮的命令不允许使用该工具（见其 allowedTools）",
	"a side conversation (btw) never starts a todo plan":                                            "旁支对话（btw）从不创建待办计划",
	"items are completed by the evaluator while the scheduler runs the plan":                        "调度器执行计划时，条目由评估者标记完成",
	"the plan has just finished; summarise the results instead of planning again":                   "计划刚刚完成；请总结结果，不要再次制定计划",
	"executors carry out their item; the evaluator decides whether it is done and changes the plan": "执行者只完成自己的条目；由评估者判断是否完成并修改计划",
	"global compaction runs only in the free phase":                                                 "全局压缩只在自由阶段运行",
	"evaluators only read and check; they never edit, write or run commands that change anything":   "评估者只读取和检查；从不编辑、写入或运行会改变内容的命令",
	"reviewers judge the proposal they are shown and call no tool":                                  "审阅者只评判展示给它的提案，不调用任何工具",
	"the investigator only reads and searches the workspace":                                        "调查者只读取和搜索工作区",
	"this agent's definition does not list this tool":                                               "该智能体的定义未列出此工具",
	"Plan mode does not allow %s: nothing changes until the proposed plan is run":                   "计划模式不允许 %s：在运行所提议的计划之前不做任何更改",
	"the EXPLORING phase does not allow %s: it reads and searches, then reports its findings":       "EXPLORING 阶段不允许 %s：该阶段只读取和搜索，然后报告发现",
	"the PLANNING phase does not allow %s: it reads the files it found, then reports a plan":        "PLANNING 阶段不允许 %s：该阶段读取找到的文件，然后报告计划",
	"the PATCHING phase does not allow %s: it changes files step by step, as the plan says":         "PATCHING 阶段不允许 %s：该阶段按计划逐步修改文件",
	"the VERIFYING phase does not allow %s: it runs the checks and reports":                         "VERIFYING 阶段不允许 %s：该阶段运行检查并报告",
	"the %s phase does not allow %s: the run has ended":                                             "%s 阶段不允许 %s：运行已结束",
	"the specifier phase does not allow %s: it reads, writes the tests and runs them":               "规格编写阶段不允许 %s：该阶段读取、编写测试并运行测试",
	"the coder phase does not allow %s: it reads, changes the code and runs the tests":              "编码阶段不允许 %s：该阶段读取、修改代码并运行测试",
	"the auditor phase does not allow %s: the auditor runs the tests and calls no model":            "审计阶段不允许 %s：审计者只运行测试，不调用模型",
	"the manifest phase does not allow %s: it reads, then writes the manifest with write_file":      "清单阶段不允许 %s：该阶段读取文件，然后用 write_file 写入清单",
}

func init() {
	for k, v := range zhCNToolPolicy {
		zhCN[k] = v
	}
}

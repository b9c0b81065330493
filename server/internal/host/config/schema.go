package config

//go:generate go run ./generate -root ../../../..

// Scope says who may set a setting. VS Code merges workspace settings over
// the user's; GoVibe lets a repository make itself stricter but never grant
// itself anything, so every key declares what a workspace may do with it.
type Scope string

const (
	// Workspace: a workspace value replaces the user's.
	Workspace Scope = "workspace"
	// Restrict: a workspace may only set the stricter value (Setting.Stricter),
	// only lower a limit (Setting.Lower), or its values land on
	// Setting.WorkspaceKey as extra rules.
	Restrict Scope = "restrict"
	// UserOnly: never taken from a workspace (endpoint, key, proxy, allow
	// rules, which binary runs).
	UserOnly Scope = "user"
)

// Setting declares one govibe.* key. It is the single source for the
// defaults below, package.json's contributes.configuration and its nls
// entries, the typed accessors (settings_gen.go), the extension's TS types
// and the README table; see `go generate ./server/internal/host/config`.
type Setting struct {
	Key     string // without the "govibe." prefix
	Type    string // boolean, integer, number, string, array, object
	Default any    // JSON value: bool, float64, string, []any
	Scope   Scope
	// Stricter is the one value a workspace may set for a Restrict boolean.
	Stricter any
	// Lower makes a Restrict number a limit where 0 means none (a budget):
	// a workspace may set one where the user has none, or a lower one,
	// never a higher one or none. When both are set the lower wins.
	Lower bool
	// WorkspaceKey receives a workspace's values of a Restrict list
	// (permissions.deny from .vscode/settings.json → permissions.workspace.deny).
	WorkspaceKey string
	Unit         string // ms, tokens, days, MB, minutes, fraction
	Enum         []string
	Min, Max     *float64
	Items        string // element type of an array: "string", or "model" (a profile)
	EN, ZH       string // description; Markdown when Markdown is set
	Markdown     bool
	VSCodeScope  string // package.json scope; "" = the default (window)
	Internal     bool   // not contributed to VS Code (legacy or set by the sidecar)
	Secret       bool   // never printed
	// ObjectSchema describes an object setting's shape for VS Code's
	// settings.json validation: JSON Schema keywords added verbatim.
	ObjectSchema map[string]any
}

// Legacy is a renamed key: values under Old are converted and moved to New.
type Legacy struct {
	Old, New string
	// Convert maps an old value to the new key's unit.
	Convert func(any) any
	EN, ZH  string // how the old value was read, for the warning
}

// ModelField is one property of a govibe.models profile.
type ModelField struct {
	Name, Type string
	Enum       []string
	Default    any
	Min        *float64
	// Optional fields are pointers in ModelProfile: unset differs from
	// zero (a temperature of 0 is a choice).
	Optional bool
	// Internal fields are read but not offered: not in package.json, its
	// nls files or the TS types (the legacy plain-text key).
	Internal bool
	EN, ZH   string
}

func num(f float64) *float64 { return &f }

// Schema lists every setting in the order VS Code shows them.
var Schema = []Setting{
	{Key: "apiBaseUrl", Type: "string", Default: "https://api.deepseek.com", Scope: UserOnly, VSCodeScope: "application",
		EN: "Base URL of the OpenAI-compatible API.", ZH: "兼容 OpenAI 的 API 基础地址。"},
	{Key: "model", Type: "string", Default: "deepseek-reasoner", Scope: Workspace, Markdown: true,
		EN: "Model name, or the name of a profile from `#govibe.models#`.", ZH: "模型名称，或 `#govibe.models#` 中某个配置的名称。"},
	{Key: "models", Type: "array", Items: "model", Default: []any{}, Scope: UserOnly, VSCodeScope: "application", Markdown: true,
		EN: "Model profiles. API keys belong in SecretStorage: use `GoVibe: Set API Key`.", ZH: "模型配置列表。API 密钥请通过 `GoVibe: 设置 API 密钥` 保存在安全存储中。"},
	{Key: "roles.executor", Type: "string", Default: "", Scope: Workspace, Markdown: true,
		EN: "Profile (from `#govibe.models#`) used for executor sub-agents; empty uses the session's model (govibe.model, or the one /model or the model picker chose).", ZH: "用于执行子代理的配置（来自 `#govibe.models#`）；留空则使用会话的模型（govibe.model，或通过 /model 或模型选择器选定的模型）。"},
	{Key: "roles.evaluator", Type: "string", Default: "", Scope: Workspace, Markdown: true,
		EN: "Profile (from `#govibe.models#`) used for evaluator sub-agents; empty uses the session's model (govibe.model, or the one /model or the model picker chose).", ZH: "用于评估子代理的配置（来自 `#govibe.models#`）；留空则使用会话的模型（govibe.model，或通过 /model 或模型选择器选定的模型）。"},
	{Key: "roles.reviewer", Type: "string", Default: "", Scope: Workspace, Markdown: true,
		EN: "Profile (from `#govibe.models#`) used for edit, shell and plan reviews (a small, fast model is the common case); empty uses the session's model (govibe.model, or the one /model or the model picker chose).", ZH: "用于编辑、命令与计划审查（常用小而快的模型）的配置（来自 `#govibe.models#`）；留空则使用会话的模型（govibe.model，或通过 /model 或模型选择器选定的模型）。"},
	{Key: "roles.investigator", Type: "string", Default: "", Scope: Workspace, Markdown: true,
		EN: "Profile (from `#govibe.models#`) used for investigator sub-agents; empty uses the session's model (govibe.model, or the one /model or the model picker chose).", ZH: "用于调查子代理的配置（来自 `#govibe.models#`）；留空则使用会话的模型（govibe.model，或通过 /model 或模型选择器选定的模型）。"},
	{Key: "roles.compaction", Type: "string", Default: "", Scope: Workspace, Markdown: true,
		EN: "Profile (from `#govibe.models#`) used for conversation compaction; empty uses the session's model (govibe.model, or the one /model or the model picker chose).", ZH: "用于对话压缩的配置（来自 `#govibe.models#`）；留空则使用会话的模型（govibe.model，或通过 /model 或模型选择器选定的模型）。"},
	{Key: "roles.title", Type: "string", Default: "", Scope: Workspace, Markdown: true,
		EN: "Profile (from `#govibe.models#`) used for session titles; empty uses the session's model (govibe.model, or the one /model or the model picker chose).", ZH: "用于会话标题的配置（来自 `#govibe.models#`）；留空则使用会话的模型（govibe.model，或通过 /model 或模型选择器选定的模型）。"},
	{Key: "titles.model", Type: "boolean", Default: false, Scope: Workspace, Markdown: true,
		EN: "Name new sessions with a model (`#govibe.roles.title#`, else the main model) instead of the first message's words. Setting `#govibe.roles.title#` turns this on.", ZH: "用模型（`#govibe.roles.title#`，否则为主模型）为新会话命名，而不是取第一条消息的文字。设置 `#govibe.roles.title#` 即会开启。"},
	{Key: "language", Type: "string", Default: "auto", Scope: Workspace, Enum: []string{"auto", "en", "zh-CN"},
		EN: "Language of the agent's replies and UI: follow VS Code, English or Simplified Chinese.", ZH: "助手回复与界面的语言：跟随 VS Code、英文或简体中文。"},
	{Key: "logLevel", Type: "string", Default: "info", Scope: Workspace, Enum: []string{"debug", "info", "warn", "error"},
		EN: "Sidecar log level.", ZH: "后台服务的日志级别。"},
	{Key: "proxy", Type: "string", Default: "", Scope: UserOnly, VSCodeScope: "application",
		EN: "HTTP(S) proxy for API requests; empty uses the environment.", ZH: "API 请求使用的 HTTP(S) 代理；留空则使用环境变量。"},
	{Key: "server.path", Type: "string", Default: "", Scope: UserOnly, VSCodeScope: "machine",
		EN: "Path to a govibe binary to use instead of the bundled one.", ZH: "使用指定路径的 govibe 程序代替内置程序。"},
	{Key: "browser.executablePath", Type: "string", Default: "", Scope: UserOnly, VSCodeScope: "machine",
		EN: "Chromium or Chrome binary for the browser sub-agent; empty finds an installed Chromium, Chrome or Edge.", ZH: "浏览器子代理使用的 Chromium 或 Chrome 程序；留空则自动查找已安装的 Chromium、Chrome 或 Edge。"},
	{Key: "browser.allowLocalhost", Type: "boolean", Default: false, Scope: UserOnly, VSCodeScope: "application", Markdown: true,
		EN: "Let the browser sub-agent open `localhost` and other loopback addresses, e.g. to test your own dev server. Private and internal network addresses stay refused.", ZH: "允许浏览器子代理访问 `localhost` 等回环地址（例如测试你自己的开发服务器）。私有和内部网络地址仍会被拒绝。"},
	{Key: "trace.server", Type: "boolean", Default: false, Scope: Workspace,
		EN: "Log every JSON-RPC message to the \"GoVibe (JSON-RPC trace)\" output channel.", ZH: "在“GoVibe (JSON-RPC trace)”输出通道中记录所有 JSON-RPC 消息。"},
	{Key: "confirmChanges", Type: "boolean", Default: true, Scope: Restrict, Stricter: true,
		EN: "Ask before applying file edits.", ZH: "应用文件修改前征求确认。"},
	{Key: "confirmShellCommand", Type: "boolean", Default: true, Scope: Restrict, Stricter: true,
		EN: "Ask before running shell commands.", ZH: "运行 Shell 命令前征求确认。"},
	{Key: "maxInteractions", Type: "integer", Default: float64(-1), Scope: Workspace, Min: num(-1),
		EN: "Maximum tool rounds per turn (the model then answers once more from the results); 0 answers without tools; -1 means unlimited.", ZH: "每轮最多执行的工具轮数（之后模型再根据结果回答一次）；0 表示不使用工具直接回答；-1 表示不限。"},
	{Key: "autoApprove.edits", Type: "boolean", Default: false, Scope: Restrict, Stricter: false,
		EN: "Accept edits without asking.", ZH: "无需确认直接接受修改。"},
	{Key: "autoApprove.editsDelayMs", Type: "integer", Default: float64(0), Scope: Workspace, Unit: "ms", Min: num(0),
		EN: "Milliseconds to show an edit before it is accepted automatically; 0 accepts at once.", ZH: "自动接受修改前的展示时间（毫秒）；0 表示立即接受。"},
	{Key: "autoApprove.readOnlyCommands", Type: "boolean", Default: true, Scope: Restrict, Stricter: false,
		EN: "Run read-only shell commands without asking.", ZH: "只读 Shell 命令无需确认直接运行。"},
	{Key: "toolCalling", Type: "string", Default: "auto", Scope: Workspace, Enum: []string{"native", "text", "auto"},
		EN: "How tools are called when the profile does not say: native function calling, a text protocol, or auto-detect.", ZH: "配置未指定时的工具调用方式：原生函数调用、文本协议或自动检测。"},
	{Key: "askHuman.timeoutMs", Type: "integer", Default: float64(1800000), Scope: Workspace, Unit: "ms", Min: num(1000),
		EN: "How long ask_human waits for the user's reply before telling the model nobody answered, in milliseconds.", ZH: "ask_human 等待用户回复的时间（毫秒），超时后告知模型无人回答。"},
	{Key: "shell.timeoutMs", Type: "integer", Default: float64(120000), Scope: Workspace, Unit: "ms", Min: num(1000),
		EN: "Default timeout of one shell command in milliseconds.", ZH: "单条 Shell 命令的默认超时时间（毫秒）。"},
	{Key: "shell.maxTimeoutMs", Type: "integer", Default: float64(600000), Scope: Workspace, Unit: "ms", Min: num(1000),
		EN: "Longest timeout the model may ask for one shell command, in milliseconds.", ZH: "模型可为单条 Shell 命令申请的最长超时时间（毫秒）。"},
	{Key: "web.allowHosts", Type: "array", Items: "string", Default: []any{}, Scope: UserOnly, VSCodeScope: "application",
		EN: "Host names web_fetch and @url may reach even though they resolve to private or internal addresses. Only user settings count.", ZH: "即使解析到内网或私有地址，web_fetch 与 @url 仍可访问的主机名。只有用户设置生效。"},
	{Key: "contextFiles", Type: "array", Items: "string", Default: []any{}, Scope: Workspace,
		EN: "More instruction files (paths relative to each workspace folder) read like AGENTS.md and sent to the model in the first message of a session.", ZH: "更多说明文件（相对于各工作区文件夹的路径），与 AGENTS.md 一样读取，并在会话的第一条消息中发送给模型。"},
	{Key: "shell.env.passthrough", Type: "array", Items: "string", Default: []any{}, Scope: UserOnly,
		EN: "Environment variables passed to commands although they look like credentials (exact names, or PREFIX_*). Only user settings count.", ZH: "即使看起来像凭据也传给命令的环境变量（完整名称或 PREFIX_*）。只有用户设置生效。"},
	{Key: "sandbox.enabled", Type: "boolean", Default: true, Scope: UserOnly, VSCodeScope: "machine", Markdown: true,
		EN: "Run every shell command in the OS sandbox (bubblewrap, or Landlock where bwrap is missing): the system read-only, the workspace writable only when a command is approved to write, secrets masked, network only through GoVibe's allowlisting proxy. Turning it off makes commands run unconfined, judged by the static analysis alone. Only user settings count.",
		ZH: "在操作系统沙箱中运行每条 Shell 命令（bubblewrap；缺少 bwrap 时用 Landlock）：系统只读，仅在命令获准写入时工作区可写，机密被遮蔽，网络只能经由 GoVibe 的白名单代理。关闭后命令不受限运行，只由静态分析判断。只有用户设置生效。"},
	{Key: "sandbox.autoApprove", Type: "boolean", Default: true, Scope: UserOnly, VSCodeScope: "machine",
		EN: "While the sandbox works, run commands that do not change the workspace without asking, in the read-only sandbox with no network. Commands that write still ask. Only user settings count.",
		ZH: "沙箱可用时，不修改工作区的命令无需确认，在只读、无网络的沙箱中运行。会写入的命令仍需确认。只有用户设置生效。"},
	{Key: "sandbox.network.allowedDomains", Type: "array", Items: "string", Default: []any{}, Scope: UserOnly, VSCodeScope: "machine",
		EN: "Domains sandboxed commands may reach through GoVibe's proxy once approved (example.com, or *.example.com for its subdomains). Only user settings count: a workspace can never add one.",
		ZH: "获准后沙箱中的命令可经 GoVibe 代理访问的域名（example.com，或 *.example.com 表示其子域名）。只有用户设置生效：工作区不能添加。"},
	{Key: "sandbox.network.allowRegistries", Type: "boolean", Default: true, Scope: UserOnly, VSCodeScope: "machine",
		EN: "Let approved sandboxed commands reach the public package registries (npm, PyPI, the Go module proxy and checksum database, crates.io). Only user settings count.",
		ZH: "允许获准的沙箱命令访问公共软件包仓库（npm、PyPI、Go 模块代理与校验数据库、crates.io）。只有用户设置生效。"},
	{Key: "sandbox.mask", Type: "array", Items: "string", Default: []any{}, Scope: UserOnly, VSCodeScope: "machine",
		EN: "More files or folders (absolute, or ~/…) hidden from sandboxed commands by an empty file or folder. Only user settings count.",
		ZH: "对沙箱中的命令以空文件或空文件夹遮蔽的更多文件或文件夹（绝对路径或 ~/…）。只有用户设置生效。"},
	{Key: "sandbox.maxProcesses", Type: "integer", Default: float64(1024), Scope: UserOnly, VSCodeScope: "machine", Min: num(16),
		EN: "Most processes one sandboxed command may run at once.", ZH: "单条沙箱命令同时可运行的最多进程数。"},
	{Key: "sandbox.maxMemoryMB", Type: "integer", Default: float64(8192), Scope: UserOnly, VSCodeScope: "machine", Unit: "MB", Min: num(64),
		EN: "Most data memory one process of a sandboxed command may use, in MB.", ZH: "沙箱命令中单个进程可使用的最大数据内存（MB）。"},
	{Key: "editReview.enabled", Type: "boolean", Default: false, Scope: Restrict, Stricter: true,
		EN: "Let a reviewer model check each edit before it is proposed.", ZH: "在提出修改前由审查模型检查每处修改。"},
	{Key: "editReview.timeoutMs", Type: "integer", Default: float64(60000), Scope: Workspace, Unit: "ms", Min: num(0),
		EN: "Timeout of one edit review in milliseconds.", ZH: "单次修改审查的超时时间（毫秒）。"},
	{Key: "editReview.model", Type: "string", Default: "", Scope: Workspace,
		EN: "Model or profile name of the edit reviewer; empty uses the chat model.", ZH: "修改审查所用的模型或配置名称；留空则使用对话模型。"},
	{Key: "todolistReview.enabled", Type: "boolean", Default: false, Scope: Restrict, Stricter: true,
		EN: "Let a reviewer model check the todo list before it runs.", ZH: "在执行前由审查模型检查待办列表。"},
	{Key: "todolistReview.maxAttempts", Type: "integer", Default: float64(5), Scope: Workspace, Min: num(1),
		EN: "How many times a todo list may be revised after review.", ZH: "待办列表审查后最多修订的次数。"},
	{Key: "todolistReview.timeoutMs", Type: "integer", Default: float64(60000), Scope: Workspace, Unit: "ms", Min: num(0),
		EN: "Timeout of one todo list review in milliseconds.", ZH: "单次待办列表审查的超时时间（毫秒）。"},
	{Key: "todolistReview.model", Type: "string", Default: "", Scope: Workspace,
		EN: "Model or profile name of the todo list reviewer; empty uses the chat model.", ZH: "待办列表审查所用的模型或配置名称；留空则使用对话模型。"},
	{Key: "shellCommandReview.enabled", Type: "boolean", Default: false, Scope: Restrict, Stricter: true,
		EN: "Let a reviewer model check shell commands before they run.", ZH: "在运行前由审查模型检查 Shell 命令。"},
	{Key: "shellCommandReview.maxAttempts", Type: "integer", Default: float64(2), Scope: Workspace, Min: num(1),
		EN: "How many times a shell command may be revised after review.", ZH: "Shell 命令审查后最多修订的次数。"},
	{Key: "shellCommandReview.timeoutMs", Type: "integer", Default: float64(60000), Scope: Workspace, Unit: "ms", Min: num(0),
		EN: "Timeout of one shell command review in milliseconds.", ZH: "单次 Shell 命令审查的超时时间（毫秒）。"},
	{Key: "shellCommandReview.model", Type: "string", Default: "", Scope: Workspace,
		EN: "Model or profile name of the shell command reviewer; empty uses the chat model.", ZH: "Shell 命令审查所用的模型或配置名称；留空则使用对话模型。"},
	{Key: "scheduler.maxRetries", Type: "integer", Default: float64(2), Scope: Workspace, Min: num(0),
		EN: "How often a failed todo item is retried.", ZH: "失败的待办事项最多重试的次数。"},
	{Key: "scheduler.maxAgentTurns", Type: "integer", Default: float64(30), Scope: Workspace, Min: num(1),
		EN: "Maximum tool rounds of one executor or evaluator agent.", ZH: "单个执行或评估智能体最多的工具调用轮数。"},
	{Key: "scheduler.maxAgentMinutes", Type: "number", Default: float64(15), Scope: Workspace, Unit: "minutes", Min: num(0),
		EN: "Maximum minutes one executor or evaluator agent may run.", ZH: "单个执行或评估智能体最长的运行时间（分钟）。"},
	{Key: "reconcile.maxTotalLoops", Type: "integer", Default: float64(10), Scope: Workspace, Min: num(1),
		EN: "Reconcile mode: loops (coder, then auditor) before the run fails with CrashLoopBackOff.", ZH: "协调模式：运行以 CrashLoopBackOff 失败前最多的循环次数（编码后审计）。"},
	{Key: "reconcile.maxStagnation", Type: "integer", Default: float64(5), Scope: Workspace, Min: num(1),
		EN: "Reconcile mode: loops in a row without the failing-test count falling by 10% before the run fails.", ZH: "协调模式：失败测试数连续多少次循环未下降 10% 即判定运行失败。"},
	{Key: "reconcile.testTimeoutMs", Type: "integer", Default: float64(600000), Scope: Workspace, Unit: "ms", Min: num(1000),
		EN: "Reconcile mode: timeout of the auditor's test command in milliseconds.", ZH: "协调模式：审计器测试命令的超时时间（毫秒）。"},
	{Key: "compact.threshold", Type: "number", Default: 0.7, Scope: Workspace, Unit: "fraction", Min: num(0.1), Max: num(1),
		EN: "Fraction of the context window at which the conversation is compacted.", ZH: "上下文占用达到窗口的该比例时压缩对话。"},
	{Key: "compact.keepTokens", Type: "integer", Default: float64(20000), Scope: Workspace, Unit: "tokens", Min: num(0),
		EN: "Tokens of recent conversation kept verbatim when compacting.", ZH: "压缩时原样保留的最近对话 token 数。"},
	{Key: "compact.askToContinue", Type: "boolean", Default: false, Scope: Workspace,
		EN: "After an automatic compaction, pause and ask whether to continue before the next model request (the card names what was summarised and kept). Headless runs never pause.",
		ZH: "自动压缩后，在下一次模型请求前暂停并询问是否继续（卡片列出被总结和原样保留的内容）。无界面运行从不暂停。"},
	{Key: "cost.sessionBudget", Type: "number", Default: float64(0), Scope: Restrict, Lower: true, Min: num(0),
		EN: "Money budget of a session, in the currency of the model's prices (sub-agents and compactions included): at the limit the run pauses and asks whether to continue (another budget's worth); headless runs stop with exit code 3 (`govibe exec --max-cost`). 0 = no budget. Needs the model's prices.",
		ZH: "会话的金额预算，单位为模型价格所用货币（含子代理与压缩）：达到上限时暂停并询问是否继续（再给一份预算）；无界面运行以退出码 3 结束（`govibe exec --max-cost`）。0 表示不限。需要模型价格。", Markdown: true},
	{Key: "cost.sessionTokenBudget", Type: "integer", Default: float64(0), Scope: Restrict, Lower: true, Unit: "tokens", Min: num(0),
		EN: "Token budget of a session (prompt and output tokens of every request, sub-agents and compactions included): at the limit the run pauses and asks whether to continue (another budget's worth); headless runs stop with exit code 3 (`govibe exec --max-tokens`). 0 = no budget.",
		ZH: "会话的 token 预算（每次请求的输入与输出 token，含子代理与压缩）：达到上限时暂停并询问是否继续（再给一份预算）；无界面运行以退出码 3 结束（`govibe exec --max-tokens`）。0 表示不限。", Markdown: true},
	{Key: "contextWindow", Type: "integer", Default: float64(0), Scope: Workspace, Unit: "tokens", Min: num(0),
		EN: "Context window in tokens; 0 uses the model's known size.", ZH: "上下文窗口（token 数）；0 表示使用模型的默认值。"},
	{Key: "maxOutputTokens", Type: "integer", Default: float64(0), Scope: Workspace, Unit: "tokens", Min: num(0),
		EN: "Maximum output tokens per reply; 0 uses the model's default.", ZH: "每次回复的最大输出 token 数；0 表示使用模型默认值。"},
	{Key: "hooks", Type: "object", Default: map[string]any{}, Scope: UserOnly, VSCodeScope: "application", Markdown: true, ObjectSchema: hookEvents(),
		EN: "Lifecycle hooks in Claude Code's format: an event (`PreToolUse`, `PostToolUse`, `PostToolUseFailure`, `UserPromptSubmit`, `Stop`, `SubagentStop`, `PreCompact`, `SessionStart`, `SessionEnd`, `Notification`) → `[{\"matcher\": \"Edit|Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"...\", \"timeout\": 60}]}]`. Hooks read Claude Code's tool names and fields (`Bash`, `tool_input.file_path`). User settings only; project hooks come from `.govibe/hooks.json`, `.claude/settings.json` and `.github/hooks/*.json` in a trusted workspace.",
		ZH: "Claude Code 格式的生命周期钩子：事件（`PreToolUse`、`PostToolUse`、`PostToolUseFailure`、`UserPromptSubmit`、`Stop`、`SubagentStop`、`PreCompact`、`SessionStart`、`SessionEnd`、`Notification`）→ `[{\"matcher\": \"Edit|Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"...\", \"timeout\": 60}]}]`。钩子读取 Claude Code 的工具名和字段（`Bash`、`tool_input.file_path`）。仅限用户设置；项目钩子来自受信任工作区中的 `.govibe/hooks.json`、`.claude/settings.json` 和 `.github/hooks/*.json`。"},
	{Key: "permissions.allow", Type: "array", Items: "string", Default: []any{}, Scope: UserOnly, Markdown: true,
		EN: "Tool calls allowed without asking, e.g. `Bash(npm test)`. Only user settings count: a workspace cannot allow.", ZH: "无需确认即可执行的工具调用，例如 `Bash(npm test)`。只有用户设置生效：工作区不能放行。"},
	{Key: "permissions.ask", Type: "array", Items: "string", Default: []any{}, Scope: Restrict, WorkspaceKey: "permissions.workspace.ask",
		EN: "Tool calls that always ask first.", ZH: "总是需要确认的工具调用。"},
	{Key: "permissions.deny", Type: "array", Items: "string", Default: []any{}, Scope: Restrict, WorkspaceKey: "permissions.workspace.deny", Markdown: true,
		EN: "Tool calls that are never allowed, e.g. `Bash(rm -rf *)`.", ZH: "永不允许的工具调用，例如 `Bash(rm -rf *)`。"},
	{Key: "permissions.workspace.allow", Type: "array", Items: "string", Default: []any{}, Scope: UserOnly, Internal: true,
		EN: "Allow rules that came from a workspace; always ignored.", ZH: "来自工作区的放行规则；始终忽略。"},
	{Key: "permissions.workspace.ask", Type: "array", Items: "string", Default: []any{}, Scope: UserOnly, Internal: true,
		EN: "Ask rules that came from a workspace (set by the sidecar from the workspace's permissions.ask).", ZH: "来自工作区的确认规则（由工作区的 permissions.ask 得出）。"},
	{Key: "permissions.workspace.deny", Type: "array", Items: "string", Default: []any{}, Scope: UserOnly, Internal: true,
		EN: "Deny rules that came from a workspace (set by the sidecar from the workspace's permissions.deny).", ZH: "来自工作区的拒绝规则（由工作区的 permissions.deny 得出）。"},
	{Key: "snapshots.enabled", Type: "boolean", Default: true, Scope: Restrict, Stricter: true,
		EN: "Take shadow-git snapshots before and after turns that change files.", ZH: "在修改文件的轮次前后创建影子 git 快照。"},
	{Key: "snapshots.maxAgeDays", Type: "integer", Default: float64(30), Scope: Workspace, Unit: "days", Min: num(1),
		EN: "Snapshots older than this many days are pruned.", ZH: "超过该天数的快照会被清理。"},
	{Key: "snapshots.maxCount", Type: "integer", Default: float64(500), Scope: Workspace, Min: num(1),
		EN: "At most this many snapshots are kept.", ZH: "最多保留的快照数量。"},
	{Key: "snapshots.maxFileSizeMB", Type: "integer", Default: float64(10), Scope: Workspace, Unit: "MB", Min: num(1),
		EN: "Files larger than this many megabytes are left out of snapshots.", ZH: "大于该大小（MB）的文件不会纳入快照。"},
	{Key: "apiKey", Type: "string", Default: "", Scope: UserOnly, Internal: true, Secret: true,
		EN: "Legacy plain-text API key; use SecretStorage (GoVibe: Set API Key) or GOVIBE_API_KEY.", ZH: "旧式明文 API 密钥；请改用安全存储（GoVibe: 设置 API 密钥）或 GOVIBE_API_KEY。"},
}

// ModelFields are the properties of one govibe.models profile.
var ModelFields = []ModelField{
	{Name: "name", Type: "string", EN: "Profile name.", ZH: "配置名称。"},
	{Name: "baseUrl", Type: "string", EN: "API base URL.", ZH: "API 基础地址。"},
	{Name: "model", Type: "string", EN: "Model identifier sent to the API.", ZH: "发送给 API 的模型标识。"},
	{Name: "contextWindow", Type: "integer", Min: num(0), EN: "Context window in tokens.", ZH: "上下文窗口（token 数）。"},
	{Name: "maxOutputTokens", Type: "integer", Min: num(0), EN: "Maximum output tokens per reply.", ZH: "每次回复的最大输出 token 数。"},
	{Name: "toolCalling", Type: "string", Enum: []string{"native", "text", "auto"}, Default: "auto",
		EN: "How tools are called: native function calling, a text protocol, or auto-detect.", ZH: "工具调用方式：原生函数调用、文本协议或自动检测。"},
	{Name: "priceInput", Type: "number", Min: num(0), EN: "Price per million input tokens.", ZH: "每百万输入 token 的价格。"},
	{Name: "priceCachedInput", Type: "number", Min: num(0), EN: "Price per million cached input tokens.", ZH: "每百万缓存命中输入 token 的价格。"},
	{Name: "priceOutput", Type: "number", Min: num(0), EN: "Price per million output tokens.", ZH: "每百万输出 token 的价格。"},
	{Name: "reasoningEffort", Type: "string", Enum: []string{"", "low", "medium", "high"}, Default: "",
		EN: "Reasoning effort, sent in the provider's own form: reasoning_effort (OpenAI, OpenRouter, Groq, Together, Gemini, Ollama, vLLM), thinking plus reasoning_effort (DeepSeek), enable_thinking plus thinking_budget (Qwen); empty leaves the provider's default.", ZH: "推理强度，按服务商自己的方式发送：reasoning_effort（OpenAI、OpenRouter、Groq、Together、Gemini、Ollama、vLLM），thinking 加 reasoning_effort（DeepSeek），enable_thinking 加 thinking_budget（Qwen）；留空则使用服务商默认值。"},
	{Name: "temperature", Type: "number", Min: num(0), Optional: true, EN: "Sampling temperature; unset leaves the provider's default.", ZH: "采样温度；不设置则使用服务商默认值。"},
	{Name: "toolProfile", Type: "string", Default: "full",
		EN: "Tools this profile is offered: full, readonly (tools that only read), no-shell (everything but run_shell_command), or tool names separated by commas. Small local models do better with fewer tools.", ZH: "此配置可用的工具：full（全部）、readonly（只读工具）、no-shell（除 run_shell_command 外的全部），或以逗号分隔的工具名称。小型本地模型在工具较少时表现更好。"},
	{Name: "preset", Type: "string", EN: "Provider preset this profile was made from (govibe models presets).", ZH: "此配置所基于的服务商预设（govibe models presets）。"},
	{Name: "apiKey", Type: "string", Internal: true, EN: "Legacy plain-text API key of this profile; use SecretStorage.", ZH: "此配置的旧式明文 API 密钥；请改用安全存储。"},
}

// Legacies are renamed keys still honoured.
var Legacies = []Legacy{
	{Old: "autoApprove.editsDelay", New: "autoApprove.editsDelayMs", Convert: editsDelayMs,
		EN: "values of 100 and more are milliseconds (as documented), smaller ones seconds (as it behaved)",
		ZH: "100 及以上按毫秒（与文档一致），更小的值按秒（与旧行为一致）"},
}

// editsDelayMs reads the old autoApprove.editsDelay. Its description said
// milliseconds while the sidecar multiplied by 1000, so both readings exist
// in the wild: 3000 (meant as 3 s) and 3 (found to be 3 s). A countdown
// under 100 ms is no countdown, so small values can only mean seconds.
func editsDelayMs(v any) any {
	f := (Values{"x": v}).Float("x")
	if f > 0 && f < 100 {
		f *= 1000
	}
	return f
}

var byKey = func() map[string]*Setting {
	m := make(map[string]*Setting, len(Schema))
	for i := range Schema {
		m[Schema[i].Key] = &Schema[i]
	}
	return m
}()

// Lookup returns the declaration of key, or nil when it is unknown.
func Lookup(key string) *Setting { return byKey[key] }

// hookEvents is the JSON Schema of the hooks setting: each event takes
// matcher groups of command hooks.
func hookEvents() map[string]any {
	group := map[string]any{"type": "array", "items": map[string]any{
		"type": "object",
		"properties": map[string]any{
			"matcher": map[string]any{"type": "string"},
			"hooks": map[string]any{"type": "array", "items": map[string]any{
				"type":     "object",
				"required": []any{"command"},
				"properties": map[string]any{
					"type":    map[string]any{"type": "string", "enum": []any{"command"}},
					"command": map[string]any{"type": "string"},
					"timeout": map[string]any{"type": "number", "minimum": 1},
				},
			}},
		},
	}}
	events := []any{"PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop", "SubagentStop", "PreCompact", "SessionStart", "SessionEnd", "Notification"}
	return map[string]any{"propertyNames": map[string]any{"enum": events}, "additionalProperties": group}
}

package i18n

// Warnings about settings (server/internal/host/config), kept apart from zhCN so
// the settings schema's messages live together.
var zhCNSettings = map[string]string{
	"unknown setting %q in %s (ignored by GoVibe)":                                                      "%[2]s 中的设置 %[1]q 未知（GoVibe 已忽略）",
	"setting %q is now %q: %v read as %v ms (%s)":                                                       "设置 %q 已更名为 %q：%v 按 %v 毫秒读取（%s）",
	"workspace setting %q ignored: only your user settings may set it":                                  "已忽略工作区设置 %q：只有用户设置可以设置它",
	"workspace setting %q=%v ignored: a workspace may make GoVibe stricter, never more permissive":      "已忽略工作区设置 %q=%v：工作区只能让 GoVibe 更严格，不能更宽松",
	"workspace setting %q=%v ignored: a workspace may lower your limit of %v, never raise or remove it": "已忽略工作区设置 %q=%v：工作区只能降低你设定的上限 %v，不能提高或取消它",
	"this workspace is not trusted: its GoVibe settings are ignored (%s)":                               "此工作区不受信任：已忽略其 GoVibe 设置（%s）",
}

func init() {
	for k, v := range zhCNSettings {
		zhCN[k] = v
	}
}

package i18n

// zhCNSandbox translates the command sandbox's notices and cards.
var zhCNSandbox = map[string]string{
	"Commands run without a sandbox, so each one asks first: %s": "命令在没有沙箱的情况下运行，因此每条命令都会先征求确认：%s",
	"Commands run in a reduced sandbox: %s":                      "命令在受限较少的沙箱中运行：%s",
	"Run again with write access":                                "以写入权限重新运行",
	"Run again with write access (denied: writing %s)":           "以写入权限重新运行（被拒绝：写入 %s）",
	"Allow network to %s":                                        "允许访问网络：%s",
	"Allow network (to the allowed domains)":                     "允许访问网络（限于允许的域名）",
	"Allow network to %s for this session":                       "本会话中允许访问网络：%s",
}

func init() {
	for k, v := range zhCNSandbox {
		zhCN[k] = v
	}
}

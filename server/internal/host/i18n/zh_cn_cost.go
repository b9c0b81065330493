package i18n

// zhCNCost translates the session budget's pause question and stop
// message.
var zhCNCost = map[string]string{
	"This session reached its %s: spent %s. Continue for another budget's worth?": "本会话已达到%s：已花费 %s。是否再给一份预算继续？",
	"Continue":           "继续",
	"Stop":               "停止",
	"token budget of %s": " %s 的 token 预算",
	"cost budget of %s":  " %s 的费用预算",
	"%.4f (%s tokens)":   "%.4f（%s 个 token）",
	"%s tokens":          "%s 个 token",
	"Stopped: this session reached its %s (spent %s). Raise govibe.cost.sessionBudget or govibe.cost.sessionTokenBudget (govibe exec: --max-cost, --max-tokens) to go on.": "已停止：本会话已达到%s（已花费 %s）。如需继续，请提高 govibe.cost.sessionBudget 或 govibe.cost.sessionTokenBudget（govibe exec：--max-cost、--max-tokens）。",
}

func init() {
	for k, v := range zhCNCost {
		zhCN[k] = v
	}
}

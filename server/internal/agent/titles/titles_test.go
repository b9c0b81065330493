package titles

import "testing"

func TestSessionTitleIsTheFirstMessageCleaned(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Please fix Add in calc.go", "Please fix Add in calc.go"},
		{"  # Fix   the **parser**\n\nIt breaks on `x`.", "Fix the parser It breaks on x."},
		{"<context>\nopen file: a.go\n</context>\nExplain this", "Explain this"},
		{"```go\nfunc main() {}\n```\nwhy does this not compile?", "why does this not compile?"},
		{"- [the docs](http://x) say so", "the docs say so"},
		{"Please refactor the session store so that every query lives in one file per table with tests", "Please refactor the session store so that every query lives…"},
		{"```\nonly code", ""},
		{"   \n  ", ""},
		{"修复解析器中的错误，它在处理空输入时崩溃了，并且错误信息不清楚，需要改进并添加测试用例以覆盖所有边界情况和异常输入。再补充文档说明", "修复解析器中的错误，它在处理空输入时崩溃了，并且错误信息不清楚，需要改进并添加测试用例以覆盖所有边界情况和异常输入。再补…"},
	} {
		if got := FromMessage(c.in); got != c.want {
			t.Errorf("FromMessage(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A model's answer: its first non-empty line, without a "Title:" label,
// quotes, Markdown or a final full stop.
func TestFromModel(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"\n  Title: \"Fix the parser crash\"\nmore", "Fix the parser crash"},
		{"Fix the build.", "Fix the build"},
		{"**Rename the config loader**", "Rename the config loader"},
		{"「修复解析器」", "修复解析器"},
		{"  \n \n", ""},
	} {
		if got := FromModel(c.in); got != c.want {
			t.Errorf("FromModel(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

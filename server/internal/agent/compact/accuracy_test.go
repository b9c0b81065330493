package compact

import (
	"math"
	"os"
	"strings"
	"testing"
)

// realFiles are files of this repository, one per kind of text the
// estimator meets: Go, TypeScript, Markdown, JSON (a lock file with its
// base64 hashes, and the Chinese localisation: CJK text), a shell script.
var realFiles = []struct{ kind, path string }{
	{"go", "../../engine/turn.go"},
	{"go", "tokens.go"},
	{"go test", "compact_test.go"},
	{"ts", "../../../../extension/src/extension.ts"},
	{"ts (generated)", "../../../../extension/src/protocol.gen.ts"},
	{"markdown", "../../../../docs/architecture.md"},
	{"markdown", "../../../../README.md"},
	{"json", "../../../../package.json"},
	{"json lock file", "../../../../extension/webview/package-lock.json"},
	{"cjk json", "../../../../package.nls.zh-cn.json"},
	{"cjk json", "../../../../extension/webview/l10n/bundle.l10n.zh-cn.json"},
	{"shell", "../../../../scripts/bench.sh"},
}

// taoHuaYuanJi is Tao Yuanming's 桃花源记 (about 421 AD, in the public
// domain): Chinese prose, no spaces, with Chinese punctuation.
const taoHuaYuanJi = "晋太元中，武陵人捕鱼为业。缘溪行，忘路之远近。忽逢桃花林，夹岸数百步，中无杂树，芳草鲜美，落英缤纷。" +
	"渔人甚异之，复前行，欲穷其林。林尽水源，便得一山，山有小口，仿佛若有光。便舍船，从口入。初极狭，才通人。" +
	"复行数十步，豁然开朗。土地平旷，屋舍俨然，有良田、美池、桑竹之属。阡陌交通，鸡犬相闻。其中往来种作，男女衣着，" +
	"悉如外人。黄发垂髫，并怡然自乐。见渔人，乃大惊，问所从来。具答之。便要还家，设酒杀鸡作食。村中闻有此人，咸来问讯。" +
	"自云先世避秦时乱，率妻子邑人来此绝境，不复出焉，遂与外人间隔。问今是何世，乃不知有汉，无论魏晋。此人一一为具言所闻，" +
	"皆叹惋。余人各复延至其家，皆出酒食。停数日，辞去。此中人语云：“不足为外人道也。”既出，得其船，便扶向路，处处志之。" +
	"及郡下，诣太守，说如此。太守即遣人随其往，寻向所志，遂迷，不复得路。南阳刘子骥，高尚士也，闻之，欣然规往。未果，" +
	"寻病终。后遂无问津者。\n"

// maxError is the bound on ordinary text: the estimate is tiktoken's
// exact count unless a piece is longer than chunkBytes, which none of
// these texts has, so any difference at all is a bug.
const maxError = 0.0

func TestEstimateMatchesExactCountsOnRealText(t *testing.T) {
	enc := reference(t)
	texts := map[string]string{"cjk 桃花源记": taoHuaYuanJi, "cjk repeated": strings.Repeat(taoHuaYuanJi, 20)}
	for _, f := range realFiles {
		b, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		texts[f.kind+" "+f.path] = string(b)
	}
	var sumGot, sumWant int
	for name, s := range texts {
		got := NewEstimator().Text(s)
		want := len(enc.EncodeOrdinary(s))
		sumGot, sumWant = sumGot+got, sumWant+want
		rel := math.Abs(float64(got-want)) / float64(want)
		t.Logf("%-50s %7d bytes  exact %6d  estimate %6d  error %.3f%%", name, len(s), want, got, 100*rel)
		if rel > maxError {
			t.Errorf("%s: estimate %d, exact %d: error %.3f%% over %.1f%%", name, got, want, 100*rel, 100*maxError)
		}
	}
	t.Logf("all: exact %d, estimate %d", sumWant, sumGot)
}

// Text whose pieces are cut or sampled stays close to the exact count:
// checked on sizes tiktoken-go can still count in a test's time.
func TestLongPiecesStayClose(t *testing.T) {
	enc := reference(t)
	for _, tc := range []struct {
		name  string
		text  string
		bound float64
	}{
		// Cut into chunks, every chunk counted.
		{"letters 6 KB", strings.Repeat("ACGTTGCAAGCT", 500), 0.03},
		{"cjk without punctuation 6 KB", strings.Repeat("桃花源记武陵人捕鱼为业", 200), 0.03},
		{"symbols 6 KB", strings.Repeat("./", 3000), 0.03},
		// Sampled: 20 KB is past samplePieceBytes.
		{"letters 20 KB", strings.Repeat("ACGTTGCAAGCT", 1700), 0.05},
		{"spaces 20 KB", strings.Repeat(" ", 20000), 0.05},
	} {
		got, _ := countText(cl100k(), tc.text)
		want := len(enc.EncodeOrdinary(tc.text))
		rel := math.Abs(float64(got-want)) / float64(want)
		t.Logf("%-30s exact %6d  estimate %6d  error %.2f%%", tc.name, want, got, 100*rel)
		if rel > tc.bound {
			t.Errorf("%s: estimate %d, exact %d: error %.2f%% over %.0f%%", tc.name, got, want, 100*rel, 100*tc.bound)
		}
	}
}

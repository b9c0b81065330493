// Package textshapes generates text of a given size in the shapes that
// tools and models hand the sidecar: prose, code, minified JavaScript,
// base64, a single repeated character, CJK, and the shapes that once made
// token counting super-linear (one long run without white space). The
// estimator benchmark and the compact package's tests share it, so inputs
// are made in code, never stored. Output is deterministic for a size.
package textshapes

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode/utf8"
)

// Shape is a named generator: Make(n) returns about n bytes (never more,
// cut at a character boundary).
type Shape struct {
	Name string
	Make func(n int) string
}

// Bench are the shapes `make bench` times (issue 31: prose, code,
// minified JS, base64, a single repeated character, CJK).
var Bench = []Shape{
	{"prose", Prose},
	{"code", Code},
	{"minified JS", MinifiedJS},
	{"base64", Base64},
	{"one char", func(n int) string { return strings.Repeat("a", n) }},
	{"CJK", CJK},
}

// Pathological are shapes that are one pre-tokenizer piece, or close to
// it: BPE on them was quadratic.
var Pathological = []Shape{
	{"./ repeated", func(n int) string { return fill(n, func(b *strings.Builder, _ *rand.Rand) { b.WriteString("./") }) }},
	{"ACGT (one FASTA line)", FASTA},
	{"one char", func(n int) string { return strings.Repeat("a", n) }},
	{"base64", Base64},
	{"minified JS", MinifiedJS},
	{"CJK without spaces or punctuation", CJKRun},
	{"long URL", URL},
}

func fill(n int, write func(*strings.Builder, *rand.Rand)) string {
	r := rand.New(rand.NewPCG(uint64(31), 7))
	var b strings.Builder
	b.Grow(n + 64)
	for b.Len() < n {
		write(&b, r)
	}
	return cut(b.String(), n)
}

// cut shortens s to at most n bytes at a character boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

var words = strings.Fields(`the a of to and in is that for it as was with be by on not he this are or his from at which but have an they you were
her she there one all we their been has when who will more no if out so said what up its about into than them can only other new some could
time these two may then do first any my now such like our over man me even most made after also did many before must through back years
where much your way well down should because each just those people how too little state good very make world still own see men work long
get here between both life being under never day same another know while last might us great old year off come since against go came right
used take three states himself few house use during without again place around however home small found thought went say part once general
high upon school every don does got united left number course war until always away something fact though water less public put think
almost hand enough far took head yet government system better set told nothing night end why called didn eyes find going look asked later`)

// Prose is English sentences with punctuation and paragraphs.
func Prose(n int) string {
	return fill(n, func(b *strings.Builder, r *rand.Rand) {
		for k, m := 0, 6+r.IntN(14); k < m; k++ {
			w := words[r.IntN(len(words))]
			if k == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			} else {
				b.WriteByte(' ')
			}
			b.WriteString(w)
			if k < m-1 && r.IntN(9) == 0 {
				b.WriteByte(',')
			}
		}
		b.WriteString(". ")
		if r.IntN(6) == 0 {
			b.WriteString("\n\n")
		}
	})
}

var idents = []string{"ctx", "err", "req", "resp", "buf", "n", "i", "cfg", "session", "handler", "msgs", "tokens", "path", "opts", "store", "result"}

// Code is Go-like source: functions, indentation with tabs, calls,
// literals, comments.
func Code(n int) string {
	return fill(n, func(b *strings.Builder, r *rand.Rand) {
		id := func() string { return idents[r.IntN(len(idents))] }
		fmt.Fprintf(b, "// %s%d reads %s and returns the %s it found.\n", "load", r.IntN(1000), id(), id())
		fmt.Fprintf(b, "func (s *Server) load%d(%s context.Context, %s string) (int, error) {\n", r.IntN(1000), id(), id())
		for k, m := 0, 2+r.IntN(6); k < m; k++ {
			switch r.IntN(4) {
			case 0:
				fmt.Fprintf(b, "\t%s, err := s.%s.Get(%s, %q)\n\tif err != nil {\n\t\treturn 0, fmt.Errorf(\"load %%s: %%w\", %s, err)\n\t}\n", id(), id(), id(), id(), id())
			case 1:
				fmt.Fprintf(b, "\tfor i := 0; i < len(%s); i++ {\n\t\t%s += %d\n\t}\n", id(), id(), r.IntN(100000))
			case 2:
				fmt.Fprintf(b, "\t%s := map[string]int{\"%s\": %d, \"%s\": %d}\n", id(), id(), r.IntN(64), id(), r.IntN(64))
			default:
				fmt.Fprintf(b, "\tif %s == nil || len(%s) > %d {\n\t\treturn %d, nil\n\t}\n", id(), id(), r.IntN(4096), r.IntN(9))
			}
		}
		b.WriteString("\treturn 0, nil\n}\n\n")
	})
}

// MinifiedJS is one line of minified JavaScript: short names, no spaces
// but the few the syntax needs.
func MinifiedJS(n int) string {
	return fill(n, func(b *strings.Builder, r *rand.Rand) {
		v := func() string { return string(rune('a'+r.IntN(26))) + string(rune('A'+r.IntN(26))) }
		switch r.IntN(5) {
		case 0:
			fmt.Fprintf(b, "function %s(%s,%s){return %s&&%s.%s(%s)||%d}", v(), v(), v(), v(), v(), v(), v(), r.IntN(999))
		case 1:
			fmt.Fprintf(b, "var %s=%s[%d]||{},%s=\"%s-%d\";", v(), v(), r.IntN(99), v(), v(), r.IntN(9999))
		case 2:
			fmt.Fprintf(b, "%s.prototype.%s=function(){this.%s=!0,this.%s=[]};", v(), v(), v(), v())
		case 3:
			fmt.Fprintf(b, "if(%s<%d)for(;%s<%s.length;++%s)%s+=%s[%s]>>>%d;", v(), r.IntN(512), v(), v(), v(), v(), v(), v(), r.IntN(32))
		default:
			fmt.Fprintf(b, "%s=(%s,%s)=>%s?.%s??new %s(%s,{%s:%d});", v(), v(), v(), v(), v(), v(), v(), v(), r.IntN(99))
		}
	})
}

// Base64 is random bytes in base64 on a single line, as in a data URL.
func Base64(n int) string {
	r := rand.New(rand.NewPCG(64, 64))
	raw := make([]byte, n*3/4+3)
	for i := range raw {
		raw[i] = byte(r.UintN(256))
	}
	return cut(base64.StdEncoding.EncodeToString(raw), n)
}

// FASTA is random nucleotides on one line.
func FASTA(n int) string {
	r := rand.New(rand.NewPCG(4, 4))
	b := make([]byte, n)
	for i := range b {
		b[i] = "ACGT"[r.IntN(4)]
	}
	return string(b)
}

// cjkChars are common Chinese characters.
var cjkChars = []rune("的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坐集编宝谈府拉黑且随格尽剑讲布杀微怕母调局根曾准团段终乐切级克精哪官示冷域假")

// CJK is Chinese prose: runs of characters with Chinese punctuation,
// no spaces.
func CJK(n int) string {
	return fill(n, func(b *strings.Builder, r *rand.Rand) {
		for k, m := 0, 4+r.IntN(16); k < m; k++ {
			b.WriteRune(cjkChars[r.IntN(len(cjkChars))])
		}
		b.WriteString([]string{"，", "，", "。", "、", "；", "：“", "”。", "！", "？\n"}[r.IntN(9)])
	})
}

// CJKRun is Chinese characters with neither spaces nor punctuation: all
// of it a single piece.
func CJKRun(n int) string {
	return fill(n, func(b *strings.Builder, r *rand.Rand) {
		b.WriteRune(cjkChars[r.IntN(len(cjkChars))])
	})
}

// URL is one long URL: a path of many segments and a long query.
func URL(n int) string {
	head := "https://cdn.example.com/assets/v2/"
	return head + fill(n-len(head), func(b *strings.Builder, r *rand.Rand) {
		w := words[r.IntN(len(words))]
		switch r.IntN(3) {
		case 0:
			fmt.Fprintf(b, "%s/", w)
		case 1:
			fmt.Fprintf(b, "%s-%x/", w, r.Uint32())
		default:
			fmt.Fprintf(b, "?%s=%s%%20%d&", w, words[r.IntN(len(words))], r.IntN(1e6))
		}
	})
}

package compact

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/bench/textshapes"
)

// maxWorkPerByte bounds countText's steps (bytes scanned, rank look-ups,
// heap levels walked) per byte of input, whatever the input. The costliest
// shape, pieces of random letters each cut into chunkBytes chunks, takes
// about 14: a heap over a 1 KB chunk is up to 10 levels deep.
const maxWorkPerByte = 20

// linearShapes are the shapes of issue 31 (one long piece each, or close)
// and the ordinary ones, plus the costliest shape that is still counted
// in full: pieces just short of samplePieceBytes, each cut into chunks.
func linearShapes() []textshapes.Shape {
	shapes := append([]textshapes.Shape(nil), textshapes.Bench...)
	seen := map[string]bool{}
	for _, s := range shapes {
		seen[s.Name] = true
	}
	for _, s := range textshapes.Pathological {
		if !seen[s.Name] {
			shapes = append(shapes, s)
		}
	}
	return append(shapes, textshapes.Shape{Name: "16 KB pieces of random letters", Make: func(n int) string {
		run := textshapes.FASTA(samplePieceBytes-1) + " "
		return strings.Repeat(run, n/len(run))
	}})
}

// Each shape's work is linear in its size: twice the text takes at most
// 2.2 times the steps, and never more than maxWorkPerByte per byte.
// Counting steps, not time, keeps the test exact on a loaded machine.
func TestWorkIsLinearInEveryShape(t *testing.T) {
	v := cl100k()
	const n = 256 << 10
	for _, s := range linearShapes() {
		one, two := s.Make(n), s.Make(2*n)
		_, w1 := countText(v, one)
		_, w2 := countText(v, two)
		perByte, ratio := float64(w1)/float64(len(one)), float64(w2)/float64(w1)
		t.Logf("%-34s %5.2f steps/byte, 2x size: %.2fx the steps", s.Name, perByte, ratio)
		if perByte > maxWorkPerByte || float64(w2)/float64(len(two)) > maxWorkPerByte {
			t.Errorf("%s: %.1f steps per byte, bound %d", s.Name, perByte, maxWorkPerByte)
		}
		if ratio > 2.2 {
			t.Errorf("%s: twice the text took %.2fx the steps", s.Name, ratio)
		}
	}
}

// The piece rules put each shape where the test above means it to be:
// one piece, or pieces no longer than a chunk.
func TestShapesAreThePiecesTheyClaim(t *testing.T) {
	for _, s := range []textshapes.Shape{textshapes.Pathological[0], textshapes.Pathological[1], textshapes.Pathological[5]} {
		txt := s.Make(64 << 10)
		if n := len(ourPieces(txt)); n != 1 {
			t.Errorf("%s: %d pieces, want 1", s.Name, n)
		}
	}
}

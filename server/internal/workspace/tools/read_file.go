package tools

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

//go:embed descriptions/read_file.md
var readFileDesc string

// Paging limits of one read_file call.
const (
	readMaxLines = 2000
	readMaxBytes = 256 << 10
)

type readFileArgs struct {
	FilePath  string `json:"filePath" jsonschema:"required" jsonschema_description:"Path of the file (or folder) to read, relative to the workspace root or absolute inside it."`
	StartLine int    `json:"startLine,omitempty" jsonschema:"minimum=1,default=1" jsonschema_description:"First line to read (1-based, inclusive)."`
	EndLine   int    `json:"endLine,omitempty" jsonschema:"minimum=1" jsonschema_description:"Last line to read (1-based, inclusive). Defaults to startLine+1999."`
}

// ReadFile returns the read_file tool.
func ReadFile() Tool {
	return &define[readFileArgs]{
		name: "read_file", desc: readFileDesc, traits: Reads,
		defaults: func() readFileArgs { return readFileArgs{} },
		run:      runReadFile,
	}
}

func runReadFile(ctx context.Context, env *Env, a readFileArgs) (Result, error) {
	abs, sb, fail := resolveRead(env, a.FilePath)
	if fail != nil {
		return *fail, nil
	}
	cur, err := loadCurrent(ctx, env, abs)
	if err != nil {
		return readFailure(env, a.FilePath, err), nil
	}
	display := sb.Display(abs)
	switch {
	case !cur.exists:
		return notFound(env, sb, "file", a.FilePath, abs), nil
	case cur.isDir:
		out, _, withheld := listDir(env, sb, abs, false, 500)
		return Result{OK: true, Output: display + " is a folder; its entries:\n" + out + withheldNote(withheld, "entries")}, nil
	case cur.tooLarge:
		return FailShown(fmt.Sprintf("%s is %s, larger than the %s limit for reading; use grep_search or find_in_file to locate what you need", display, humanSize(cur.size), humanSize(maxFileSize(env))), tooLargeShown(env, display, cur.size)), nil
	}
	if kind := binaryKind(cur.content); kind != "" {
		return FailShown(fmt.Sprintf("%s is a binary file (%s, %s); read_file only reads text", display, kind, humanSize(int64(len(cur.content)))), binaryShown(env, display, kind)), nil
	}
	body := bytes.TrimPrefix(cur.content, utf8BOM)
	total := countLines(body)
	if a.StartLine <= 0 {
		a.StartLine = 1
	}
	if total == 0 {
		if env.Files != nil {
			env.Files.RecordRead(abs, cur.content)
		}
		return Result{OK: true, Output: fmt.Sprintf("File: %s (empty, 0 lines)", display)}, nil
	}
	if a.StartLine > total {
		return FailShown(fmt.Sprintf("startLine %d is past the end of %s, which has %d lines", a.StartLine, display, total), linesShown(env, display, a.StartLine, a.EndLine, total)), nil
	}
	if a.EndLine != 0 && a.EndLine < a.StartLine {
		return FailShown(fmt.Sprintf("endLine %d is before startLine %d", a.EndLine, a.StartLine), linesShown(env, display, a.StartLine, a.EndLine, total)), nil
	}
	end := a.EndLine
	if end == 0 || end > total {
		end = total
	}
	if end-a.StartLine+1 > readMaxLines {
		end = a.StartLine + readMaxLines - 1
	}

	var sb2 strings.Builder
	header := fmt.Sprintf("File: %s (%d lines", display, total)
	if cur.dirty {
		header += "; unsaved changes in the editor, shown instead of the file on disk"
	}
	sb2.WriteString(header + ")\n")
	width := len(strconv.Itoa(end))
	off := lineOffset(body, a.StartLine)
	last := a.StartLine - 1
	used := 0
	badLine := 0
	cutLine := 0
	for n := a.StartLine; n <= end && off < len(body); n++ {
		j := bytes.IndexByte(body[off:], '\n')
		var line []byte
		if j < 0 {
			line, off = body[off:], len(body)
		} else {
			line, off = body[off:off+j], off+j+1
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if used+len(line) > readMaxBytes && n > a.StartLine {
			break
		}
		if len(line) > readMaxBytes {
			line = line[:readMaxBytes]
			cutLine = n
		}
		if badLine == 0 && !utf8.Valid(line) {
			badLine = n
		}
		pad := width - len(strconv.Itoa(n))
		for range pad {
			sb2.WriteByte(' ')
		}
		sb2.WriteString(strconv.Itoa(n))
		sb2.WriteByte('\t')
		if badLine != 0 {
			sb2.WriteString(strings.ToValidUTF8(string(line), "\uFFFD"))
		} else {
			sb2.Write(line)
		}
		sb2.WriteByte('\n')
		used += len(line) + 1
		last = n
	}
	if cutLine != 0 {
		fmt.Fprintf(&sb2, "[Line %d is longer than %s and was cut.]\n", cutLine, humanSize(readMaxBytes))
	}
	if badLine != 0 {
		fmt.Fprintf(&sb2, "[Line %d (and maybe others) contains bytes that are not valid UTF-8, shown as \uFFFD; edits of those lines are refused.]\n", badLine)
	}
	if last < total {
		fmt.Fprintf(&sb2, "[Showed lines %d–%d of %d. To read more, call read_file with startLine=%d.]\n", a.StartLine, last, total, last+1)
	}
	if env.Files != nil {
		env.Files.RecordRead(abs, cur.content)
	}
	return Result{OK: true, Output: strings.TrimRight(sb2.String(), "\n")}, nil
}

package tools

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

//go:embed descriptions/get_file_info.md
var fileInfoDesc string

type fileInfoArgs struct {
	FilePath string `json:"filePath" jsonschema:"required" jsonschema_description:"File or folder to describe."`
}

// FileInfo is Result.Meta of get_file_info.
type FileInfo struct {
	Path        string    `json:"path"`
	Exists      bool      `json:"exists"`
	Kind        string    `json:"kind,omitempty"` // file, directory, symlink, other
	Size        int64     `json:"size"`
	ModTime     time.Time `json:"mtime"`
	Lines       int       `json:"lines,omitempty"`
	Encoding    string    `json:"encoding,omitempty"`
	LineEndings string    `json:"lineEndings,omitempty"` // LF, CRLF, mixed, none
	FinalNL     bool      `json:"finalNewline,omitempty"`
}

// GetFileInfo returns the get_file_info tool.
func GetFileInfo() Tool {
	return &define[fileInfoArgs]{
		name: "get_file_info", desc: fileInfoDesc, traits: Reads | Deferred,
		defaults: func() fileInfoArgs { return fileInfoArgs{} },
		run:      runFileInfo,
	}
}

func runFileInfo(ctx context.Context, env *Env, a fileInfoArgs) (Result, error) {
	abs, sb, fail := resolveRead(env, a.FilePath)
	if fail != nil {
		return *fail, nil
	}
	display := sb.Display(abs)
	info := FileInfo{Path: display}
	lfi, err := os.Lstat(abs)
	if err != nil {
		r := notFound(env, sb, "file", a.FilePath, abs)
		return Result{OK: true, Output: display + ": does not exist." + strings.TrimPrefix(r.Output, "file not found: "+a.FilePath), Meta: info}, nil
	}
	fi := lfi
	if lfi.Mode()&os.ModeSymlink != 0 {
		if st, err := os.Stat(abs); err == nil {
			fi = st
		}
	}
	info.Exists, info.Size, info.ModTime = true, fi.Size(), fi.ModTime()
	switch {
	case lfi.Mode()&os.ModeSymlink != 0 && !fi.IsDir() && !fi.Mode().IsRegular():
		info.Kind = "symlink"
	case fi.IsDir():
		info.Kind = "directory"
	case fi.Mode().IsRegular():
		info.Kind = "file"
	default:
		info.Kind = "other"
	}
	var out strings.Builder
	fmt.Fprintf(&out, "%s\nexists: yes\nkind: %s\n", display, info.Kind)
	if info.Kind == "other" {
		// Named, never opened: a FIFO would block a read, a device
		// would not end it.
		fmt.Fprintf(&out, "type: %s (file tools do not read or write it)\n", safefile.Kind(fi.Mode()))
	}
	if lfi.Mode()&os.ModeSymlink != 0 {
		out.WriteString("symlink: yes\n")
	}
	fmt.Fprintf(&out, "size: %s (%d bytes)\nmodified: %s\n", humanSize(info.Size), info.Size, info.ModTime.Format(time.RFC3339))
	if info.Kind == "file" && info.Size <= maxFileSize(env) {
		b, err := safefile.ReadFile(abs, maxFileSize(env))
		if err == nil {
			describeText(&info, b)
			fmt.Fprintf(&out, "encoding: %s\n", info.Encoding)
			if !strings.HasPrefix(info.Encoding, "binary") {
				fmt.Fprintf(&out, "lines: %d\nline endings: %s\nfinal newline: %v\n", info.Lines, info.LineEndings, info.FinalNL)
			}
		}
	}
	return Result{OK: true, Output: strings.TrimRight(out.String(), "\n"), Meta: info}, nil
}

func describeText(info *FileInfo, b []byte) {
	if kind := binaryKind(b); kind != "" {
		info.Encoding = "binary (" + kind + ")"
		return
	}
	ti := inspectText(b)
	switch {
	case firstInvalidUTF8(b) > 0:
		info.Encoding = fmt.Sprintf("not valid UTF-8 (first bad byte on line %d)", firstInvalidUTF8(b))
	case ti.bom:
		info.Encoding = "utf-8 with BOM"
	default:
		info.Encoding = "utf-8"
	}
	lf := bytes.Count(b, []byte{'\n'})
	crlf := bytes.Count(b, []byte("\r\n"))
	switch {
	case lf == 0:
		info.LineEndings = "none"
	case crlf == lf:
		info.LineEndings = "CRLF"
	case crlf == 0:
		info.LineEndings = "LF"
	default:
		info.LineEndings = "mixed"
	}
	info.Lines = countLines(bytes.TrimPrefix(b, utf8BOM))
	info.FinalNL = ti.finalNL
}

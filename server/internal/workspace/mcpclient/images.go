package mcpclient

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// Images a tool returns are shown in the chat, not sent inline over
// JSON-RPC or kept in the session store: each is written once to the
// image folder (the sidecar's storage directory's mcp-images/, the one
// folder the webview may load them from) under the hex SHA-256 of its
// bytes, so the same image is stored once and no file is ever
// overwritten with other content. Only the raster types every webview
// decodes are kept, and only when the bytes are what the server says
// they are (an SVG could carry script; a "PNG" that is HTML is refused).

// ImageDirName is the image folder's name inside the storage directory.
const ImageDirName = "mcp-images"

// MaxImageBytes bounds one image (decoded).
const MaxImageBytes = 8 << 20

// imageExt maps each accepted MIME type to its file extension.
var imageExt = map[string]string{"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp"}

// Image is one image a tool returned, saved for the chat.
type Image struct {
	Path     string `json:"path"`
	MIMEType string `json:"mimeType"`
	Size     int    `json:"size"`
}

// Why an image is not shown; the model's note says which.
var (
	errImageType    = errors.New("only PNG, JPEG, GIF and WebP images are shown")
	errImageSize    = fmt.Errorf("it is larger than the %d MB limit", MaxImageBytes>>20)
	errImageContent = errors.New("its data is not an image of that type")
	errImageEmpty   = errors.New("it is empty")
	errImageNoDir   = errors.New("there is no folder to keep it in")
)

// imageType is the accepted MIME type a declared one names ("" if none).
func imageType(declared string) string {
	mt, _, err := mime.ParseMediaType(declared)
	if err != nil {
		return ""
	}
	if mt == "image/jpg" {
		mt = "image/jpeg"
	}
	if _, ok := imageExt[mt]; !ok {
		return ""
	}
	return mt
}

// saveImage writes data to dir as <sha256>.<ext> and returns where. A
// file already there with that name has the same bytes and is reused.
func saveImage(dir, declared string, data []byte) (Image, error) {
	mt := imageType(declared)
	switch {
	case mt == "":
		return Image{}, errImageType
	case len(data) == 0:
		return Image{}, errImageEmpty
	case len(data) > MaxImageBytes:
		return Image{}, errImageSize
	case http.DetectContentType(data) != mt:
		return Image{}, errImageContent
	case dir == "":
		return Image{}, errImageNoDir
	}
	sum := sha256.Sum256(data)
	p := filepath.Join(dir, hex.EncodeToString(sum[:])+"."+imageExt[mt])
	img := Image{Path: p, MIMEType: mt, Size: len(data)}
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Size() == int64(len(data)) {
		return img, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Image{}, err
	}
	// Written aside and renamed, so a reader never sees half an image.
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return Image{}, err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), p)
	}
	if werr != nil {
		os.Remove(f.Name())
		return Image{}, werr
	}
	return img, nil
}

// imageNote is what the model reads in place of an image: models here
// take text only, so it says plainly that an image was returned and
// whether the user sees it.
func imageNote(declared string, n int, err error) string {
	mt := clean(declared, 100)
	if err == nil {
		return fmt.Sprintf("[The tool returned an image (%s, %d bytes). It is shown to the user in the chat; its content is not available to the model.]", mt, n)
	}
	if errors.Is(err, errImageType) || errors.Is(err, errImageSize) || errors.Is(err, errImageContent) || errors.Is(err, errImageEmpty) || errors.Is(err, errImageNoDir) {
		return fmt.Sprintf("[The tool returned an image (%s, %d bytes) that is not shown: %v.]", mt, n, err)
	}
	return fmt.Sprintf("[The tool returned an image (%s, %d bytes) that is not shown: it could not be saved.]", mt, n)
}

// clean removes what a terminal or the chat would not show as text
// (ANSI escape sequences, control characters other than newline and tab,
// invalid UTF-8) and cuts s to max bytes when max > 0.
func clean(s string, max int) string {
	s = ansiEscape.ReplaceAllString(strings.ToValidUTF8(s, "\uFFFD"), "")
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return -1
		}
		return r
	}, s)
	if max > 0 && len(s) > max {
		s = strings.ToValidUTF8(s[:max], "")
	}
	return s
}

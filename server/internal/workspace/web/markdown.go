package web

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxLinks bounds the link list appended to a page.
const maxLinks = 100

// boilerplate elements are dropped before conversion: they hold navigation,
// chrome or active content, not the page's text.
var boilerplate = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Nav: true,
	atom.Header: true, atom.Footer: true, atom.Aside: true, atom.Form: true,
	atom.Iframe: true, atom.Svg: true, atom.Canvas: true, atom.Template: true,
	atom.Button: true, atom.Select: true, atom.Object: true, atom.Embed: true,
}

// boilerRoles are ARIA landmarks with the same meaning.
var boilerRoles = map[string]bool{"navigation": true, "banner": true, "contentinfo": true, "complementary": true, "search": true}

// Page is an HTML document converted for the model.
type Page struct {
	Title       string
	Description string
	Markdown    string
	Links       []Link
}

// Link is one hyperlink of the page, made absolute.
type Link struct {
	Text string
	URL  string
}

// HTMLToMarkdown converts a document: headings, lists, tables, code blocks
// with their language and link text are kept; scripts, styles, navigation
// and other boilerplate are dropped. pageURL makes relative links absolute.
func HTMLToMarkdown(doc []byte, pageURL string) (*Page, error) {
	root, err := html.Parse(bytes.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("parsing HTML: %v", err)
	}
	base, _ := url.Parse(pageURL)
	p := &Page{}
	seen := map[string]bool{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type == html.ElementNode {
				switch {
				case c.DataAtom == atom.Title && p.Title == "":
					p.Title = strings.TrimSpace(textOf(c))
				case c.DataAtom == atom.Meta:
					name := strings.ToLower(attr(c, "name") + attr(c, "property"))
					if (name == "description" || name == "og:description") && p.Description == "" {
						p.Description = strings.TrimSpace(attr(c, "content"))
					}
				case c.DataAtom == atom.Base && base != nil:
					if b, err := base.Parse(attr(c, "href")); err == nil {
						base = b
					}
				}
				if boilerplate[c.DataAtom] || boilerRoles[strings.ToLower(attr(c, "role"))] {
					n.RemoveChild(c)
					c = next
					continue
				}
				if c.DataAtom == atom.A {
					p.addLink(c, base, seen)
				}
			}
			walk(c)
			c = next
		}
	}
	walk(root)
	conv := converter.NewConverter(converter.WithPlugins(
		base0(), commonmark.NewCommonmarkPlugin(), table.NewTablePlugin(), strikethrough.NewStrikethroughPlugin(),
	))
	var opts []converter.ConvertOptionFunc
	if base != nil && base.Host != "" {
		opts = append(opts, converter.WithDomain(base.Scheme+"://"+base.Host))
	}
	md, err := conv.ConvertNode(root, opts...)
	if err != nil {
		return nil, fmt.Errorf("converting HTML: %v", err)
	}
	p.Markdown = strings.TrimSpace(string(md))
	return p, nil
}

func base0() converter.Plugin { return base.NewBasePlugin() }

func (p *Page) addLink(a *html.Node, base *url.URL, seen map[string]bool) {
	if len(p.Links) >= maxLinks {
		return
	}
	href := strings.TrimSpace(attr(a, "href"))
	if href == "" || strings.HasPrefix(href, "#") {
		return
	}
	u, err := url.Parse(href)
	if err != nil {
		return
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return
	}
	s := u.String()
	if seen[s] {
		return
	}
	seen[s] = true
	text := strings.Join(strings.Fields(textOf(a)), " ")
	if len(text) > 120 {
		text = text[:120] + "…"
	}
	p.Links = append(p.Links, Link{Text: text, URL: s})
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

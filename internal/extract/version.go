package extract

import "strings"

// A tool that starts prints its own name and version: "Quasar  v3.2.1
// ready in 120 ms", "⛰  Welcome to Skyway v0.41.2", "⛅️ lintkit 2.0.1
// (update available 2.3.0)". Which version of a framework or CLI the
// project runs on is a fact a developer looks up weeks later, and the
// banner is the only place a session says it for sure. Dependency lists
// ("+ cors 2.8.6", "url_opener 2.4.1 (2.4.2 available)") have the
// same shape on many lines; an output with more than maxBanners such lines
// is a list, not a banner.

// maxBanners is the most version lines one tool output may hold and still
// be read as banners.
const maxBanners = 2

// banner is one tool's name and version as a run printed them.
type banner struct {
	name, version string
	off           int    // byte offset of the line in the message
	line          string // the line as printed, for the quote
}

// versions adds a fact for each tool whose run printed its name and
// version, quoting the first line that says so and one more run's; a later
// run printing another version replaces it.
func (x *extractor) versions() {
	seen := map[string]*cand{}
	for i, m := range x.msgs {
		if strings.ToLower(m.Role) != "tool" {
			continue
		}
		cmd, ok := strings.CutPrefix(m.Text, "Bash: ")
		if !ok {
			continue
		}
		cmd, out, _ := strings.Cut(cmd, "\n")
		base := len("Bash: ") + len(cmd) + 1 // where out starts in the message
		if len(out) > maxScan {
			out = out[:maxScan]
		}
		bs := banners(lowerASCII(cmd), out, base)
		if len(bs) > maxBanners {
			continue
		}
		for _, b := range bs {
			key := strings.ToLower(b.name) + " version"
			c := seen[key]
			switch {
			case c == nil:
				c = &cand{typ: Fact, score: 1.2, seq: len(x.cands), subject: key}
				seen[key] = c
				x.cands = append(x.cands, c)
			case c.val == b.version:
				if len(c.ev) < 2 {
					c.ev = append(c.ev, evi{i, b.off, b.line})
				}
				continue
			}
			// New, or upgraded during the session: the newer banner is what
			// the project runs now.
			c.body = b.name + " version: " + b.version
			c.title, c.val, c.from = c.body, b.version, i
			c.ev = []evi{{i, b.off, b.line}}
		}
	}
}

// banners returns the lines of out that give a tool's name and version:
// the name, then a version of three numbers, either marked with a "v" or
// named by the command that ran ("lintkit …" printing "lintkit 2.0.1").
// base is the offset of out in its message.
func banners(cmd, out string, base int) []banner {
	var bs []banner
	for off := 0; off < len(out); {
		end := strings.IndexByte(out[off:], '\n')
		if end < 0 {
			end = len(out)
		} else {
			end += off
		}
		line := strings.TrimRight(out[off:end], " \t\r")
		if b, ok := bannerLine(cmd, line); ok {
			b.off = base + off + (len(out[off:end]) - len(strings.TrimLeft(out[off:end], " \t")))
			b.line = strings.TrimSpace(line)
			bs = append(bs, b)
			if len(bs) > maxBanners {
				return bs
			}
		}
		off = end + 1
	}
	return bs
}

// bannerLine reads one line as "[symbols] [Welcome to] Name [v]1.2.3 …".
func bannerLine(cmd, line string) (banner, bool) {
	t := strings.TrimLeftFunc(line, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	})
	if strings.ContainsAny(line[:len(line)-len(t)], "+-├└│*") {
		return banner{}, false // "+ express v5.2.1", "├── zod 4.3.6": an install's or a tree's list
	}
	t = strings.TrimPrefix(t, "Welcome to ")
	f := strings.Fields(t)
	if len(f) < 2 || len(t) > 120 {
		return banner{}, false
	}
	name, v := f[0], f[1]
	marked := strings.HasPrefix(v, "v")
	num := strings.TrimPrefix(v, "v")
	if !semver(num) || !codeWord(name) {
		return banner{}, false
	}
	if !marked && !in(strings.Fields(cmd), strings.ToLower(name)) {
		return banner{}, false // "cors 2.8.6" in an install's output: a dependency, not the tool run
	}
	return banner{name: name, version: v}, true
}

// semver reports "3.2.1" or "0.41.2-beta.2": three dot-separated numbers,
// not a fourth ("64.29.17.1" is an address).
func semver(v string) bool {
	core, _, _ := strings.Cut(v, "-")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 4 || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// codeWord reports a tool's name as a banner spells it: letters, digits
// and ".-_@/", starting with a letter.
func codeWord(w string) bool {
	if len(w) > 40 || w == "" || !(w[0] >= 'a' && w[0] <= 'z' || w[0] >= 'A' && w[0] <= 'Z') {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || strings.IndexByte(".-_@/", c) >= 0) {
			return false
		}
	}
	return true
}

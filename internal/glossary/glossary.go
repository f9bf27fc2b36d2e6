// Package glossary reads a project's user-written glossary and finds the terms a prompt uses.
//
// The glossary is a Markdown file the user edits, one per project, in the
// data directory (Path). A term is a heading of level 2 to 6 with its
// definition in the text below it, or a list item that starts with the
// term in bold or code and a colon ("- **Ledger**: the payments service");
// in a file or part of one without headings, a plain "- Ledger: the
// payments service" is a term too. Several names of one term are separated
// by " / ". HTML comments and the text before the first term are not read.
// Every prompt hook reads the file again, so an edit counts from the next
// prompt.
package glossary

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
	"github.com/claude-memory-layer/claude-memory-layer/internal/privacy"
	"github.com/claude-memory-layer/claude-memory-layer/internal/regular"
)

// Dir is the folder under the data directory that holds the glossaries.
const Dir = "glossary"

// Caps on what is read: a glossary is a page or a few; a huge one must not
// cost the prompt hook its budget. Past MaxFile the rest is not read, and
// Glossary.Truncated says so.
const (
	MaxFile  = 64 << 10
	maxTerms = 1000
	maxName  = 80 // runes of one name
)

// Term is one entry of the glossary.
type Term struct {
	Name       string   // the first name, as written
	Aliases    []string // the other names
	Definition string   // the text, lines joined by "\n"
	Line       int      // where it starts in the file, from 1
}

// Glossary is a parsed glossary, ready to match prompts.
type Glossary struct {
	Terms []Term
	// Notes are the problems found in the file, one line each with its
	// line number, for the user to fix; the rest of the file still counts.
	Notes []string
	// Truncated is set when the file was longer than MaxFile.
	Truncated bool

	names []termName
}

// termName is one name of a term, as written.
type termName struct {
	term int
	text string
}

// name is one name of a term, ready to match.
type name struct {
	norm   string   // lower case, blanks folded to one space
	words  []string // its words, lower case
	seps   []string // what stands between words i and i+1
	prefix string   // what comes before its first word (".env")
	suffix string   // what comes after its last word ("C++")
}

// Path is the glossary file of project (a project identity, project.Identify)
// in dataDir: named for the project's folder, with a hash of its path so
// that two projects of one name keep their own. It is "" for no project.
func Path(dataDir, project string) string {
	if project == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(project))
	base := strings.Map(func(r rune) rune {
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.') {
			return r
		}
		return '-'
	}, path.Base(strings.ReplaceAll(project, `\`, "/"))) // a Windows path on any OS
	base = strings.Trim(base, "-.")
	if len(base) > 40 {
		base = base[:40]
	}
	if base == "" {
		base = "project"
	}
	return filepath.Join(dataDir, Dir, base+"-"+hex.EncodeToString(sum[:6])+".md")
}

// Load reads and parses the glossary at path, with private sections and
// secrets removed (privacy.Filter) before anything is parsed, so no
// definition can carry them. A missing file gives an error wrapping
// os.ErrNotExist; anything but a regular file, one wrapping
// regular.ErrNotRegular.
func Load(path string) (*Glossary, error) {
	text, truncated, err := read(path)
	if err != nil {
		return nil, err
	}
	g := Parse(privacy.Filter(text))
	g.Truncated = truncated
	return g, nil
}

// Match returns the terms of the glossary at path that prompt uses, as Load
// and Used would, for the prompt hook: the privacy filter, which costs more
// than the rest, runs only when the prompt uses a term. Errors are Load's.
func Match(path, prompt string) ([]Term, error) {
	text, _, err := read(path)
	if err != nil {
		return nil, err
	}
	terms := Parse(text).Used(prompt)
	if len(terms) == 0 {
		return nil, nil
	}
	if strings.Contains(strings.ToLower(text), "private") {
		// A term may hold, or sit inside, a private section (or a private
		// key): what the prompt uses is found again in the filtered text.
		return Parse(privacy.Filter(text)).Used(prompt), nil
	}
	// No private section anywhere: the terms' own text is all there is to
	// filter, a few lines rather than the whole file.
	for i, t := range terms {
		terms[i].Name, terms[i].Definition = privacy.Filter(t.Name), privacy.Filter(t.Definition)
		terms[i].Aliases = make([]string, len(t.Aliases))
		for j, a := range t.Aliases {
			terms[i].Aliases[j] = privacy.Filter(a)
		}
	}
	return terms, nil
}

// read reads the glossary at path up to MaxFile, cut at the last whole line
// when longer (truncated): a term cut in half would be defined by half its
// text.
func read(path string) (text string, truncated bool, err error) {
	f, err := regular.Open(path)
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return "", false, fmt.Errorf("read glossary %s: %w", path, err)
	}
	if len(b) > MaxFile {
		b, truncated = b[:MaxFile], true
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			b = b[:i+1]
		}
	}
	return string(b), truncated, nil
}

// Example is what Init writes: how to write terms, with an example in a
// comment, so that a new glossary defines nothing until the user writes in it.
const Example = `# Glossary

Terms of this project, written by you. When a prompt uses a term (in any
case, singular or plural), its definition is added to what Claude is shown
for that prompt. Write each term as a heading with its definition below it,
or as a list item: ` + "`- **Term**: definition`" + `. Several names of one term
are separated by " / ". Text in HTML comments is not read.

<!-- An example; copy it out of this comment to use it.

## Ledger service / ledger
The service that records every payment. It listens on port 7443 and is
owned by the payments team.

- **Hot path**: the code that runs on every request; keep it allocation-free.

-->
`

// Init writes Example to path, creating its folder, unless a file is there
// already; created reports whether it wrote one.
func Init(path string) (created bool, err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false, fmt.Errorf("create glossary folder: %w", err)
	}
	f, err := regular.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("create glossary: %w", err)
	}
	if _, err := f.WriteString(Example); err != nil {
		f.Close()
		return false, fmt.Errorf("write glossary: %w", err)
	}
	return true, f.Close()
}

// Parse reads the terms of a glossary's text. It never fails: what it cannot
// read as a term is text it leaves out, and a line that looks meant as a
// term and is not one is named in Notes.
func Parse(text string) *Glossary {
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	// Sized for a term on every other line: growing the maps was most of
	// the cost of a large glossary.
	n := min(strings.Count(text, "\n")/2+1, 2*maxTerms)
	p := parser{g: &Glossary{}, seen: make(map[string]int, n)}
	for i, line := range strings.Split(text, "\n") {
		p.line(i+1, strings.TrimRight(line, "\r"))
	}
	p.finish()
	return p.g
}

type parser struct {
	g         *Glossary
	cur       *Term
	heading   bool            // cur is a heading's term (its definition runs to the next heading)
	blank     bool            // a blank line came after cur's definition so far
	def       strings.Builder // cur's definition so far
	inComment bool
	fence     string         // the open code fence ("```"), or ""
	seen      map[string]int // a name, lower case -> the line defining it
}

func (p *parser) line(n int, line string) {
	line = p.dropComments(line)
	trimmed := strings.TrimSpace(line)
	if p.fence != "" {
		if strings.HasPrefix(trimmed, p.fence) {
			p.fence = ""
		}
		p.add(line)
		return
	}
	if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
		p.fence = trimmed[:3]
		p.add(line)
		return
	}
	if level, text, ok := heading(line); ok {
		p.finish()
		if level > 1 { // a level-1 heading is the file's title
			p.start(n, text, "", true)
		}
		return
	}
	if trimmed == "" {
		if !p.heading {
			p.finish() // a blank line ends a list item's term
		}
		p.add("")
		return
	}
	if name, def, ok := listTerm(line, !p.heading); ok {
		p.finish()
		p.start(n, name, def, false)
		return
	}
	p.add(line)
}

// dropComments removes HTML comments from line, and the rest of it when one
// opens without closing (the lines after it up to the close go too).
func (p *parser) dropComments(line string) string {
	if !p.inComment && !strings.Contains(line, "<!--") {
		return line
	}
	var b strings.Builder
	for {
		if p.inComment {
			end := strings.Index(line, "-->")
			if end < 0 {
				return b.String()
			}
			line = line[end+3:]
			p.inComment = false
		}
		start := strings.Index(line, "<!--")
		if start < 0 || p.fence != "" {
			b.WriteString(line)
			return b.String()
		}
		b.WriteString(line[:start])
		line = line[start+4:]
		p.inComment = true
	}
}

// add appends a line to the current term's definition; blank lines
// between its lines become one.
func (p *parser) add(line string) {
	if p.cur == nil {
		return
	}
	line = strings.TrimSpace(line)
	if line == "" {
		p.blank = p.def.Len() > 0
		return
	}
	if p.def.Len() > 0 {
		p.def.WriteByte('\n')
		if p.blank {
			p.def.WriteByte('\n')
		}
	}
	p.blank = false
	p.def.WriteString(line)
}

func (p *parser) start(n int, names, def string, isHeading bool) {
	p.cur = &Term{Line: n}
	p.heading, p.blank = isHeading, false
	p.def.Reset()
	p.add(def)
	for _, nm := range strings.Split(names, " / ") {
		nm = cleanName(nm)
		switch {
		case nm == "":
		case utf8.RuneCountInString(nm) > maxName:
			p.note(n, "a name over %d characters is not matched: %q", maxName, clip(nm, 40))
		case strings.IndexFunc(nm, isWord) < 0:
			p.note(n, "a name needs a letter or digit: %q", nm)
		default:
			if p.cur.Name == "" {
				p.cur.Name = nm
			} else {
				p.cur.Aliases = append(p.cur.Aliases, nm)
			}
		}
	}
}

// finish files the current term, if it has a name and a definition.
func (p *parser) finish() {
	t, wasHeading := p.cur, p.heading
	p.cur, p.heading = nil, false
	if t == nil || t.Name == "" {
		return
	}
	t.Definition = p.def.String()
	if t.Definition == "" {
		if !wasHeading {
			// A heading with no text is a section's: its terms follow.
			p.note(t.Line, "%q has no definition", t.Name)
		}
		return
	}
	if len(p.g.Terms) >= maxTerms {
		p.note(t.Line, "more than %d terms: %q and the terms after it are not matched", maxTerms, t.Name)
		return
	}
	idx := len(p.g.Terms)
	added := 0
	for _, nm := range append([]string{t.Name}, t.Aliases...) {
		key := strings.ToLower(nm)
		if first, dup := p.seen[key]; dup {
			p.note(t.Line, "%q is defined already (line %d); the first definition counts", nm, first)
			continue
		}
		p.seen[key] = t.Line
		p.g.names = append(p.g.names, termName{idx, nm})
		added++
	}
	if added > 0 {
		p.g.Terms = append(p.g.Terms, *t)
	}
}

func (p *parser) note(n int, format string, args ...any) {
	if len(p.g.Notes) < 50 {
		p.g.Notes = append(p.g.Notes, fmt.Sprintf("line %d: ", n)+fmt.Sprintf(format, args...))
	}
}

// heading reads an ATX heading: level 1 to 6 and its text.
func heading(line string) (level int, text string, ok bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return 0, "", false // indented code
	}
	for level < len(t) && t[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(t) && t[level] != ' ' && t[level] != '\t') {
		return 0, "", false
	}
	text = strings.TrimSpace(t[level:])
	// A closing run of '#' is no part of the text.
	if s := strings.TrimRight(text, "#"); s == "" || strings.HasSuffix(s, " ") {
		text = strings.TrimSpace(s)
	}
	return level, text, true
}

// listTerm reads a term that starts a list item or line: "- **Name**:
// definition", "**Name:** definition", "- `Name` — definition" and, when
// plain is set, "- Name: definition".
func listTerm(line string, plain bool) (name, def string, ok bool) {
	if len(line)-len(strings.TrimLeft(line, " \t")) > 1 {
		return "", "", false // indented: part of the definition above
	}
	t := strings.TrimSpace(line)
	bullet := false
	if len(t) > 1 && strings.ContainsRune("-*+", rune(t[0])) && (t[1] == ' ' || t[1] == '\t') {
		t, bullet = strings.TrimSpace(t[2:]), true
	}
	for _, mark := range []string{"**", "__", "`"} {
		rest, found := strings.CutPrefix(t, mark)
		if !found {
			continue
		}
		end := strings.Index(rest, mark)
		if end <= 0 {
			return "", "", false
		}
		name, after := rest[:end], strings.TrimSpace(rest[end+len(mark):])
		if n, colon := strings.CutSuffix(name, ":"); colon { // "**Name:** definition"
			return n, after, true
		}
		for _, sep := range []string{":", "—", "–", "- ", "="} {
			if d, found := strings.CutPrefix(after, sep); found {
				return name, d, true
			}
		}
		return "", "", false
	}
	if !bullet || !plain {
		return "", "", false
	}
	name, def, found := strings.Cut(t, ": ")
	if !found || strings.Count(name, " ") > 5 || strings.ContainsAny(name, "()[]<>") {
		return "", "", false
	}
	return name, def, true
}

// cleanName strips the emphasis and punctuation around a name and folds its
// blanks.
func cleanName(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	for {
		t := strings.TrimSpace(strings.Trim(s, "*_`:"))
		if t == s {
			return s
		}
		s = t
	}
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// isWord reports whether r belongs to a word: letters, digits, marks and
// '_', as a regular expression's \b sees them, in every script.
func isWord(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// unspaced reports whether r is of a script written without spaces between
// words, or with particles joined to them (Korean): a term in it is found
// wherever its letters are.
func unspaced(r rune) bool {
	if r < 0x0E00 { // below Thai, the first of them
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Thai)
}

// normalize lower-cases s and folds its runs of blanks to one space.
func normalize(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// span is a word's place in a normalized text.
type span struct{ start, end int }

// words returns the spans of s's words.
func words(s string) []span {
	var out []span
	start := -1
	for i, r := range s {
		switch {
		case isWord(r) && start < 0:
			start = i
		case !isWord(r) && start >= 0:
			out = append(out, span{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, span{start, len(s)})
	}
	return out
}

// compile readies a name to match: its words, lower case, and what stands
// between and around them. A name in a script written without spaces has
// no words: it is matched as a substring (norm).
func compile(text string) name {
	norm := normalize(text)
	n := name{norm: norm}
	if strings.ContainsFunc(norm, unspaced) {
		return n
	}
	ws := words(norm)
	if len(ws) == 0 {
		return n
	}
	n.prefix, n.suffix = norm[:ws[0].start], norm[ws[len(ws)-1].end:]
	for i, w := range ws {
		n.words = append(n.words, norm[w.start:w.end])
		if i > 0 {
			n.seps = append(n.seps, norm[ws[i-1].end:w.start])
		}
	}
	return n
}

// leadKey appends to buf the key of an ASCII name in the prompt's map of
// words (Used): its first word in lower case, and when it has more, a zero
// byte and its second. ok is false for a name with other characters, which
// is compiled whole.
func leadKey(text string, buf []byte) (key []byte, ok bool) {
	words, in := 0, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= utf8.RuneSelf {
			return nil, false
		}
		w := isWord(rune(c))
		switch {
		case w && !in && words == 2:
			return buf, asciiRest(text[i:])
		case w && !in:
			if words == 1 {
				buf = append(buf, 0)
			}
			words++
		case !w:
			in = false
			continue
		}
		in = true
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf, len(buf) > 0
}

// asciiRest reports whether s is all ASCII.
func asciiRest(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// pairKey is the key of two words in the prompt's map of words (Used).
func pairKey(a, b string) string { return a + "\x00" + b }

// Used returns the terms prompt uses, in the order it first uses them: a
// name matches whole words, in any case, its last word in the singular or
// a regular plural ("proxies" uses "proxy"), with any blanks between its
// words; a name in a script written without spaces (Chinese, Japanese,
// Korean, Thai) matches wherever its letters are.
//
// It costs a map of the prompt's words and, per name, a look-up of its
// first word in it: only the names whose first word the prompt has are
// compared in full.
func (g *Glossary) Used(prompt string) []Term {
	if g == nil || len(g.names) == 0 {
		return nil
	}
	p := normalize(prompt)
	ws := words(p)
	// Each word of the prompt, and each pair of words, to where it stands;
	// with each singular the (last) word may be the plural of.
	where := make(map[string][]int, 2*len(ws))
	for i, w := range ws {
		word := p[w.start:w.end]
		where[word] = append(where[word], i)
		for _, s := range plural.Singulars(word) {
			where[s] = append(where[s], i)
		}
		if i > 0 {
			prev := p[ws[i-1].start:ws[i-1].end]
			where[pairKey(prev, word)] = append(where[pairKey(prev, word)], i-1)
			for _, s := range plural.Singulars(word) {
				where[pairKey(prev, s)] = append(where[pairKey(prev, s)], i-1)
			}
		}
	}
	at := map[int]int{} // term -> where the prompt first uses it
	var buf [128]byte
	for _, nm := range g.names {
		if _, done := at[nm.term]; done {
			continue
		}
		var cands []int
		key, ascii := leadKey(nm.text, buf[:0])
		if ascii {
			cands = where[string(key)]
			if key[len(key)-1] == 's' { // a plural name, a prompt in the singular
				for _, s := range plural.Singulars(string(key)) {
					cands = append(cands[:len(cands):len(cands)], where[s]...)
				}
			}
			if len(cands) == 0 {
				continue
			}
		}
		n := compile(nm.text)
		if n.words == nil {
			if pos := strings.Index(p, n.norm); n.norm != "" && pos >= 0 {
				at[nm.term] = pos
			}
			continue
		}
		if !ascii {
			k := n.words[0]
			if len(n.words) > 1 {
				k = pairKey(k, n.words[1])
			}
			cands = where[k]
			for _, s := range plural.Singulars(k) {
				cands = append(cands[:len(cands):len(cands)], where[s]...)
			}
		}
		for _, i := range cands {
			if start, ok := n.matchAt(p, ws, i); ok {
				if old, seen := at[nm.term]; !seen || start < old {
					at[nm.term] = start
				}
			}
		}
	}
	order := make([]int, 0, len(at))
	for t := range at {
		order = append(order, t)
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Or(cmp.Compare(at[a], at[b]), cmp.Compare(a, b)) })
	out := make([]Term, len(order))
	for i, t := range order {
		out[i] = g.Terms[t]
	}
	return out
}

// matchAt reports whether the name is written in p from its word i on, and
// where it starts.
func (n name) matchAt(p string, ws []span, i int) (int, bool) {
	if i+len(n.words) > len(ws) {
		return 0, false
	}
	start := ws[i].start - len(n.prefix)
	if start < 0 || p[start:ws[i].start] != n.prefix {
		return 0, false
	}
	last := len(n.words) - 1
	for j, w := range n.words {
		got := p[ws[i+j].start:ws[i+j].end]
		if j < last && got != w || j == last && !plural.Same(w, got) {
			return 0, false
		}
		if j > 0 && p[ws[i+j-1].end:ws[i+j].start] != n.seps[j-1] {
			return 0, false
		}
	}
	end := ws[i+last].end
	if !strings.HasPrefix(p[end:], n.suffix) {
		return 0, false
	}
	return start, true
}

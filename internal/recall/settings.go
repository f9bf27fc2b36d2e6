package recall

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// setting is a value a line of a config file sets ("publish = \"dist\"" in
// netlify.toml): the file's base name, the setting's name and its value
// without quotes, and the line as written.
type setting struct {
	file, name, value, line string
}

// configExts are the extensions of files whose lines set values one by
// one, a name and a value a line: what a line of them says is a setting,
// where a line of code names, computes or calls. A ".env" file is one
// too, whatever follows its name (configFile).
var configExts = map[string]bool{
	"toml": true, "yaml": true, "yml": true, "ini": true, "cfg": true, "conf": true,
	"env": true, "properties": true, "json": true, "jsonc": true,
}

// configFile reports a config file by its name: its extension
// (configExts), or a word of its name before that says it is one
// ("astro.config.mjs", "vite.config.ts", Django's "settings.py"), whose
// lines set values though they are code.
func configFile(path string) bool {
	name := strings.ToLower(baseName(path))
	if strings.HasPrefix(name, ".env") {
		return true
	}
	ext := filepath.Ext(name)
	if ext != "" && configExts[ext[1:]] {
		return true
	}
	return slices.ContainsFunc(lowerRuns(strings.TrimSuffix(name, ext)), func(w string) bool { return w == "config" || w == "settings" })
}

// configNameRE finds a config file's name in prose ("`netlify.toml` —
// …", "in wrangler.toml"): a run of name characters before a config
// extension, or a ".env" file.
var configNameRE = lazyregexp.New(`(?i)(?:^|[^\w./-])((?:[\w-][\w.-]*)?\.(?:toml|ya?ml|ini|cfg|conf|properties|jsonc?|env(?:\.[\w-]+)?))\b`)

// settingLine reads a config line that sets one scalar value: "name =
// value", "name: value" or "\"name\": value", the value a quoted string or
// a run of characters with no space, bracket or brace ("dist", "8080",
// "true", "./out"), a trailing comma and a comment after it left out. A
// line that opens a table, a list or an object sets nothing one can
// compare.
func settingLine(line, opener string) (name, value string, ok bool) {
	line = code(strings.TrimSpace(line), opener)
	line = strings.TrimSuffix(strings.TrimSpace(line), ",")
	if line == "" || comment(line, opener) {
		return "", "", false
	}
	k := strings.IndexAny(line, "=:")
	if k <= 0 {
		return "", "", false
	}
	name = strings.TrimSpace(line[:k])
	if q := strings.Trim(name, `"'`); len(q) == len(name)-2 {
		name = q
	}
	rest := strings.TrimSpace(line[k+1:])
	if rest == "" || !settingName(name) {
		return "", "", false
	}
	if q := rest[0]; q == '"' || q == '\'' {
		end := strings.IndexByte(rest[1:], q)
		if end < 0 || end+2 != len(rest) {
			return "", "", false // a string not closed, or code after it
		}
		return name, rest[1 : end+1], true
	}
	if strings.ContainsAny(rest, " \t()[]{}<>\"'`,;") {
		return "", "", false
	}
	return name, rest, true
}

// fileSettings are the settings lines set in a config file, each name
// once: a name set on two lines (a key of two tables, a list's items) is
// no one value.
func fileSettings(file string, lines []string) map[string]setting {
	opener := lineComment(file)
	out := map[string]setting{}
	twice := map[string]bool{}
	for _, l := range lines {
		name, value, ok := settingLine(l, opener)
		if !ok {
			continue
		}
		if _, seen := out[name]; seen {
			twice[name] = true
		}
		out[name] = setting{file: baseName(file), name: name, value: value, line: strings.TrimSpace(l)}
	}
	for name := range twice {
		delete(out, name)
	}
	return out
}

// shownSettings are the settings an item shows: the lines of a config file
// a tool run read, wrote or edited in (fileShown), those its excerpt
// shows; and in a message or an entry, or the answer shown with it, a code
// span setting a value on a line that names the config file
// ("`netlify.toml` — `publish = \"dist\"`").
func shownSettings(it Item) []setting {
	if it.Kind == store.TypeToolObservation {
		file, held := fileShown(it.event.Text)
		if file == "" || !configFile(file) {
			return nil
		}
		var lines []string
		for l := range held {
			if strings.Contains(it.Excerpt, l) {
				lines = append(lines, l)
			}
		}
		slices.Sort(lines)
		var out []setting
		for _, s := range fileSettings(file, lines) {
			out = append(out, s)
		}
		slices.SortFunc(out, func(a, b setting) int { return strings.Compare(a.name, b.name) })
		return out
	}
	text := it.Excerpt
	if it.Kind == KindEntry {
		text = it.Text + "\n" + it.Quote
	}
	text += "\n" + it.ContextExcerpt // the answer or the run after it, shown with it
	var out []setting
	for l := range strings.Lines(text) {
		files := configNameRE.FindAllStringSubmatch(l, 2)
		if len(files) != 1 {
			continue // no file, or two: which one a value is set in is not said
		}
		file := files[0][1]
		for _, span := range codeSpans(l) {
			if name, value, ok := settingLine(span, ""); ok && !strings.EqualFold(span, file) {
				out = append(out, setting{file: baseName(file), name: name, value: value, line: span})
			}
		}
	}
	return out
}

// codeSpans are the texts a line quotes as code, between single backquotes.
func codeSpans(line string) []string {
	var out []string
	for {
		a := strings.IndexByte(line, '`')
		if a < 0 {
			return out
		}
		b := strings.IndexByte(line[a+1:], '`')
		if b < 0 {
			return out
		}
		if b > 0 {
			out = append(out, line[a+1:a+1+b])
		}
		line = line[a+b+2:]
	}
}

// maxSettingLookups bounds the searches settingWarnings makes for a
// prompt: each reads a page of the file's tool runs.
const maxSettingLookups = 3

// settingScan is how many of a config file's newest tool runs naming a
// setting a lookup reads.
const settingScan = 30

// settingWarnings finds, for a setting a shown item states that the prompt
// asks about (a word of its name or value is one of the prompt's specific
// words), the value the file held before, in the store: a config file's
// value is what was decided last, and the one it replaced may still be
// assumed ("publish = \".\"" before "publish = \"dist\""). The runs of the
// file are read newest first: one after the item that sets another value
// makes the item's stale (laterEdits' case, no warning here); before it,
// the newest that sets another value, or an edit that replaced another with
// it, is the older side. Items whose change a warning already tells
// (paired) are passed over.
func settingWarnings(ctx context.Context, db *store.DB, sel []Item, paired map[[2]int64]bool) ([]Warning, error) {
	var out []Warning
	told := map[string]bool{} // an older run's line, once warned about
	lookups := 0
	for _, n := range sel {
		if len(out) == perKind || lookups == maxSettingLookups {
			break
		}
		if _, _, _, ok := editLines(n.event.Text); ok && n.Kind == store.TypeToolObservation {
			continue // an edit shows its lines before and after: editWarnings
		}
		for _, s := range shownSettings(n) {
			if lookups == maxSettingLookups || !asksSetting(n, s) {
				continue
			}
			lookups++
			o, line, ok, err := priorSetting(ctx, db, n, s)
			if err != nil {
				return nil, err
			}
			if !ok || paired[pair(itemKey(o), itemKey(n))] || told[o.CID+"\x00"+line] {
				continue
			}
			a := Memory{CID: o.CID, Type: kindLabel(o), Date: o.Time, Title: line}
			b := Memory{CID: n.CID, Type: kindLabel(n), Date: n.Time, Title: s.line}
			out = append(out, Warning{Severity: "HIGH", Kind: "superseded", Old: line, A: a, B: b, kept: true,
				Note: fmt.Sprintf("%s in %s: %s (%s) replaced %s; the newer is the current one.",
					Inert(s.name), curlyQuotes.Replace(Inert(s.file)), Inert(strconv.Quote(s.value)), date(n.Time),
					Inert(strconv.Quote(settingValue(line, s.file))))})
			paired[pair(itemKey(o), itemKey(n))] = true
			told[o.CID+"\x00"+line] = true
			break // one setting an item: its others are the same file's
		}
	}
	return out, nil
}

// asksSetting reports whether the prompt n was recalled for asks about
// setting s: a specific word of it is a word of the setting's name or value.
func asksSetting(n Item, s setting) bool {
	tk := keysOf(s.name + " " + s.value)
	return slices.ContainsFunc(n.promptConcepts, func(c concept) bool { return c.specific > 0 && hasAny(tk, c.keys) })
}

// settingValue is the value a setting line sets, or the line.
func settingValue(line, file string) string {
	if _, v, ok := settingLine(line, lineComment(file)); ok {
		return v
	}
	return line
}

// priorSetting looks up the value file s.file held for s.name before item
// n stated s (settingWarnings): the tool run that shows it and its line.
func priorSetting(ctx context.Context, db *store.DB, n Item, s setting) (Item, string, bool, error) {
	project := n.event.Project
	if n.Kind == KindEntry {
		project = n.entry.Project
	}
	words := append(lowerRuns(s.file), lowerRuns(s.name)...)
	hits, err := db.SearchEvents(ctx, store.EventQuery{
		Match: store.MatchAll(words, false), Project: project,
		Types: []string{store.TypeToolObservation}, Newest: true, Limit: settingScan,
	})
	if err != nil {
		return Item{}, "", false, err
	}
	slices.SortStableFunc(hits, func(a, b store.EventHit) int { return b.Time.Compare(a.Time) })
	// The item states s when the last of what it shows was said: an
	// entry quoting a prompt shows the answer after it too, where s may be.
	at := n.Time
	if n.Context != nil && n.Context.Time.After(at) {
		at = n.Context.Time
	}
	for _, h := range hits {
		if slices.Contains(n.events, h.ID) || n.Context != nil && n.Context.ID == h.ID {
			continue
		}
		before, after, ok := settingsOf(h.Text, s.file)
		if !ok {
			continue
		}
		a, set := after[s.name]
		if h.Time.After(at) {
			if set && a.value != s.value {
				return Item{}, "", false, nil // changed again since: n is stale
			}
			continue
		}
		if !set {
			continue
		}
		if a.value != s.value {
			return messageItem(h.Event, ""), a.line, true, nil
		}
		if b, ok := before[s.name]; ok && b.value != s.value {
			return messageItem(h.Event, ""), b.line, true, nil // the edit that set it
		}
	}
	return Item{}, "", false, nil
}

// settingsOf reads a tool run's text for the settings of config file file
// (by its base name) it shows: an edit's lines before and after, a write's
// or a read's lines (after). ok is false for a run of another file or a
// failed one.
func settingsOf(text, file string) (before, after map[string]setting, ok bool) {
	if f, removed, added, ok := editLines(text); ok {
		if !strings.EqualFold(baseName(f), file) {
			return nil, nil, false
		}
		return fileSettings(f, removed), fileSettings(f, added), true
	}
	f, held := fileShown(text)
	if f == "" || !strings.EqualFold(baseName(f), file) {
		return nil, nil, false
	}
	return nil, fileSettings(f, slices.Collect(maps.Keys(held))), true
}

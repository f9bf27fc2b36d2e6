package recall

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/codespan"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// setting is a value a line of a config file sets ("publish = \"dist\"" in
// netlify.toml): the file, the setting's name and its value without
// quotes, and the line as written.
type setting struct {
	// path is the file's path as a tool run names it, "" for a file a
	// message names by its base name (file).
	path, file        string
	name, value, line string
}

// configExts are the extensions of files whose lines set values one by
// one, a name and a value a line: what a line of them says is a setting,
// where a line of code names, computes or calls.
var configExts = map[string]bool{
	"toml": true, "yaml": true, "yml": true, "ini": true, "cfg": true, "conf": true,
	"properties": true, "json": true, "jsonc": true,
}

// scriptConfigExts are the extensions of code a tool's config file may be
// written in ("astro.config.mjs", "vite.config.ts", Django's
// "settings.py"): such a file is config by its name (configFile).
var scriptConfigExts = map[string]bool{
	"js": true, "mjs": true, "cjs": true, "ts": true, "mts": true, "cts": true, "py": true, "rb": true,
}

// configFile reports a config file by its name: its extension
// (configExts); a ".env" file ("…/.env", ".env.local"); or code named as a
// tool's config ("astro.config.mjs", "settings.py"), whose lines set values
// though they are code (scriptConfig). "config.go" and "config_test.go"
// hold code that reads a config, not one.
func configFile(path string) bool {
	name := strings.ToLower(baseName(path))
	if name == ".env" || strings.HasPrefix(name, ".env.") {
		return true
	}
	ext := filepath.Ext(name)
	return ext != "" && configExts[ext[1:]] || scriptConfig(name)
}

// scriptConfig reports a file of code named as a tool's config (see
// scriptConfigExts): its name before the extension is "config" or
// "settings", or ends in ".config".
func scriptConfig(name string) bool {
	name = strings.ToLower(name)
	ext := filepath.Ext(name)
	if ext == "" || !scriptConfigExts[ext[1:]] {
		return false
	}
	stem := strings.TrimSuffix(name, ext)
	return stem == "config" || stem == "settings" || strings.HasSuffix(stem, ".config")
}

// configNameRE finds a config file's name in prose ("`netlify.toml` —
// …", "in astro.config.mjs", "the .env.local file"): a run of name
// characters before an extension, or a ".env" file's name, not after a
// dot or a name character ("process.env.PORT" names no file). configFile
// has the last word.
var configNameRE = lazyregexp.New(`(?i)(?:^|[^\w./-])((?:[\w-][\w.-]*)?\.(?:toml|ya?ml|ini|cfg|conf|properties|jsonc?|m?js|cjs|m?ts|cts|py|rb|env(?:\.[\w-]+)?))\b`)

// settingLine reads a config line that sets one scalar value: "name =
// value", "name: value" or "\"name\": value" (settingParts), the value a
// quoted string or a run of characters with no space, bracket or brace
// ("dist", "8080", "true", "./out"), a trailing comma and a comment after
// it left out. A line that opens a table, a list or an object sets nothing
// one can compare. In code (literal), only a literal value counts: "base:
// BASE" and "site: process.env.SITE_URL" name what sets it elsewhere.
func settingLine(line, opener string, literal bool) (name, value string, ok bool) {
	name, rest, ok := settingParts(line, opener)
	if !ok {
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
	if literal && !literalValue(rest) {
		return "", "", false
	}
	return name, rest, true
}

// settingParts splits a line written "name = value", "name: value" or
// "\"name\": value" into the setting's name, unquoted, and what follows
// its separator, trimmed, a trailing comma and a comment after it left
// out; ok is false for a line of no such form, or an empty value. After a
// colon a space must follow unless the name is quoted, as YAML has it:
// "localhost:3000", "http://x", "C:\x", "li:first-child" and Go's ":=" are
// no settings, and neither is "==".
func settingParts(line, opener string) (name, rest string, ok bool) {
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
	quoted := false
	if q := strings.Trim(name, `"'`); len(q) == len(name)-2 {
		name, quoted = q, true
	}
	rest = line[k+1:]
	if line[k] == ':' && !quoted && !strings.HasPrefix(rest, " ") && !strings.HasPrefix(rest, "\t") {
		return "", "", false
	}
	rest = strings.TrimSpace(rest)
	if rest == "" || !settingName(name) || strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "//") {
		return "", "", false
	}
	return name, rest, true
}

// literalValue reports an unquoted value code writes as a literal: a
// number, or true, false, null or None.
func literalValue(v string) bool {
	switch strings.ToLower(v) {
	case "true", "false", "null", "none", "nil":
		return true
	}
	_, err := strconv.ParseFloat(v, 64)
	return err == nil
}

// fileSettings are the settings lines set in a config file, each name
// once, and the names set on two lines or more (a key of two tables or
// sections, a list's items): those are no one value.
func fileSettings(file string, lines []string) (settings map[string]setting, twice map[string]bool) {
	opener, literal := lineComment(file), scriptConfig(baseName(file))
	settings, twice = map[string]setting{}, map[string]bool{}
	for _, l := range lines {
		name, value, ok := settingLine(l, opener, literal)
		if !ok {
			continue
		}
		if _, seen := settings[name]; seen {
			twice[name] = true
		}
		settings[name] = setting{path: file, file: baseName(file), name: name, value: value, line: strings.TrimSpace(l)}
	}
	for name := range twice {
		delete(settings, name)
	}
	return settings, twice
}

// shownSettings are the settings an item shows: the lines of a config file
// a tool run read, wrote or edited in (fileShown) that its excerpt shows
// whole, each name set once in all the run holds; and in Claude's message
// or an entry, or the answer shown with it, a code span setting a value
// on a line that names the config file and tells no change
// ("`netlify.toml` — `publish = \"dist\"`", not "changed `publish = \".\"`
// to `publish = \"dist\"`", which names both). A user's prompt asks or
// wants; it states nothing set.
func shownSettings(it Item) []setting {
	if it.Kind == store.TypeToolObservation {
		// The excerpt shows lines of the scanned part of the text, its
		// whole lines parsed; the rest, up to 256 KB of a lock file, is
		// read only for the names shown: one set again there is set twice.
		head := scanned(it.event.Text)
		if len(head) < len(it.event.Text) {
			head = head[:strings.LastIndexByte(head, '\n')+1]
		}
		file, held := fileShown(head)
		if file == "" || !configFile(file) {
			return nil
		}
		all, _ := fileSettings(file, slices.Sorted(maps.Keys(held)))
		rest := it.event.Text[len(head):]
		var out []setting
		for _, s := range all {
			if showsWholeLine(it.Excerpt, s.line) && !setAgain(firstLine(head), rest, s) {
				out = append(out, s)
			}
		}
		slices.SortFunc(out, func(a, b setting) int { return strings.Compare(a.name, b.name) })
		return out
	}
	if it.Kind == store.TypeUserPrompt {
		return nil
	}
	text := it.Excerpt
	if it.Kind == KindEntry {
		text = it.Text + "\n" + it.Quote
	}
	if it.Context != nil && it.Context.Type != store.TypeUserPrompt {
		text += "\n" + it.ContextExcerpt // the answer or the run after it, shown with it
	}
	var set []setting
	for l := range strings.Lines(text) {
		l = strings.TrimSpace(l)
		files := configNameRE.FindAllStringSubmatch(l, 2)
		if len(files) != 1 || !configFile(files[0][1]) || strings.HasSuffix(l, "?") || !claim.Settled(l) {
			continue // no file, or two; a question; a change, a removal, a rejection
		}
		file := baseName(files[0][1])
		for _, span := range codespan.Texts(l) {
			if name, value, ok := settingLine(span, "", scriptConfig(file)); ok {
				set = append(set, setting{file: file, name: name, value: value, line: span})
			}
		}
	}
	// A name of a file the item sets to two values ("Before: … After: …",
	// "used to set …") tells a change or a past: neither is a statement.
	var out []setting
	for _, s := range set {
		if !slices.ContainsFunc(set, func(o setting) bool { return o.file == s.file && o.name == s.name && o.value != s.value }) &&
			!slices.ContainsFunc(out, func(o setting) bool { return o.file == s.file && o.name == s.name }) {
			out = append(out, s)
		}
	}
	return out
}

// statedSettings are the settings item n states (shownSettings, read with
// shown). Of an applied edit, those its kept lines state (keptSettings)
// that its excerpt shows whole: the edit applied, so its text matched the
// file, and those lines are what the file held then, as a read's are. A
// line the edit changed tells its own change (editWarnings). For an edit,
// edit is true and first is its first line before the change, which
// shownBefore reads.
func statedSettings(n Item, shown func(Item) []setting) (ss []setting, first string, edit bool) {
	if _, _, ok := editHeader(n.event.Text); n.Kind != store.TypeToolObservation || !ok {
		return shown(n), "", false
	}
	file, first, kept, ok := keptSettings(n)
	if !ok {
		return nil, "", false
	}
	for _, s := range kept {
		if showsWholeLine(n.Excerpt, s.line) {
			s.path, s.file = file, baseName(file)
			ss = append(ss, s)
		}
	}
	slices.SortFunc(ss, func(a, b setting) int { return strings.Compare(a.name, b.name) })
	return ss, first, true
}

// keptSettings reads tool run it, an applied Edit of a config file, for
// the settings its kept lines state: those of the file's top level it kept
// before any section header, any "  …" that left kept lines out, or its
// last line (an edit's text may end within a line), and not indented (a
// nested block's); none the edit changed (a removed or added line sets the
// name), each set once. first is the edit's first line before the change,
// by which shownBefore tells that it starts where the file does: an
// edit's text may start within a section, or within a line. ok is false
// for any other item, a failed edit or one cut when stored; a MultiEdit's
// edits each start anywhere.
func keptSettings(it Item) (file, first string, kept []setting, ok bool) {
	if it.Kind != store.TypeToolObservation {
		return "", "", nil, false
	}
	text := it.event.Text
	file, body, ok := editHeader(text)
	if !ok || !strings.HasPrefix(text, "Edit: ") || !configFile(file) || wasCut(text) {
		return "", "", nil, false
	}
	opener, literal := lineComment(file), scriptConfig(baseName(file))
	lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
	changed := map[string]bool{}
	var keep []string
	open := true // still within the top level's run of kept lines
	for i, l := range lines {
		k, isKept := strings.CutPrefix(l, "  ")
		r, isRemoved := strings.CutPrefix(l, "- ")
		a, isAdded := strings.CutPrefix(l, "+ ")
		line := k
		switch {
		case isRemoved:
			line = r
		case isAdded:
			line = a
		case !isKept:
			open = false
			continue
		}
		t := strings.TrimSpace(line)
		if first == "" && !isAdded {
			first = t
		}
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") || isKept && t == "…" {
			open = false // a section header, or kept lines left out
		}
		if isRemoved || isAdded {
			if n, _, ok := settingLine(t, opener, literal); ok {
				changed[n] = true
			}
			continue
		}
		if open && i < len(lines)-1 && t != "" && line == strings.TrimLeft(line, " \t") {
			keep = append(keep, t)
		}
	}
	all, _ := fileSettings(file, keep)
	for _, s := range all {
		if !changed[s.name] {
			kept = append(kept, s)
		}
	}
	return file, first, kept, true
}

// setAgain reports whether rest, the lines after those s was read from
// in a tool run whose first line is head, sets s's name on another line.
func setAgain(head, rest string, s setting) bool {
	for {
		k := strings.Index(rest, s.name)
		if k < 0 {
			return false
		}
		start, end := strings.LastIndexByte(rest[:k], '\n')+1, len(rest)
		if e := strings.IndexByte(rest[k:], '\n'); e >= 0 {
			end = k + e
		}
		// With the lines either side: fileShown reads none next to a
		// "[… n bytes cut …]" line, whose end is not the file's.
		from, to := strings.LastIndexByte(rest[:max(start-1, 0)], '\n')+1, len(rest)
		if e := strings.IndexByte(rest[min(end+1, len(rest)):], '\n'); e >= 0 {
			to = end + 1 + e
		}
		file, held := fileShown(head + "\n" + rest[from:to])
		if more, _ := fileSettings(file, slices.Collect(maps.Keys(held))); more[s.name].line != "" && more[s.name].line != s.line {
			return true
		}
		rest = rest[end:]
	}
}

// shownSettingsOnce returns shownSettings reading each item (by its
// citation id) once: a warning or an excerpt reads an older item's
// settings for every setting of each newer one.
func shownSettingsOnce() func(Item) []setting {
	parsed := map[string][]setting{}
	return func(it Item) []setting {
		ss, ok := parsed[it.CID]
		if !ok {
			ss = shownSettings(it)
			parsed[it.CID] = ss
		}
		return ss
	}
}

// showsWholeLine reports whether excerpt shows line whole: not as the
// end of a longer line ("A=1" in "DATA=10") nor cut short.
func showsWholeLine(excerpt, line string) bool {
	return line != "" && anyAt(excerpt, line, func(k int) bool {
		before, after := excerpt[:k], excerpt[k+len(line):]
		return (before == "" || !isWordByte(before[len(before)-1]) && before[len(before)-1] != '_') &&
			(after == "" || !isWordByte(after[0]) && after[0] != '_')
	})
}

// maxSettingLookups bounds the searches settingWarnings makes for a
// prompt: each reads a page of the file's tool runs, 2 ms in a store of
// 100,000 messages. The best item stating a setting asked is the one
// whose history matters.
const maxSettingLookups = 1

// settingScan is how many of a config file's newest tool runs naming a
// setting a lookup reads.
const settingScan = 30

// settingWarnings finds, for a setting a shown item states that the prompt
// asks about (a word of its name or value is one of the prompt's specific
// words), the value the file held before, in the store: a config file's
// value is what was decided last, and the one it replaced may still be
// assumed ("publish = \".\"" before "publish = \"dist\""). The runs of the
// file are read newest first (priorSetting). A change a warning already
// tells (earlier, of the older run) is not told again.
func settingWarnings(ctx context.Context, db *store.DB, sel []Item, earlier []Warning, paired map[[2]int64]bool) ([]Warning, error) {
	var out []Warning
	looked := map[setting]bool{}
	// told reports the pair of o and n warned about, or a warning with
	// older run o and its line as its older side.
	told := func(o, n Item, line string) bool {
		olderSide := func(w Warning) bool { return w.A.CID == o.CID && (w.Old == line || w.A.Title == line) }
		return paired[pair(itemKey(o), itemKey(n))] || slices.ContainsFunc(earlier, olderSide) || slices.ContainsFunc(out, olderSide)
	}
	// shownBefore reads every older item's settings for each setting of a
	// newer one.
	shown := shownSettingsOnce()
	for _, n := range sel {
		if len(out) == perKind {
			break
		}
		if file, _ := fileShown(firstLine(n.event.Text)); n.Kind == store.TypeToolObservation && partRead(n.event.Text) && !flatConfig(file) {
			continue // its names may be another section's
		}
		// The settings the prompt asks about first: a warning an item
		// tells one change.
		var asks, others []setting
		stated, first, edit := statedSettings(n, shown)
		for _, s := range stated {
			if asksSetting(n, s) {
				asks = append(asks, s)
			} else {
				others = append(others, s)
			}
		}
		for _, s := range slices.Concat(asks, others) {
			if setLater(sel, n, s) {
				continue // a later run shown sets it anew: that one's history is told
			}
			// An older run shown sets it to another value: both values are
			// before Claude, and the warning tells which one the file
			// holds now, whether or not the prompt names the setting.
			if o, line, ok := shownBefore(sel, n, s, shown, first, edit); ok {
				if !told(o, n, line) {
					out = append(out, settingWarning(o, line, n, s))
					paired[pair(itemKey(o), itemKey(n))] = true
				}
				break
			}
			// An edit's kept line is told against a run shown only: where
			// the file starts is known from that run (shownBefore).
			key := setting{path: s.path, file: s.file, name: s.name, value: s.value}
			if edit || looked[key] || len(looked) == maxSettingLookups || !asksSetting(n, s) {
				continue
			}
			looked[key] = true
			o, line, ok, err := priorSetting(ctx, db, n, s)
			if err != nil {
				return nil, err
			}
			if !ok || told(o, n, line) {
				continue
			}
			out = append(out, settingWarning(o, line, n, s))
			paired[pair(itemKey(o), itemKey(n))] = true
			break // one setting an item: its others are the same file's
		}
	}
	return out, nil
}

// showSettingsAnew makes the excerpt of each read or write of a config
// file in out show its lines that set anew what an older read or write of
// the file in out shows set: the older value is before Claude, and the
// newer must be too, for a warning to tell which the file holds now
// (settingWarnings). An excerpt picks the lines sharing the prompt's
// words, and the line the file holds now may share none ("site: …" for
// "which domain does it point at?") where the older, shorter file was
// shown whole. Items are read oldest first: an older one's excerpt is
// final before a newer one reads it.
func showSettingsAnew(out []Item, cs []concept, asked []ask, pc *claim.Cache) {
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return out[a].Time.Compare(out[b].Time) })
	// An older item's excerpt is final by the time a newer item reads
	// its settings.
	shown := shownSettingsOnce()
	for k, j := range order {
		n := &out[j]
		if !wholeRun(*n) {
			continue
		}
		file, held := fileShown(n.event.Text)
		if !configFile(file) {
			continue
		}
		now, _ := fileSettings(file, slices.Sorted(maps.Keys(held)))
		var want []string
		for _, i := range order[:k] {
			if !wholeRun(out[i]) || !out[i].Time.Before(n.Time) {
				continue
			}
			for _, os := range shown(out[i]) {
				l, ok := now[os.name]
				if ok && os.path == file && l.value != os.value && !showsWholeLine(n.Excerpt, l.line) && !slices.Contains(want, l.line) {
					want = append(want, l.line)
				}
			}
		}
		if len(want) == 0 {
			continue
		}
		m := n.read()
		segs, _ := m.split()
		valued := make([]bool, len(segs))
		if len(asked) > 0 {
			valued = m.valued(cs, asked, pc)
		}
		weights := make([]float64, len(segs))
		for i, sg := range segs {
			if valued[i] || slices.ContainsFunc(want, func(l string) bool { return showsWholeLine(sg, l) }) {
				weights[i] = max(heaviest(cs), 1)
			}
		}
		n.Excerpt = m.pick(cs, weights, itemChars)
		if n.widen != nil {
			n.widen = func() string { return m.pick(cs, weights, leadChars) }
		}
	}
}

// settingWarning tells that setting s, as item n shows it, replaced the
// value line of the older item o set.
func settingWarning(o Item, line string, n Item, s setting) Warning {
	a := Memory{CID: o.CID, Type: kindLabel(o), Date: o.Time, Title: line}
	b := Memory{CID: n.CID, Type: kindLabel(n), Date: n.Time, Title: s.line}
	_, oldValue, _ := settingLine(line, lineComment(s.file), false)
	return Warning{Severity: "HIGH", Kind: "superseded", Old: line, A: a, B: b, kept: true,
		Note: fmt.Sprintf("%s in %s: %s (%s) replaced %s; the newer is the current one.",
			Inert(s.name), curlyQuotes.Replace(Inert(s.file)), Inert(strconv.Quote(s.value)), date(n.Time),
			Inert(strconv.Quote(oldValue)))}
}

// shownBefore finds, for setting s that a read or write n of a config file
// shows, the newest older read or write of the file in sel that shows the
// name set to another value, and that line, reading an item's settings
// with shown. n may be an edit (edit) whose kept lines state s
// (statedSettings), where the edit starts with first, the line the older
// run's file starts with: its kept lines before any header are then the
// file's top level, as the older run's line is. Edits tell their own
// change (editWarnings), and are no older side.
func shownBefore(sel []Item, n Item, s setting, shown func(Item) []setting, first string, edit bool) (Item, string, bool) {
	if s.path == "" || !wholeRun(n) && !edit {
		return Item{}, "", false
	}
	var found Item
	var line string
	for _, o := range sel {
		if !wholeRun(o) || !o.Time.Before(n.Time) || found.CID != "" && !o.Time.After(found.Time) {
			continue
		}
		if _, held := heldLines(o.event.Text); edit && !flatConfig(s.path) && (len(held) == 0 || held[0] != first) {
			continue
		}
		for _, os := range shown(o) {
			if os.path == s.path && os.name == s.name && os.value != s.value {
				found, line = o, os.line
			}
		}
	}
	return found, line, found.CID != ""
}

// wholeRun reports a tool run that reads or writes a whole file.
func wholeRun(it Item) bool {
	if it.Kind != store.TypeToolObservation || partRead(it.event.Text) {
		return false
	}
	name, _, _ := strings.Cut(firstLine(it.event.Text), ": ")
	return name == "Read" || name == "Write"
}

// partRead reports a read (its text) of a part of a file further on, not
// from its first line: the names it sets may be another section's than
// the same names a whole read shows.
func partRead(text string) bool {
	head, body, _ := strings.Cut(text, "\n")
	if !strings.HasPrefix(head, "Read: ") {
		return false
	}
	n, _ := lineNumber(firstLine(body))
	return n != "" && n != "1"
}

// setLater reports whether sel holds a read, a write or an applied edit of
// the file of s, a tool run n shows, made after n, that sets s's name to
// another value: on a line the edit added, or one it kept (keptSettings).
// An edit's line may be another section's than n's; then a warning is
// kept back where it was right, never one told wrong.
func setLater(sel []Item, n Item, s setting) bool {
	if s.path == "" {
		return false
	}
	return slices.ContainsFunc(sel, func(m Item) bool {
		if m.Kind != store.TypeToolObservation || !m.Time.After(n.Time) || !strings.Contains(m.event.Text, s.name) {
			return false
		}
		r, ok := settingsOf(m.event.Text, s)
		if l, set := r.after[s.name]; ok && set && l.value != s.value {
			return true
		}
		file, _, kept, edit := keptSettings(m)
		return edit && file == s.path && slices.ContainsFunc(kept, func(k setting) bool { return k.name == s.name && k.value != s.value })
	})
}

// asksSetting reports whether the prompt n was recalled for asks about
// setting s: a specific word of it is a word of the setting's name or value.
func asksSetting(n Item, s setting) bool {
	tk := keysOf(s.name + " " + s.value)
	return slices.ContainsFunc(n.promptConcepts, func(c concept) bool { return c.specificIn(tk) })
}

// priorSetting looks up the value the config file of s held for s.name
// before item n stated s (settingWarnings): the tool run that shows it and
// its line. The file's runs are read newest first.
//   - One after n that sets another value, or an edit after n of the line
//     n shows, makes n's stale: nothing is told (laterEdits' case).
//   - Before n, the newest run that sets the name must hold n's value when
//     n is a message: else the message tells a past or a plan, not the
//     file ("used to set …", "let me set …").
//   - Then the newest run that sets another value is the older side, or an
//     edit that replaced another value with n's: of a one-section file, or
//     of one whose reads and writes set the name on one line.
//
// A run that sets the name twice (two sections) says n's line may be
// another section's, and runs of two files of one base name, for a
// message that names only that, say it may be the other's: nothing is
// told.
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
	// A read or write that sets the name once says the file has one line
	// of it: an edit's lines, which carry no section, are then that
	// line's. Two say nothing can be told (priorSetting's comment).
	// Each run is read once, for both passes: a read may hold thousands
	// of lines.
	read := make([]runSettings, len(hits))
	shows := make([]bool, len(hits))
	known := false
	for i, h := range hits {
		read[i], shows[i] = settingsOf(h.Text, s)
		if r := read[i]; shows[i] && !r.edit {
			if r.twice {
				return Item{}, "", false, nil
			}
			_, set := r.after[s.name]
			known = known || set
		}
	}
	paths := map[string]bool{}
	confirmed := n.Kind == store.TypeToolObservation // a run shows the file itself
	for i, h := range hits {
		if slices.Contains(n.events, h.ID) || n.Context != nil && n.Context.ID == h.ID {
			continue
		}
		r := read[i]
		if !shows[i] {
			continue
		}
		if paths[r.path] = true; len(paths) > 1 || r.twice {
			return Item{}, "", false, nil
		}
		a, set := r.after[s.name]
		if h.Time.After(at) {
			b, was := r.before[s.name]
			if set && a.value != s.value || was && b.value == s.value {
				return Item{}, "", false, nil // changed again since: n is stale
			}
			continue
		}
		if !set || r.edit && !flatConfig(r.path) && !known {
			continue // an edit's lines carry no section: read where the file has one such line
		}
		if a.value == s.value {
			confirmed = true
			if b, ok := r.before[s.name]; ok && b.value != s.value {
				return messageItem(h.Event, ""), b.line, true, nil // the edit that set it
			}
			continue
		}
		if !confirmed {
			return Item{}, "", false, nil // the file held another value when n said it
		}
		return messageItem(h.Event, ""), a.line, true, nil
	}
	return Item{}, "", false, nil
}

// runSettings is what a tool run shows of a config file's settings
// (settingsOf).
type runSettings struct {
	path          string             // the file's path as the run names it
	before, after map[string]setting // an edit's lines before, and the lines after (a read's, a write's)
	edit          bool
	twice         bool // the run sets the name asked on two lines
}

// settingsOf reads a tool run's text for the settings it shows of the
// config file of s: a write's or a read's lines (after), an edit's lines
// before and after. The file is s's path when s has one, else any of its
// base name. ok is false for a run of another file or a failed one.
func settingsOf(text string, s setting) (r runSettings, ok bool) {
	same := func(f string) bool {
		if s.path != "" {
			return f == s.path
		}
		return strings.EqualFold(baseName(f), s.file)
	}
	if f, removed, added, isEdit := editLines(text); isEdit {
		if !same(f) || wasCut(text) {
			return runSettings{}, false
		}
		before, _ := fileSettings(f, removed)
		after, tw := fileSettings(f, added)
		return runSettings{path: f, before: before, after: after, edit: true, twice: tw[s.name]}, true
	}
	if f, _ := fileShown(firstLine(text)); f == "" || !same(f) || partRead(text) && !flatConfig(f) {
		return runSettings{}, false // known by the head, before its lines are parsed
	}
	f, held := fileShown(text)
	after, tw := fileSettings(f, slices.Sorted(maps.Keys(held)))
	return runSettings{path: f, after: after, twice: tw[s.name]}, true
}

// flatConfig reports a config file of one section, whose lines each set a
// name of the whole file: a ".env" file, a ".properties" one.
func flatConfig(path string) bool {
	name := strings.ToLower(baseName(path))
	return name == ".env" || strings.HasPrefix(name, ".env.") || filepath.Ext(name) == ".properties"
}

// namedFileNow is, for a config file the prompt names whole
// ("claude_desktop_config.json", not "the desktop config"), the newest run
// of the project's other sessions that read or wrote all of it, when no
// edit or write of it came after: what the file holds now, for a question
// about what is in it ("what's left in my claude_desktop_config.json?").
// The runs shown may be older reads or edits of a part of it, or none. Not
// for a name the runs give two files ("package.json" of the project and of
// a dependency), nor for a file the session's own tools touched (touched,
// base names): its newest state is this session's. Nil when a search
// fails: the shown items stand without it.
func namedFileNow(ctx context.Context, db *store.DB, req Request, cs []concept, out []Item, touched []string) []Item {
	var names []string
	for _, m := range configNameRE.FindAllStringSubmatch(req.Prompt, -1) {
		if name := m[1]; configFile(name) && !slices.Contains(names, name) &&
			!slices.ContainsFunc(touched, func(f string) bool { return strings.EqualFold(f, name) }) && len(names) < 2 {
			names = append(names, name)
		}
	}
	var more []Item
	for _, name := range names {
		hits, err := db.SearchEvents(ctx, store.EventQuery{
			Match: store.MatchAll(lowerRuns(name), false), Project: req.Project, ExcludeSession: req.SessionID,
			Types: []string{store.TypeToolObservation}, Newest: true, Limit: laterRunScan,
		})
		if err != nil {
			return nil
		}
		// By time: an imported session's runs are stored after newer
		// ones. A read changes nothing; an edit or a write does.
		var path string
		var whole store.Event
		var changed time.Time
		two := false
		for _, h := range hits {
			file := runFile(h.Text)
			if file == "" || !strings.EqualFold(baseName(file), name) || strings.HasSuffix(firstLine(h.Text), " (error)") {
				continue
			}
			if path != "" && !samePath(path, file) {
				two = true
				break
			}
			path = file
			head, _, _ := strings.Cut(firstLine(h.Text), ": ")
			if head != "Read" && h.Time.After(changed) {
				changed = h.Time
			}
			if (head == "Read" || head == "Write") && !partRead(h.Text) && !wasCut(h.Text) &&
				(whole.ID == 0 || h.Time.After(whole.Time)) {
				whole = h.Event
			}
		}
		if two || whole.ID == 0 || changed.After(whole.Time) || slices.ContainsFunc(out, func(o Item) bool {
			return o.event.ID == whole.ID || samePath(runFile(o.event.Text), path) && !o.Time.Before(whole.Time)
		}) {
			continue
		}
		more = append(more, laterItem(whole, cs))
	}
	return more
}

// samePath reports two paths of one file, as Windows writes them too
// ("C:\Users\a" and "c:/users/a").
func samePath(a, b string) bool {
	return a != "" && b != "" && pathKey(a) == pathKey(b)
}

// pathKey is a file's path as one key for every way it is written: a
// Windows path (a backslash or a drive letter in it) in lower case with
// forward slashes; any other as it is, case telling two files apart.
func pathKey(p string) string {
	if strings.Contains(p, `\`) || len(p) > 1 && p[1] == ':' {
		return strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	}
	return p
}

// minNamedParts is how many words of a setting's name a prompt must name
// for a config file's line setting it to answer the prompt (namedSetting),
// but for one case: one word ("publish", "output") is any file's; two of
// a name's words, and most of them ("compatibility date" for
// compatibility_date, not "the Next app" for NEXT_PUBLIC_APP_URL), or half
// in a file the prompt names ("pages" and "folder" for wrangler.toml's
// pages_build_output_dir, asked of "wrangler"), are the setting itself.
// The case: a name of one word in the file the prompt names ("publish" in
// netlify.toml, asked of "netlify") is the setting too.
const minNamedParts = 2

// namedSetting is the name of a setting a tool run of a config file shows
// (a read's or a write's lines, an edit's lines either side) whose name's
// words the prompt's concepts cs name (minNamedParts), with the file and
// a line setting it: "" for none. The words of a setting's name are the
// file's structure, not talk, so a generic coding word ("output", "dir")
// counts there as the specific word it is in the file; a word the prompt
// does not name counts against it unless generic. The best named setting
// of the run is the one of most such words, the first by name of those.
func namedSetting(text string, cs []concept) (file, name, line string) {
	if len(cs) < minNamedParts {
		return "", "", ""
	}
	f, _ := fileShown(firstLine(text))
	if f == "" || !configFile(f) {
		return "", "", "" // known by the head, before its lines are parsed
	}
	// An edit sets a name on its lines before and after: each side is
	// read alone, as fileSettings drops a name set twice. Order does not
	// matter: a name set twice is no one value.
	head := scanned(text)
	var sides [][]string
	if _, removed, added, ok := editLines(head); ok {
		sides = [][]string{removed, added}
	} else {
		_, held := fileShown(head)
		sides = [][]string{slices.Collect(maps.Keys(held))}
	}
	names := map[string]string{} // name -> its line
	for _, lines := range sides {
		set, _ := fileSettings(f, lines)
		for n, s := range set {
			if !dependency(n, s.value) {
				names[n] = s.line
			}
		}
	}
	// The words of the file's path name the project and its folders
	// ("mochi-donut" in …/mochi_donut/pyproject.toml): a prompt naming the
	// project names them, not a setting.
	onPath := keysOf(strings.Join(splitIdent(f), " "))
	// A file named for what the prompt names ("wrangler.toml" for "where
	// does wrangler upload from?") is the one asked of: half its name's
	// words are enough there.
	// Not a file named by an everyday word ("next.config.mjs" for "what's
	// next", "settings.py"): the prompt's word must be a specific one.
	stem, _, _ := strings.Cut(strings.ToLower(baseName(f)), ".")
	ofPrompt := stem != "" && len(splitIdent(stem)) == 1 && slices.ContainsFunc(cs, func(c concept) bool {
		k := slices.Index(c.forms, stem)
		return c.specific > 0 && k >= 0 && !slices.Contains(c.genericGlosses, c.keys[k])
	})
	best := 0
	for _, n := range slices.Sorted(maps.Keys(names)) {
		parts := splitIdent(n)
		// A name of one word is any file's, but not in the file the
		// prompt names: "publish" in netlify.toml, asked "what folder
		// does netlify publish?", is the file's word and the prompt's.
		if len(parts) < minNamedParts && !(ofPrompt && len(parts) == 1) {
			continue
		}
		named, other := 0, false
		for _, p := range parts {
			tk := keysOf(p)
			if slices.ContainsFunc(cs, func(c concept) bool { return hasAny(tk, c.keys) && !hasAny(onPath, c.keys) }) {
				named++
			} else if w := strings.ToLower(p); len(w) > 2 && plainWord(w) && !isGeneric(w) {
				// A word the prompt does not name tells what the setting
				// is about ("stripe" of STRIPE_API_KEY for "the openai api
				// key", "strict" of strictNullChecks for "the null checks").
				other = true
			}
		}
		enough := named >= minNamedParts || len(parts) == 1 && named == 1 // one word: of the file named (above)
		if !other && enough && (2*named > len(parts) || ofPrompt && 2*named == len(parts)) && named > best {
			best, name = named, n
		}
	}
	if name == "" {
		return "", "", ""
	}
	return f, name, names[name]
}

// dependency reports a line naming a package and the versions of it a
// manifest takes ("eslint-config-next": "16.2.9", "react": "^19",
// "kelbo": "workspace:*"): a package's name, not a setting's, whatever
// words it is made of. A setting's number is no version ("max_retries =
// 3", "DB_PORT=5432", "python_version = \"3.11\""): its name is written
// with "_" or capitals, or the value is a plain integer.
func dependency(name, value string) bool {
	if strings.ContainsAny(name, "_") || strings.ToLower(name) != name || !strings.ContainsAny(name, "-@/") && !strings.ContainsAny(value, ".^~<>=*:") {
		return false
	}
	switch {
	case value == "*" || value == "latest":
		return true
	case strings.HasPrefix(value, "workspace:") || strings.HasPrefix(value, "npm:") || strings.HasPrefix(value, "file:"):
		return true
	}
	v := strings.TrimLeft(value, "^~>=< v")
	if v == "" || v[0] < '0' || v[0] > '9' {
		return false
	}
	// "15.0.0-canary.1", "1.x", ">=0.21,<1": a version and what qualifies it.
	return strings.ContainsAny(value, ".^~<>=*")
}

// newestNamed maps the ids of evs that are, of the tool runs among them
// showing a setting the prompt's concepts cs name (namedSetting), the
// newest of each file and setting, to the line setting it: an older run's
// value is what the newer replaced, told with it (editWarnings,
// settingWarnings), not the answer. A Windows path is one file in any
// case and either slash.
func newestNamed(evs []store.Event, cs []concept) map[int64]string {
	type run struct {
		e    store.Event
		line string
	}
	newest := map[[2]string]run{}
	for _, e := range evs {
		if e.Type != store.TypeToolObservation {
			continue
		}
		f, n, line := namedSetting(e.Text, cs)
		if n == "" {
			continue
		}
		k := [2]string{pathKey(f), n}
		if o, ok := newest[k]; !ok || e.Time.After(o.e.Time) || e.Time.Equal(o.e.Time) && e.ID > o.e.ID {
			newest[k] = run{e, line}
		}
	}
	lines := make(map[int64]string, len(newest))
	for _, r := range newest {
		lines[r.e.ID] = r.line
	}
	return lines
}

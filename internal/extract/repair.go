package extract

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
)

// A repair is a failing command that passes on its next run, with exactly
// one change made in between: a command that succeeded, or an edit of one
// file. That change is what fixed the failure, whatever the assistant said
// about it ("`yarnpkg install` failed: command not found: yarnpkg; fixed by
// `npm install -g yarnpkg`"). The cause and fix of a failure is what a developer
// wants handed back when it fails again; read from the runs themselves, it
// needs no sentence that names it.

// lookCommands are programs that look without changing anything, or only
// record what changed: running one between a failure and the passing rerun
// fixes nothing.
var lookCommands = []string{"ls", "cat", "grep", "rg", "find", "echo", "head", "tail", "pwd", "which", "wc", "sed",
	"git status", "git log", "git diff", "git show", "curl", "sleep", "ps", "lsof", "type", "file", "stat", "env", "printenv",
	// Bookkeeping changes no file the run reads.
	"git add", "git commit", "git push", "git fetch", "cd"}

// repairWindow is how many messages after a failure its rerun is looked
// for: a fix is tried at once, and the bound keeps a long turn of many
// failures linear.
const repairWindow = 16

// repairs adds a lesson for each failing run of the session that the next
// run of the same command shows fixed, by one change in between.
func (x *extractor) repairs() {
	for i, m := range x.msgs {
		if strings.ToLower(m.Role) != "tool" {
			continue
		}
		cmd, failed := bashRun(m.Text)
		if cmd == "" || !failed && !compileFailed(m.Text) {
			continue
		}
		fail, ok := failedLine(m.Text)
		if !ok {
			continue
		}
		fail.msg = i
		fixes, passed, gone := x.fixedBy(i, commandLine(cmd), fail.quote)
		if !passed && !gone {
			continue
		}
		fix := fixes[0]
		if x.addFix(i, fail, fix) {
			continue
		}
		run := commandLine(cmd)
		if k := strings.LastIndex(run, " && "); k >= 0 && strings.HasPrefix(run, "cd ") && !strings.Contains(run[:k], " && ") {
			run = run[k+len(" && "):] // "cd app && yarnpkg install": the directory is where, not what
		}
		what := "`" + fix.quote + "`"
		if name, path, ok := strings.Cut(fix.quote, ": "); ok && in(editTools, name) {
			what = "editing " + path
			if len(fixes) > 1 {
				_, other, _ := strings.Cut(fixes[1].quote, ": ")
				what = "editing " + filepath.Base(path) + " and " + filepath.Base(other)
			}
			if said, ev := x.editsSaid(fixes); said != "" {
				what, fixes = said, ev
			}
		}
		failure := clip(strings.Join(strings.Fields(strings.ReplaceAll(stripANSI(fail.quote), "\n[ERROR]", "\n")), " "), 160)
		c := &cand{typ: Lesson, score: 2, seq: len(x.cands), from: fixes[len(fixes)-1].msg, fixed: true, resolved: true, diagnosed: true,
			ev: append([]evi{{i, len("Bash: ") + strings.Index(cmd, run), run}, fail}, fixes...), subject: CommandKey(cmd)}
		after := ", after which it passed."
		if gone {
			after = ", after which that error was gone."
		}
		if compileFailed(m.Text) {
			c.failure = fail.quote // two compile errors fixed one after the other are two lessons
		}
		c.body = "`" + run + "` failed: " + failure + "; fixed by " + what + after
		c.title = clip(run+": "+failure, maxTitle)
		x.cands = append(x.cands, c)
	}
}

// editsSaid says what the edits among fixes changed, a file at a time:
// "adding `@Cacheable(\"rates\")` to RateView.java", from the line an
// edit added and did not remove, "commenting out `…` in …" or else
// "removing `…` from …". A lesson that names only the file edited leaves
// the reader to guess the fix. It returns the fixes' quotes with each such
// line quoted in place of its edit's header, and "" when no edit shows such
// a line.
func (x *extractor) editsSaid(fixes []evi) (string, []evi) {
	var parts []string
	var ev []evi
	said := false
	for _, f := range fixes {
		name, path, _ := strings.Cut(f.quote, ": ")
		file := filepath.Base(path)
		c, how, ok := editChange(x.msgs[f.msg].Text)
		if !ok || name != "Edit" && name != "MultiEdit" {
			parts = append(parts, "editing "+file)
			ev = append(ev, f)
			continue
		}
		parts = append(parts, fmt.Sprintf(how, "`"+c.quote+"`", file))
		c.msg = f.msg
		ev = append(ev, c)
		said = true
	}
	if !said {
		return "", nil
	}
	return strings.Join(parts, " and "), ev
}

// commentMarks open a line comment in the languages a session edits.
var commentMarks = []string{"//", "#", "--", "/*", "*", "<!--"}

// editChange finds, in an edit's observation ("Edit: path", then its
// removed lines as "- …", added lines as "+ …" and kept ones as "  …"),
// the line that says
// what it changed, and how, as a format of the line and the file: a line
// it commented out, else the first code line it added and did not remove
// (a comment explains, it does not fix), else the first code line it
// removed and did not add back. A line must say something: four characters or
// more, a letter among them ("}" says nothing), and short enough to quote;
// a code line's trailing comment is left out of the quote.
func editChange(text string) (ev evi, how string, ok bool) {
	lines := strings.Split(text, "\n")
	sides := map[string]map[string]bool{"- ": {}, "+ ": {}}
	for _, l := range lines[1:] {
		for p, set := range sides {
			if t, ok := strings.CutPrefix(l, p); ok {
				set[strings.TrimSpace(t)] = true
			}
		}
	}
	says := func(t string) bool {
		return len(t) >= 4 && len(t) <= 160 && strings.ContainsFunc(t, unicode.IsLetter)
	}
	// pick is the first line on side prefix that want accepts, with its
	// offset in text.
	pick := func(prefix string, want func(t string) (string, bool)) (evi, bool) {
		off := len(lines[0]) + 1
		for _, l := range lines[1:] {
			if t, ok := strings.CutPrefix(l, prefix); ok {
				if q, ok := want(strings.TrimSpace(t)); ok && says(q) {
					return evi{off: off + len(prefix) + strings.Index(t, q), quote: q}, true
				}
			}
			off += len(l) + 1
		}
		return evi{}, false
	}
	// uncommented is a comment line's text without its mark and without
	// a comment of its own after the code ("// import x; // not needed").
	uncommented := func(t string) (string, bool) {
		for _, m := range commentMarks {
			if r, ok := strings.CutPrefix(t, m); ok {
				if k := strings.Index(r, " //"); k > 0 {
					r = r[:k]
				}
				return strings.TrimSpace(r), true
			}
		}
		return t, false
	}
	if e, ok := pick("+ ", func(t string) (string, bool) {
		r, comment := uncommented(t)
		return t, comment && sides["- "][r] && !sides["+ "][r]
	}); ok {
		return e, "commenting out %s in %s", true
	}
	if e, ok := pick("+ ", func(t string) (string, bool) {
		if _, comment := uncommented(t); comment || sides["- "][t] {
			return "", false
		}
		if k := strings.Index(t, "  //"); k > 0 {
			t = strings.TrimSpace(t[:k]) // "@Cacheable(\"rates\")  // why"
		}
		return t, true
	}); ok {
		return e, "adding %s to %s", true
	}
	if e, ok := pick("- ", func(t string) (string, bool) {
		_, comment := uncommented(t)
		return t, !comment && !sides["+ "][t]
	}); ok {
		return e, "removing %s from %s", true
	}
	return evi{}, "", false
}

// addFix adds the change that fixed failure fail of run i to a lesson that
// already quotes that failure, and reports whether there was one: a cause
// the assistant named and the change that fixed it are one memory.
func (x *extractor) addFix(i int, fail, fix evi) bool {
	for _, c := range x.cands {
		if c.typ != Lesson || !slices.ContainsFunc(c.ev, func(v evi) bool { return v.msg == i && v.off == fail.off }) {
			continue
		}
		if len(c.ev) < maxEvidence && !slices.Contains(c.ev, fix) {
			c.ev = append(c.ev, fix)
		}
		c.fixed, c.resolved = true, true
		return true
	}
	return false
}

// bashRun returns the command of a shell run's observation and whether
// the run failed.
func bashRun(text string) (cmd string, failed bool) {
	head, _, _ := strings.Cut(text, "\n")
	c, ok := strings.CutPrefix(head, "Bash: ")
	if !ok {
		return "", false
	}
	c, failed = strings.CutSuffix(c, " (error)")
	return strings.TrimSpace(c), failed
}

// failedLine is the line of a failed run's output that says what failed:
// its error line, or else, in an output of a few lines, the first that is
// not only the exit code ("(eval):1: command not found: yarnpkg"). In a longer
// output without an error line, what went wrong is not one line.
func failedLine(text string) (evi, bool) {
	if off, q, ok := failureLine(text); ok {
		return evi{off: off, quote: q}, true
	}
	nl := strings.IndexByte(text, '\n')
	if nl < 0 {
		return evi{}, false
	}
	var first evi
	lines := 0
	for pos := nl + 1; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		line := text[pos:end]
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(strings.ToLower(t), "exit code") {
			if lines++; lines == 1 {
				first = evi{off: pos + strings.Index(line, t), quote: t}
			}
		}
		pos = end + 1
	}
	return first, lines > 0 && lines <= 3 && len(first.quote) <= maxQuote
}

// stripANSI removes terminal colour codes ("\x1b[31m") from text.
func stripANSI(t string) string {
	var b strings.Builder
	for i := 0; i < len(t); i++ {
		if t[i] == 0x1b && i+1 < len(t) && t[i+1] == '[' {
			j := i + 2
			for j < len(t) && (isDigit(t[j]) || t[j] == ';') {
				j++
			}
			if j < len(t) && t[j] >= 0x40 && t[j] <= 0x7e {
				i = j // the final letter of the code, never a byte of a rune
				continue
			}
		}
		b.WriteByte(t[i])
	}
	return b.String()
}

// fixedBy looks, after failing run i, within repairWindow messages and
// before the next user message, for the next run of the same command line.
// It reports the change made in between (a passing command's line, or the
// "Edit: path" lines of edits to at most two files: a compile error is often
// fixed in the file that uses a name and the one that declares it) and
// whether that run passed with only that change before it, or else whether
// it failed to compile again but no longer on line failure: the change
// fixed that error.
func (x *extractor) fixedBy(i int, run, failure string) (fixes []evi, passed, gone bool) {
	commands := 0
	for j := i + 1; j < len(x.msgs) && j <= i+repairWindow; j++ {
		m := x.msgs[j]
		switch strings.ToLower(m.Role) {
		case "user", "human":
			return nil, false, false
		case "tool":
		default:
			continue
		}
		head, _, _ := strings.Cut(m.Text, "\n")
		if cmd, failed := bashRun(m.Text); cmd != "" {
			if commandLine(cmd) == run {
				if len(fixes) == 0 || commands > 0 && len(fixes) > 1 {
					return nil, false, false
				}
				if !failed && !compileFailed(m.Text) {
					return fixes, true, false
				}
				return fixes, false, compileFailed(x.msgs[i].Text) && compileFailed(m.Text) && !strings.Contains(m.Text, failure)
			}
			if failed || startsWithPhrase(lowerASCII(CommandKey(cmd)), lookCommands) {
				continue
			}
			commands++
			fixes = append(fixes, evi{j, len("Bash: "), strings.TrimSpace(commandLine(cmd))})
			continue
		}
		name, path, ok := strings.Cut(head, ": ")
		if !ok || !in(editTools, name) || strings.HasSuffix(path, " (error)") {
			continue
		}
		if slices.ContainsFunc(fixes, func(v evi) bool { return v.quote == head }) {
			continue // the same file edited again: one change
		}
		fixes = append(fixes, evi{j, 0, head})
		if len(fixes) > 2 {
			return nil, false, false
		}
	}
	return nil, false, false
}

// commandLine is cmd without what only redirects its output: "npm install
// -g yarnpkg" of "npm install -g yarnpkg 2>&1".
func commandLine(cmd string) string {
	for _, cut := range []string{" 2>&1", " 2>", " &>", " >"} {
		if k := strings.Index(cmd, cut); k >= 0 {
			cmd = cmd[:k]
		}
	}
	return cmd
}

package privacy

import (
	"slices"
	"strings"
)

// Command lines pass passwords in ways no key name announces: mysql
// -pSECRET, docker login -p SECRET, sshpass -p SECRET, redis-cli -a SECRET,
// openssl -passout pass:SECRET, ssh-keygen -N SECRET, gh secret set NAME
// --body SECRET, echo SECRET | docker login --password-stdin, and
// git/npm config set NAME VALUE where NAME names a secret. cliEdits knows
// these commands and their flags.

// passwordFlag is a flag of a command whose value is a password.
type passwordFlag struct {
	flag string
	// glued: the value is written right after the flag (mysql -pSECRET);
	// a bare flag asks for the password, and the next word is no value.
	glued bool
}

// passwordFlags maps a command to its password flags.
var passwordFlags = map[string][]passwordFlag{
	"mysql": {{"-p", true}}, "mysqldump": {{"-p", true}}, "mysqladmin": {{"-p", true}}, "mariadb": {{"-p", true}},
	"mariadb-dump": {{"-p", true}}, "mysqlsh": {{"-p", true}},
	"sshpass":   {{"-p", false}},
	"redis-cli": {{"-a", false}}, "valkey-cli": {{"-a", false}},
	"ssh-keygen": {{"-N", false}, {"-P", false}},
	"htpasswd":   {},
	"login":      {{"-p", false}}, // docker/podman/helm registry login
	"gh":         {{"--body", false}, {"-b", false}},
}

// cliNeedles are what a line must hold for cliEdits to read it: the
// commands above, openssl's "pass:", config commands, --password-stdin.
var cliNeedles = [...]string{"mysql", "mariadb", "sshpass", "redis-cli", "valkey-cli", "ssh-keygen", "login", "gh ", "pass:", "config", "password-stdin"}

// cliEdits masks passwords given on command lines, and the cookies given
// to curl (curlCookieEdits). Only the lines that hold one of cliNeedles
// are split into words.
func cliEdits(s string, edits []edit) []edit {
	edits = curlCookieEdits(s, edits)
	var starts []int
	for _, n := range cliNeedles {
		for off := 0; ; {
			i := strings.Index(s[off:], n)
			if i < 0 {
				break
			}
			i += off
			starts = append(starts, strings.LastIndexByte(s[:i], '\n')+1)
			off = i + len(n)
			if j := strings.IndexByte(s[off:], '\n'); j >= 0 {
				off += j // one hit per line and needle is enough
			} else {
				break
			}
		}
	}
	if len(starts) == 0 {
		return edits
	}
	slices.Sort(starts)
	starts = slices.Compact(starts)
	for _, ls := range starts {
		le := strings.IndexByte(s[ls:], '\n')
		if le < 0 {
			le = len(s)
		} else {
			le += ls
		}
		edits = lineCLIEdits(s, ls, le, edits)
	}
	return edits
}

// word is a blank-separated word of a line: s[start:end].
type word struct{ start, end int }

func lineCLIEdits(s string, ls, le int, edits []edit) []edit {
	var ws []word
	for i := ls; i < le; {
		for i < le && (isBlank(s[i]) || s[i] == '\r') {
			i++
		}
		j := i
		for j < le && !isBlank(s[j]) && s[j] != '\r' {
			j++
		}
		if j > i {
			ws = append(ws, word{i, j})
		}
		i = j
	}
	text := func(w word) string { return s[w.start:w.end] }
	var flags []passwordFlag
	stdin := false
	for k, w := range ws {
		t := text(w)
		if i := strings.LastIndexByte(t, '/'); i >= 0 {
			t = t[i+1:] // /usr/bin/mysql
		}
		switch {
		case t == "login" && k > 0 || passwordFlags[t] != nil && t != "login":
			flags = passwordFlags[t]
			if t == "gh" && !(k+2 < len(ws) && text(ws[k+1]) == "secret" && text(ws[k+2]) == "set") {
				flags = nil
			}
			continue
		case t == "--password-stdin":
			stdin = true
		case t == "|" || t == "&&" || t == ";" || t == "||":
			flags = nil
		}
		for _, f := range flags {
			switch {
			case t == f.flag && k+1 < len(ws) && !f.glued:
				edits = appendValue(s, ws[k+1], "password", edits)
			case f.glued && len(t) > len(f.flag) && strings.HasPrefix(t, f.flag) && t[len(f.flag)] != '-':
				edits = appendValue(s, word{w.start + len(f.flag), w.end}, "password", edits)
			}
		}
		// openssl: -pass pass:SECRET, -passin pass:SECRET, -k SECRET
		if strings.HasPrefix(t, "pass:") && k > 0 && strings.HasPrefix(text(ws[k-1]), "-pass") {
			edits = appendValue(s, word{w.start + len("pass:"), w.end}, "password", edits)
		}
		// git config [--global] NAME VALUE, npm config set NAME VALUE
		if k+1 < len(ws) && k >= 1 && (text(ws[k-1]) == "set" || text(ws[k-1]) == "config" || strings.HasPrefix(text(ws[k-1]), "--")) &&
			keyKind(lastName(t)) != "" && looksRandom(text(ws[k+1])) {
			edits = appendValue(s, ws[k+1], keyKind(lastName(t)), edits)
		}
	}
	// echo SECRET | docker login --password-stdin
	if stdin && len(ws) >= 2 && text(ws[0]) == "echo" {
		edits = appendValue(s, ws[1], "password", edits)
	}
	return edits
}

// lastName is the last part of a dotted or slashed config name:
// github.token, //registry.npmjs.org/:_authToken.
func lastName(t string) string {
	if i := strings.LastIndexAny(t, ".:/"); i >= 0 {
		return t[i+1:]
	}
	return t
}

// appendValue masks the word w without its quotes, unless it is a
// reference, a placeholder or a marker.
func appendValue(s string, w word, kind string, edits []edit) []edit {
	st, e := w.start, w.end
	if e-st >= 2 && isQuote(s[st]) && s[e-1] == s[st] {
		st, e = st+1, e-1
	}
	v := s[st:e]
	if v == "" || v[0] == '-' || v[0] == '$' && isReference(v) || strings.HasPrefix(v, redactPrefix) || isPlaceholder(v) || strings.Contains(v, redactPrefix) {
		return edits
	}
	return append(edits, edit{st, e, kind})
}

// curlCookieEdits masks the cookies curl (and each of cookieFlagTools) is
// given: the argument of -b,
// --cookie or --cookie=, and of a cluster of short flags that ends in b
// (-sb, -kLb) or goes on after it (-bsid=…). DevTools' "Copy as cURL"
// puts it on a line of its own within a command that goes on over lines
// ending in '\' (or '^' for cmd.exe). A command may also sit inside a JSON
// string, with \" for its quotes and \n for its line breaks. An argument
// without '=' names a cookie file and has none.
func curlCookieEdits(s string, edits []edit) []edit {
	for _, tool := range cookieFlagTools {
		for off := 0; off < len(s); {
			k := strings.Index(s[off:], tool)
			if k < 0 {
				break
			}
			i := off + k
			off = i + len(tool)
			if i > 0 && (isToken(s[i-1]) || s[i-1] == '.') && !escapeBefore(s, i) {
				continue // libcurl, pycurl
			}
			if strings.HasPrefix(s[off:], ".exe") {
				off += len(".exe")
			}
			if off < len(s) && isBlank(s[off]) {
				edits, off = curlArgs(s, off, edits)
			}
		}
	}
	return edits
}

// cookieFlagTools are the commands that take cookies as curl does, with -b
// or --cookie: curl, and the web fuzzers that copied its flags.
var cookieFlagTools = []string{"curl", "ffuf", "wfuzz", "feroxbuster"}

// escapeBefore reports whether s[i] follows a JSON escape of a line break
// or a tab (\n, \r, \t), which starts a command as the break itself does.
func escapeBefore(s string, i int) bool {
	return i >= 2 && escapedSpace(s, i-2)
}

// curlArgs reads the words of a curl command from s[p] to its end, a line
// break not escaped or a word that starts another command (|, ;, &&),
// masks the cookies it is given, and returns the command's end.
func curlArgs(s string, p int, edits []edit) ([]edit, int) {
	n := len(s)
	cookie := false // the word before was -b or --cookie
	for p < n {
		switch c := s[p]; {
		case isBlank(c) || c == '\r':
			p++
			continue
		case c == '\n':
			if !continued(s, p) {
				return edits, p
			}
			p++
			continue
		}
		w := p
		var brk bool
		p, brk = shellWordEnd(s, p)
		switch t := s[w:p]; {
		case t == "\\" || t == "^" || t == "`" || t == `\\\n`: // the line goes on
		case cookie:
			edits, p = curlCookieArg(s, w, edits)
			cookie, brk = false, false // a break after the argument is read next
		case t == "|" || t == ";" || t == "&" || t == "&&" || t == "||":
			return edits, p
		case t == "--cookie":
			cookie = true
		case strings.HasPrefix(t, "--cookie="):
			edits, _ = curlCookieArg(s, w+len("--cookie="), edits)
		default:
			if b, ok := shortCookieFlag(t); ok {
				if b+1 == len(t) {
					cookie = true
				} else {
					edits, _ = curlCookieArg(s, w+b+1, edits)
				}
			}
		}
		if brk {
			return edits, p
		}
	}
	return edits, p
}

// curlFlags are curl's short flags that take no argument and so may come
// before -b in one cluster: -sb, -kLb.
const curlFlags = "0123456aBfgGiIjJklLMnNOpqRsSvVZ#"

// shortCookieFlag returns the index of the b in a cluster of short flags
// t that gives -b (-b, -sb, -kLb, -bsid=…), where its argument starts.
func shortCookieFlag(t string) (int, bool) {
	if len(t) < 2 || t[0] != '-' || t[1] == '-' {
		return 0, false
	}
	for i := 1; i < len(t); i++ {
		switch {
		case t[i] == 'b':
			return i, true
		case strings.IndexByte(curlFlags, t[i]) < 0:
			return 0, false // -H, -d…: the rest is their argument
		}
	}
	return 0, false
}

// continued reports whether the line break at s[p] is escaped, so that a
// command goes on: by '\' in a shell, '^' in cmd.exe, '`' in PowerShell.
func continued(s string, p int) bool {
	if p > 0 && s[p-1] == '\r' {
		p--
	}
	return p > 0 && (s[p-1] == '\\' || s[p-1] == '^' || s[p-1] == '`')
}

// shellWordEnd returns the end of the shell word that starts at s[p]: the
// first blank or line break outside quotes ('…', "…", cmd.exe's ^"…^",
// JSON's \"…\"). A quote not closed on its line ends there. brk reports
// that the word ends at a JSON-escaped line break (\n), which ends the
// command unless an escaped backslash (\\\n) continues it.
func shellWordEnd(s string, p int) (end int, brk bool) {
	n := len(s)
	for p < n {
		switch c := s[p]; {
		case isBlank(c) || c == '\n' || c == '\r':
			return p, false
		case c == '\\' && p+1 < n && s[p+1] == '"':
			p = shellQuoteEnd(s, p)
		case c == '\\' && p+1 < n && s[p+1] == '\\' && p+3 < n && s[p+2] == '\\' && s[p+3] == 'n':
			p += 4 // \\\n: a continued line inside JSON
		case c == '\\' && p+1 < n && (s[p+1] == 'n' || s[p+1] == 'r'):
			return p, true
		case c == '\\' && p+1 < n && s[p+1] != '\n' && s[p+1] != '\r':
			p += 2
		case c == '^' && p+1 < n && s[p+1] == '"', c == '\'' || c == '"':
			p = shellQuoteEnd(s, p)
		default:
			p++
		}
	}
	return p, false
}

// shellQuoteEnd returns the end of the quoted part of a shell word that
// starts at s[p] ('…', "…", $'…', ^"…^", \"…\"), after its closing quote,
// or where its line or maxCookieHeader bytes end.
func shellQuoteEnd(s string, p int) int {
	_, ce, delim := shellQuote(s, p)
	if strings.HasPrefix(s[ce:], delim) {
		return ce + len(delim)
	}
	return ce
}

// shellQuote returns the content s[cs:ce] of the quoted part of a shell
// word at s[p] and its closing delimiter, or delim "" and the unquoted
// argument that ends at a blank, a quote or a shell operator. Either is
// read on one line and for at most maxCookieHeader bytes.
func shellQuote(s string, p int) (cs, ce int, delim string) {
	end := min(len(s), p+maxCookieHeader)
	if strings.HasPrefix(s[p:end], "$'") {
		p++ // bash's ANSI-C quoting: $'sid=…'
	}
	switch {
	case strings.HasPrefix(s[p:end], `^"`): // cmd.exe, as DevTools copies
		cs = p + len(`^"`)
		ce = cs
		for ce < end && s[ce] != '\n' && s[ce] != '\r' && !strings.HasPrefix(s[ce:end], `^"`) {
			ce++
		}
		return cs, ce, `^"`
	case p < end && (s[p] == '\'' || s[p] == '"') || strings.HasPrefix(s[p:end], `\"`):
		delim, cs, _ = quoteAt(s[:end], p)
		return cs, quoteEnd(s[:end], cs, delim), delim
	}
	ce = p
	for ce < end && s[ce] > ' ' && strings.IndexByte("\"'`\\;|&()<>", s[ce]) < 0 {
		ce++
	}
	return p, ce, ""
}

// curlCookieArg masks the cookies of the argument of -b or --cookie at
// s[p], bare or quoted, and returns its end.
func curlCookieArg(s string, p int, edits []edit) ([]edit, int) {
	cs, ce, delim := shellQuote(s, p)
	edits = cookiePairs(s, cs, ce, false, edits)
	if delim != "" && strings.HasPrefix(s[ce:], delim) {
		ce += len(delim)
	}
	return edits, ce
}

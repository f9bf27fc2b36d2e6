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

// curlCookieEdits masks the cookies curl is given with -b, the short form
// of --cookie (which cookieEdits reads by its name). DevTools' "Copy as
// cURL" writes them so, on a line of their own within a command that goes
// on over lines ending in '\' (or '^' for cmd.exe). An argument without
// '=' names a cookie file and has none.
func curlCookieEdits(s string, edits []edit) []edit {
	for off := 0; off < len(s); {
		k := strings.Index(s[off:], "curl")
		if k < 0 {
			break
		}
		i := off + k
		off = i + len("curl")
		if i > 0 && (isToken(s[i-1]) || s[i-1] == '.') {
			continue // libcurl, pycurl
		}
		if strings.HasPrefix(s[off:], ".exe") {
			off += len(".exe")
		}
		if off < len(s) && isBlank(s[off]) {
			edits, off = curlArgs(s, off, edits)
		}
	}
	return edits
}

// curlArgs reads the words of a curl command from s[p] to its end, a line
// break not escaped or a word that starts another command (|, ;, &&),
// masks the cookies of each -b, and returns the command's end.
func curlArgs(s string, p int, edits []edit) ([]edit, int) {
	n := len(s)
	cookie := false // the word before was -b
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
		p = shellWordEnd(s, p)
		switch t := s[w:p]; {
		case t == "\\" || t == "^" || t == "`": // the line goes on
		case t == "|" || t == ";" || t == "&" || t == "&&" || t == "||":
			return edits, p
		case cookie:
			edits = cookieArg(s, w, p, edits)
			cookie = false
		case t == "-b":
			cookie = true
		case strings.HasPrefix(t, "-b") && strings.IndexByte(t, '=') > 0: // -bsid=…
			edits = cookieArg(s, w+len("-b"), p, edits)
		}
	}
	return edits, p
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
// first blank or line break outside quotes ('…', "…", cmd.exe's ^"…^").
// A quote not closed on its line ends there.
func shellWordEnd(s string, p int) int {
	n := len(s)
	for p < n {
		switch c := s[p]; {
		case isBlank(c) || c == '\n' || c == '\r':
			return p
		case c == '^' && p+1 < n && s[p+1] == '"':
			for p += 2; p < n && s[p] != '\n' && !(s[p] == '^' && p+1 < n && s[p+1] == '"'); p++ {
			}
			if p < n && s[p] == '^' {
				p += 2
			}
		case c == '\'' || c == '"':
			for p++; p < n && s[p] != c && s[p] != '\n'; p++ {
				if c == '"' && s[p] == '\\' && p+1 < n && s[p+1] != '\n' {
					p++
				}
			}
			if p < n && s[p] == c {
				p++
			}
		default:
			p++
		}
	}
	return p
}

// cookieArg masks the cookies of -b's argument s[w:e], bare or quoted
// ('…', "…", $'…', ^"…^").
func cookieArg(s string, w, e int, edits []edit) []edit {
	if e-w >= 3 && s[w] == '$' && s[w+1] == '\'' {
		w++
	}
	switch {
	case e-w >= 4 && s[w] == '^' && s[w+1] == '"' && s[e-2] == '^' && s[e-1] == '"':
		w, e = w+2, e-2
	case e-w >= 2 && (s[w] == '\'' || s[w] == '"') && s[e-1] == s[w]:
		w, e = w+1, e-1
	}
	return cookiePairs(s, w, e, false, edits)
}

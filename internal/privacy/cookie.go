package privacy

import (
	"math"
	"strings"
)

// A session's cookie is its credential. A cookie is read where something
// gives it by name and value: a Cookie or Set-Cookie header and its kin
// (cookieEdits, cookiePairs), curl's -b and --cookie over continued lines
// (curlCookieEdits in cli.go), a literal of cookies (cookieLiteral) and code
// that sets one (cookieCode). Only a value that looks random is masked: a
// header's or a recorded cookie's by cookieValue, and a value written in
// code by codeCookieValue, which also asks for a token's shape. Names,
// attributes, "theme=dark", "accepted-v2" and code that merely names a
// cookie stay.

// Bounds on what one cookie word reads: a browser sends at most a few
// kilobytes of cookies in a header, and a literal of cookies nests a few
// levels deep. A literal's length is not bounded, as a list of cookie
// objects (a HAR entry's, a saved browser state) may be long: it ends
// where its brackets close or at a byte that is no part of a literal, and
// masking its strings moves neither, so a second Filter reads it alike.
const (
	maxCookieHeader = 8 << 10
	maxCookieDepth  = 8
)

// cookieEdits masks the cookies of a Cookie or Set-Cookie header (and of
// HTTP_COOKIE=…, "cookie": "…", document.cookie = "…", --cookie '…' of
// any command, Header.Set("Cookie", "…"), a HAR header object {"name":
// "Cookie", "value": "…"}). The header's value is read, its quoted string
// or the rest of its line, at most maxCookieHeader bytes, and only its
// name=value pairs (cookiePairs), so prose and code without pairs stay.
//
// A cookie word in code (cookies, Cookie, setCookie, add_cookie) may be
// followed by a literal of cookies (cookies={"sid": "…"}, "cookies": [{…}],
// cookies: dict[str, str] = {…}, cookies=dict(sid="…")) or by code that
// sets one (Cookies.set("sid", "…"), cookies["sid"] = "…",
// http.Cookie{…}), which cookieLiteral and cookieCode read.
func cookieEdits(s string, hits []int, edits []edit) []edit {
	n := len(s)
	done := 0     // a hit inside a quoted header already read is one of its words
	read := 0     // a hit inside code already read starts no code of its own
	lineRead := 0 // a header's line read before here is not read again
	for _, i := range hits {
		if i < done {
			continue
		}
		off := i + len("cookie")
		plural := off < n && s[off]|0x20 == 's' && (off+1 == n || !isToken(s[off+1]))
		if plural {
			off++
		}
		if off < n && isToken(s[off]) {
			continue // cookie_name, cookieJar, cookiesEnabled
		}
		st := i
		for st > 0 && isToken(s[st-1]) && i-st < maxKeyBefore {
			st--
		}
		set := i-st >= len("set-") && hasFold(s, i-len("set-"), "set-cookie")
		open, p, keyQuoted := closeKeyQuote(s, st, off)
		if open == 0 && i >= read {
			if e, r, ok := cookieCode(s, st, off, edits); ok {
				edits, read = e, r
				continue
			}
		}
		p = skipBlanks(s, p)
		if p >= n {
			continue
		}
		literalOnly := plural // cookies = {…}, cookie := …, cookies: dict = …: code, never a header
		switch {
		case s[p] == ',' && keyQuoted:
			// Header.Set("Cookie", "…"), {"name": "Cookie", "value": "…"}
			// (a HAR header, also over lines, in a diff or JSON-escaped):
			// the header's value is the next string, or the value key's.
			if i >= read {
				k := litHeader
				if set {
					k = litSetHeader
				}
				edits, read = cookieLiteral(s, p, k, edits)
				done = read
			}
			continue
		case strings.HasPrefix(s[p:], "=>"): // PHP, Ruby: 'cookie' => '…'
			p = skipBlanks(s, p+len("=>"))
		case strings.HasPrefix(s[p:], ":="):
			p, literalOnly = skipBlanks(s, p+len(":=")), true
		case s[p] == ':' || s[p] == '=':
			if p+1 < n && (s[p+1] == ':' || s[p+1] == '=') {
				continue // "cookie == x", "Cookie::x"
			}
			colon := s[p] == ':'
			p = skipBlanks(s, p+1)
			if q, ok := afterTypeAnnotation(s, p); ok && colon {
				p, literalOnly = q, true
			}
		case p > off && strings.HasPrefix(s[st:i], "--"): // --cookie 'sid=…' of curl, sqlmap, a script
		case p > off && strings.HasSuffix(strings.TrimRight(s[:st], " \t"), "var"):
			// var cookie string = "…": Go declares the type after the name.
			q, ok := afterTypeAnnotation(s, p)
			if !ok {
				continue
			}
			p, literalOnly = q, true
		default:
			continue // prose: "the cookie is set at login"
		}
		if p >= n || open != 0 && !keyQuoted && s[p] == open {
			continue // fmt.Println("cookie:", c): the quote closes the key's literal
		}
		if q, ok := literalAt(s, p); ok {
			if i >= read {
				edits, read = cookieLiteral(s, q, litTop, edits)
			}
			if literalOnly {
				continue
			}
			// Cookie:[sid=…], Cookie: {uid}=1; sid=…: a header's line
			// may start like a literal; its pairs are read too.
		}
		capEnd := min(n, p+maxCookieHeader)
		if delim, cs, _ := quoteAt(s[:capEnd], p); delim != "" && !quoteInPairs(s[:capEnd], cs, delim) {
			// const cookie: string = 'sid=…', cookie := "sid=…": a
			// declaration's string is read as a header is.
			done = quoteEnd(s[:capEnd], cs, delim)
			edits = cookiePairs(s, cs, done, set, edits)
			continue
		}
		if literalOnly || p < lineRead {
			continue // code (cookies=jar, cookie := jar), or a line read
		}
		end := capEnd
		if open != 0 && !keyQuoted {
			// -H "Cookie: a=b" https://…: the header ends at its quote,
			// which is \" in a command inside JSON. The quote is found
			// first and the line's end only before it, so that a hit
			// whose quote closes soon reads no further.
			q := s[st-1 : st]
			if st >= 2 && s[st-2] == '\\' {
				q = s[st-2 : st]
			}
			if k := strings.Index(s[p:end], q); k >= 0 {
				end = p + k
			}
		}
		if k := strings.IndexAny(s[p:end], "\r\n"); k >= 0 {
			end = p + k
		}
		lineRead = end
		if !callBeforePair(s, p, end) {
			edits = cookiePairs(s, p, end, set, edits)
		}
	}
	return edits
}

// callBeforePair reports whether a call, a word and its '(', comes before
// the first '=' in s[p:end]: code (cookie = get("sid", default="…")),
// not a header, whose names may hold brackets ((null)=…) but no call.
func callBeforePair(s string, p, end int) bool {
	eq := strings.IndexByte(s[p:end], '=')
	for k := p + 1; k < p+eq; k++ {
		if s[k] == '(' && isToken(s[k-1]) && (k < 2 || !escapedSpace(s, k-2)) { // and not \t(null)
			return true
		}
	}
	return false
}

// quoteInPairs reports whether the string whose content starts at s[cs]
// is no header's value but quotes inside its pairs, as its closing quote
// is followed by '=' or a word: "sid"=…, "sid="8f3k…"".
func quoteInPairs(s string, cs int, delim string) bool {
	e := quoteEnd(s, cs, delim) + len(delim)
	return e < len(s) && (s[e] == '=' || isToken(s[e]))
}

// skipBlanks returns the position of the first byte at or after p that is
// no blank: what follows a key on its line.
func skipBlanks(s string, p int) int {
	for p < len(s) && isBlank(s[p]) {
		p++
	}
	return p
}

// escapedSpace reports whether s[p:] starts with JSON's escape of a line
// break or a tab.
func escapedSpace(s string, p int) bool {
	return p+1 < len(s) && s[p] == '\\' && strings.IndexByte("nrt", s[p+1]) >= 0
}

// afterEscapedSpace returns the position after the escaped space at s[p]
// and, if it is a line break, after the next line's prefix (linePrefix).
func afterEscapedSpace(s string, p int) int {
	if s[p+1] == 'n' {
		return linePrefix(s, p+2)
	}
	return p + 2
}

// linePrefix returns the position after the prefix a viewer puts before
// the line that starts at s[p], or p if it has none: a line number and
// an arrow or a tab, as Claude Code's Read tool and cat -n show a file
// ("     4→", "4\t"), a diff's '+' or '-' or a quote's '>' before a
// blank, a quote, a bracket or the line's end. A literal read over lines
// steps over it as over an indent; otherwise the prefix would end the
// literal at its first line break.
func linePrefix(s string, p int) int {
	q := skipBlanks(s, p)
	if d := digitsEnd(s, q); d > q {
		switch {
		case strings.HasPrefix(s[d:], "→"):
			return d + len("→")
		case d < len(s) && s[d] == '\t':
			return d + 1
		case strings.HasPrefix(s[d:], `\t`): // in a JSON string
			return d + len(`\t`)
		}
		return p
	}
	if p+1 < len(s) && (s[p] == '+' || s[p] == '-' || s[p] == '>') {
		if c := s[p+1]; isBlank(c) || isQuote(c) || c == '\\' || strings.IndexByte("{}[]\r\n", c) >= 0 {
			return p + 1
		}
	}
	return p
}

// afterTypeAnnotation returns the position after the "<type> =" at s[p]
// that declares a cookie word's type before its literal (cookies:
// dict[str, str] = {…}, const cookies: Record<string, string> = {…}). The
// '=' must follow a blank, and a literal or a string must follow it:
// "Cookie: sid=…" and "Cookie: sid = …" are headers.
func afterTypeAnnotation(s string, p int) (int, bool) {
	e := p
	for e < len(s) && e-p < maxKeyLen && (isAlnum(s[e]) || strings.IndexByte("_.[]<>, |?", s[e]) >= 0) {
		e++
	}
	if e == p || e >= len(s) || s[e] != '=' || !isBlank(s[e-1]) || e+1 < len(s) && (s[e+1] == '=' || s[e+1] == '>') {
		return p, false
	}
	q := skipBlanks(s, e+1)
	_, lit := literalAt(s, q)
	return q, lit || q < len(s) && isQuote(s[q])
}

// literalAt returns where the literal of cookies that starts at s[p]
// opens: at its bracket, at the '(' of dict(…), or at the '{' after a
// composite literal's type (map[string]string{…}, []*http.Cookie{…}).
func literalAt(s string, p int) (int, bool) {
	n := len(s)
	switch {
	case p >= n:
		return p, false
	case strings.HasPrefix(s[p:], "dict("):
		return p + len("dict"), true
	case s[p] == '{' || s[p] == '[' && !strings.HasPrefix(s[p:], "[]"):
		return p, true
	}
	e := p
	for e < n && e-p < maxKeyLen && (isToken(s[e]) || strings.IndexByte(".*&[]", s[e]) >= 0) {
		e++
	}
	if e < n && s[e] == '{' && hasLetter(s[p:e]) {
		return e, true
	}
	return p, false
}

// cookiePairs masks, of the name=value pairs in s[p:end], each value that
// looks random ("sessionid=8f3k2j…", not "lang=en"); a Set-Cookie header's
// attributes (Path, Expires…) are left. It is the one reader of pairs for
// headers, flags, strings and HAR values, so it asks little of them: a
// name is whatever stands before '=' ((null), EPi:Visits, a run of 300
// bytes: servers set such names and browsers send them back), blanks may
// stand around the '=', and a value ends at a byte no cookie value holds
// (a blank, a quote, a backslash, ';', and ',' in a Set-Cookie header,
// which may join several). So a value ends before the prose, the next
// header or the closing quote of code after it, and the brackets of a Go
// map or a Java toString (Cookie:[sid=…]) are left too (trimClosers).
func cookiePairs(s string, p, end int, set bool, edits []edit) []edit {
	for p < end {
		k := strings.IndexByte(s[p:end], '=')
		if k < 0 {
			break
		}
		eq := p + k
		ne := eq
		for ne > p && isBlank(s[ne-1]) {
			ne--
		}
		ns := ne
		for ns > p && !isBlank(s[ns-1]) && s[ns-1] != ';' && s[ns-1] != ',' {
			ns--
		}
		vs := skipBlanks(s[:end], eq+1)
		q := vs // a quoted value: sid="…", or sid=\"…\" in a JSON string
		for q < end && s[q] == '\\' {
			q++
		}
		if q < end && (s[q] == '"' || s[q] == '\'') {
			vs = q + 1
		}
		ve := vs
		for ve < end && !(s[ve] <= ' ' || strings.IndexByte("\"'`\\;", s[ve]) >= 0 || set && s[ve] == ',') {
			ve++
		}
		p = max(ve, eq+1)
		v := trimClosers(s[vs:ve])
		if ns < ne && !(set && cookieAttribute(s[ns:ne])) && cookieValue(v) {
			edits = append(edits, edit{vs, vs + len(v), "cookie"})
		}
	}
	return edits
}

// trimClosers returns v without the brackets and commas at its end that
// close what it does not open: the "]]" of map[Cookie:[sid=…]], the "],"
// of {Cookie=[sid=…], Accept=…}. A value that opens a bracket keeps them.
func trimClosers(v string) string {
	if strings.ContainsAny(v, "([{<") {
		return strings.TrimRight(v, ",")
	}
	return strings.TrimRight(v, ",)]}>")
}

// cookieValue reports whether v, a cookie's value as a header or a
// recorded cookie gives it, is to be masked: it looks random, and is no
// reference ($SID, %s, {{sid}}, <sid>), placeholder or marker, and none
// of the values with digits that are plainly no secret (plainCookieValue).
func cookieValue(v string) bool {
	if v == "" || reference(v) || strings.Contains(v, redactPrefix) || isPlaceholder(v) {
		return false
	}
	v = strings.Trim(v, `"'`)
	return looksRandom(v) && !plainCookieValue(v)
}

// plainCookieValue reports whether v is a URL, a date or time
// (2026-01-01T10:00:00Z), a version (v1.2.3-rc4, 2.0.1) or a size
// (1920x1080): values with letters and digits that no one keeps secret.
func plainCookieValue(v string) bool {
	if strings.Contains(v, "://") {
		return true
	}
	if len(v) >= len("2026-01-01") && allDigits(v[0:4]) && v[4] == '-' && allDigits(v[5:7]) && v[7] == '-' && allDigits(v[8:10]) {
		return true
	}
	w := v
	if w != "" && w[0]|0x20 == 'v' {
		w = w[1:]
	}
	d := digitsEnd(w, 0)
	if d > 0 && d < len(w) && w[d]|0x20 == 'x' { // 1920x1080
		return digitsEnd(w, d+1) == len(w) && d+1 < len(w)
	}
	dots := 0
	for d > 0 && d+1 < len(w) && w[d] == '.' && isDigit(w[d+1]) {
		d = digitsEnd(w, d+1)
		dots++
	}
	// 1.2.3, v1.2.3-rc4, 2.0.1+build7: the tag after a version is short.
	return dots > 0 && (d == len(w) || (w[d] == '-' || w[d] == '+') && len(w)-d <= len("-SNAPSHOT2"))
}

// digitsEnd returns the end of the run of digits at s[p:].
func digitsEnd(s string, p int) int {
	for p < len(s) && isDigit(s[p]) {
		p++
	}
	return p
}

func allDigits(s string) bool { return s != "" && digitsEnd(s, 0) == len(s) }

// codeCookieValue is cookieValue for a string literal written in code,
// which is all of the value, named name ("" if unknown). In code a value
// with a digit is as often a setting or a fixture (accepted-v2, cart_1234,
// NewValue3, newspaper.com:1471) as a session, so it must also have a
// token's shape (tokenShaped). A cookie's value has only RFC 6265's
// cookie-octets (cookieOctets), so a message ("We use 3 kinds of
// cookies") is none.
//
// A UUID is masked only under a name that says session or credential
// (sid, JSESSIONID, auth_token): a session store may use one, but a UUID
// written in code is far more often a visitor, tenant or request id or the
// RFC's own example, while live sessions reach the text through headers,
// HAR files and curl, where cookieValue masks a UUID whatever its name.
func codeCookieValue(name, v string) bool {
	if !cookieOctets(v) || isUUID(v) && !sessionName(name) {
		return false
	}
	// looksSecret takes a leading '-' for a flag; a base64url token may
	// start with one.
	return cookieValue(v) && looksSecret(strings.TrimLeft(v, "-")) && tokenShaped(v)
}

// cookieOctets reports whether v has none of the bytes a cookie's value
// cannot hold: blanks, quotes, commas, semicolons, backslashes.
func cookieOctets(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c <= ' ' || c == '"' || c == ',' || c == ';' || c == '\\' {
			return false
		}
	}
	return true
}

// tokenShaped reports whether v looks generated: 16 bytes or more, not
// made of words and numbers (wordsOnly), and with at least 70% of the
// entropy a string of its length and its kind of characters can have.
// A fixed threshold would miss real sessions: the entropy of a random
// 32-digit hex id (a JSESSIONID) is often below 3.6 bits per byte, and of
// a 16-character [a-z0-9] one often below 3.5.
func tokenShaped(v string) bool {
	if len(v) < 16 || wordsOnly(v) {
		return false
	}
	return shannonEntropy(v) >= 0.7*math.Log2(float64(min(len(v), alphabetSize(v))))
}

// alphabetSize is the size of the alphabet v seems drawn from: the
// classes of letters and digits it uses (16 if all are hex digits, else
// 10 digits, 26 lower, 26 upper letters) and its other distinct bytes.
func alphabetSize(v string) int {
	var seen [256]bool
	hex, others := true, 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !isAlnum(c) && !seen[c] {
			others++
		}
		seen[c] = true
		hex = hex && (!isLetter(c) || 'a' <= c|0x20 && c|0x20 <= 'f')
	}
	if hex {
		return 16 + others
	}
	size := others
	for _, class := range [...]struct {
		lo, hi byte
		size   int
	}{{'0', '9', 10}, {'a', 'z', 26}, {'A', 'Z', 26}} {
		for c := class.lo; c <= class.hi; c++ {
			if seen[c] {
				size += class.size
				break
			}
		}
	}
	return size
}

// wordsOnly reports whether v is made of words and numbers joined by
// punctuation or case humps (anonymous-user-1, onboarding-step-4-of-7,
// newspaper.com:1471, expiringCookieValue2024): each run of letters a word
// of two or more, lower case, upper case or capitalised, and set off from
// the word before by more than digits. A random token has runs of one
// letter, mixes case within a run, or parts its letters by digits only
// (k2jxq8fhz).
func wordsOnly(v string) bool {
	words, apart := 0, true // apart: punctuation or a hump since the last word
	for i := 0; i < len(v); {
		c := v[i]
		switch {
		case isDigit(c):
			i = digitsEnd(v, i)
			continue
		case !isLetter(c):
			apart = true
			i++
			continue
		case !apart:
			return false
		}
		j := i + 1
		for j < len(v) && isLower(v[j]) {
			j++
		}
		if isUpper(c) && j == i+1 { // an upper-case run: HTTP, or the HTTP of HTTPServer
			for j < len(v) && isUpper(v[j]) {
				j++
			}
			if j < len(v) && isLower(v[j]) && j-i > 2 {
				j--
			}
		}
		if j-i < 2 || !pronounceable(v[i:j]) {
			return false
		}
		words++
		apart = j < len(v) && isUpper(v[j]) // a hump: the next word starts here
		i = j
	}
	return words > 0
}

// pronounceable reports whether the letters w read as a word: one of
// three letters or fewer (of, eu, cdn), or one with a vowel and no more
// than four consonants in a row (newspaper, strengths), as few random
// runs of letters are (bndclgufw, Ctwg).
func pronounceable(w string) bool {
	if len(w) <= 3 {
		return true
	}
	vowel, run := false, 0
	for i := 0; i < len(w); i++ {
		if strings.IndexByte("aeiouyAEIOUY", w[i]) >= 0 {
			vowel, run = true, 0
		} else if run++; run > 4 {
			return false
		}
	}
	return vowel
}

// isUUID reports whether v is written as a UUID: 8-4-4-4-12 hex digits.
func isUUID(v string) bool {
	return len(v) == 36 && v[8] == '-' && v[13] == '-' && v[18] == '-' && v[23] == '-' &&
		isHex(v[:8]+v[9:13]+v[14:18]+v[19:23]+v[24:])
}

// sessionName reports whether a cookie's name says it holds a session or
// a credential: sid, sessionid, JSESSIONID, auth_token, api_key.
func sessionName(name string) bool {
	for i := 0; i < len(name); i++ {
		if hasFold(name, i, "sess") || hasFold(name, i, "sid") {
			return true
		}
	}
	return namesSecret(name)
}

// cookieAttribute reports whether name is one of the settings a Set-Cookie
// header or a cookie object gives beside the cookie (Path, Max-Age,
// httpOnly, same_site…), with case, '-' and '_' ignored. A Cookie
// header has none: a cookie named "path" is a cookie.
func cookieAttribute(name string) bool {
	f, ok := foldName(name, len("partitioned"))
	return ok && cookieAttributes[f]
}

// foldName returns w in lower case without '-' and '_', so that Max-Age,
// max_age and maxAge are one name, or false if that is longer than n
// bytes (n <= 16).
func foldName(w string, n int) (string, bool) {
	var b [16]byte
	k := 0
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c == '-' || c == '_':
			continue
		case k == n:
			return "", false
		case isUpper(c):
			c += 'a' - 'A'
		}
		b[k] = c
		k++
	}
	return string(b[:k]), true
}

// cookieAttributes are the names cookieAttribute knows, folded.
var cookieAttributes = map[string]bool{"path": true, "domain": true, "expires": true, "maxage": true,
	"samesite": true, "secure": true, "httponly": true, "priority": true, "partitioned": true, "version": true}

// cookieCode masks the cookie set by the code that follows the cookie
// word s[st:p]: a setter's call (Cookies.set("sid", "…"), new
// Cookie("sid", "…"), Cookie::new(…), addCookies([…]),
// set_cookie(key="sid", value="…"), cookies().set(…), s.cookies.update(sid="…"),
// SimpleCookie("sid=…")), an item's (cookies["sid"] = "…") or a composite
// literal's (http.Cookie{Name: "sid", Value: "…"}). Another call
// (cookies.get("sid", "default"), readCookie(…)) sets none; only strings
// of name=value pairs given to it are read. It returns where its
// reading stopped; ok is false when no such code follows the word.
func cookieCode(s string, st, p int, edits []edit) (_ []edit, read int, ok bool) {
	n := len(s)
	q := p
	if strings.HasPrefix(s[q:], "().") {
		q += len("()") // cookies().set("sid", "…")
	}
	if q >= n {
		return edits, p, false
	}
	switch c := s[q]; {
	case c == '{' && q == p:
		edits, read = cookieLiteral(s, q, litTop, edits)
		return edits, read, true
	case c == '[' && q == p:
		edits, read = cookieItem(s, q+1, edits)
		return edits, read, true
	case c == '.' || c == ':' && q+1 < n && s[q+1] == ':':
		m := q + 1
		if c == ':' {
			m++
		}
		e := m
		for e < n && isToken(s[e]) && e-m < maxKeyLen {
			e++
		}
		if e == m || e >= n || s[e] != '(' {
			return edits, p, false // document.cookie.length, "the cookie."
		}
		q = e
	case c != '(':
		return edits, p, false
	}
	k := calleeKind(s[st:q])
	if k == litSkip {
		k = litHeader // parseCookie("sid=…"): another call reads a string of pairs
	}
	edits, read = cookieLiteral(s, q, k, edits)
	return edits, read, true
}

// calleeKind is the kind of literal the arguments of a call of w are:
// litCall for a call that sets a cookie by name and value, litKwargs for
// one that sets cookies by keyword (s.cookies.update(sid="…")), litSkip
// for any other. A setter is named either by the callee itself
// (setCookie, new Cookie, set_cookie) or by a generic method (set, add,
// update, Cookie::new) on an object that is a cookie word (s.cookies.set,
// Cookies.set, cookies().set): so the last two segments of w are looked
// at, and earlier ones (s., requests.) name the owner, not the cookie.
func calleeKind(w string) litKind {
	i := strings.LastIndexAny(w, ".:")
	method := w[i+1:]
	if isCookieSetter(method) {
		return litCall
	}
	if i < 0 {
		return litSkip
	}
	obj := strings.TrimSuffix(strings.TrimRight(w[:i], ":"), "()")
	if !isCookieWord(obj[strings.LastIndexAny(obj, ".:")+1:]) {
		return litSkip
	}
	switch strings.ToLower(method) {
	case "set", "add", "put", "append", "new", "build":
		return litCall
	case "update":
		return litKwargs
	}
	return litSkip
}

// isCookieSetter reports whether w names a call that makes or sets a
// cookie by name and value: Cookie, SimpleCookie, HttpCookie,
// setCookie, set_cookie, setcookie, addCookie(s), add_cookie,
// create_cookie, res.cookie, $.cookie. readCookie, getCookie, clearCookie
// and deleteCookie set none.
func isCookieSetter(w string) bool {
	f, ok := foldName(w, len("appendcookies"))
	f = strings.TrimSuffix(f, "s")
	if !ok || !strings.HasSuffix(f, "cookie") {
		return false
	}
	switch f[:len(f)-len("cookie")] {
	case "", "set", "add", "create", "make", "new", "simple", "http", "put", "append", "write", "build":
		return true
	}
	return false
}

// isCookieWord reports whether w ends in cookie or cookies, in any case.
func isCookieWord(w string) bool {
	w = strings.TrimSuffix(strings.TrimSuffix(w, "s"), "S")
	return len(w) >= len("cookie") && hasFold(w, len(w)-len("cookie"), "cookie")
}

// cookieItem masks the value assigned to a cookie by name, cookies["sid"]
// = "…", with s[p] just after the '['. Reading the item (== "…") assigns
// nothing.
func cookieItem(s string, p int, edits []edit) ([]edit, int) {
	n := len(s)
	ns, ne, q, ok := stringAt(s, p)
	if !ok || q >= n || s[q] != ']' {
		return edits, q
	}
	q = skipBlanks(s, q+1)
	if q >= n || s[q] != '=' || q+1 < n && s[q+1] == '=' {
		return edits, q
	}
	vs, ve, q, ok := stringAt(s, skipBlanks(s, q+1))
	if ok && codeCookieValue(s[ns:ne], s[vs:ve]) {
		edits = append(edits, edit{vs, ve, "cookie"})
	}
	return edits, q
}

// stringAt reads the string literal that starts at s[p] and closes on its
// line within maxCookieHeader bytes: its content s[cs:ce] and next, the
// end of its closing quote. ok is false if there is none; next is then p,
// or where the search for the closing quote ended, so that no caller
// searches those bytes again.
func stringAt(s string, p int) (cs, ce, next int, ok bool) {
	end := min(len(s), p+maxCookieHeader)
	delim, cs, _ := quoteAt(s[:end], p)
	if delim == "" {
		return 0, 0, p, false
	}
	ce = quoteEnd(s[:end], cs, delim)
	if !strings.HasPrefix(s[ce:end], delim) {
		return 0, 0, ce, false
	}
	return cs, ce, ce + len(delim), true
}

// litKind is what the items of a literal are, which decides which of its
// strings are cookies.
type litKind uint8

const (
	// litSkip: none are; a cookie call inside is still read.
	litSkip litKind = iota
	// litTop: the literal a cookie word is given. Keyed, it is a dict of
	// cookies by name ({"sessionid": "…"}) or, if it has a name or a value
	// key, one cookie object ({name: "sid", value: "…"}, http.Cookie{…}).
	// Its elements are cookie objects (litElem), cookie calls, or strings
	// of a Cookie or Set-Cookie header's pairs (Header{"Cookie":
	// {"sid=…"}}, ['sid=…; HttpOnly']). Deeper values are no cookies.
	litTop
	// litElem: an element of such a list, whose value key is its cookie.
	litElem
	// litCall: a cookie call's arguments: a name, then the value, or
	// value=; its first argument may also be a literal (litTop) or a lone
	// string of pairs.
	litCall
	// litKwargs: cookies by keyword, s.cookies.update(sid="…"), or a dict
	// given first.
	litKwargs
	// litHeader, litSetHeader: strings of a Cookie or Set-Cookie header's
	// pairs: what follows the header's name given as a string (the next
	// string, or the value key's, which a diff may give twice, on a - and
	// a + line), or the arguments of a call that sets no cookie by name
	// (parseCookie("sid=…")).
	litHeader
	litSetHeader
)

// cookieLiteral masks the cookies of the literal that opens at s[p] ('{',
// '[', or the '(' of a call's arguments) as one of kind k, and returns
// where its reading stopped: after the literal's closing bracket, or at
// the first byte that belongs to no literal of strings, words and numbers
// (an operator, a string not closed on its line), or at a level deeper
// than maxCookieDepth. Keys end in ':', '=>' or '=' (key="…"); comments
// (# …, // …) are skipped. Each byte is read once.
func cookieLiteral(s string, p int, k litKind, edits []edit) ([]edit, int) {
	r := cookieReader{s: s, p: p + 1, edits: edits}
	r.items(k, 1)
	return r.edits, r.p
}

// cookieReader reads a literal token by token, with one token of
// lookahead.
type cookieReader struct {
	s      string
	p      int // where the next token starts
	ahead  token
	peeked bool
	stop   bool // reading ended before the literal closed
	edits  []edit
}

type litToken uint8

const (
	tokEnd    litToken = iota // the end of the text or of the literal's bytes
	tokOpen                   // { [ (
	tokClose                  // } ] )
	tokComma                  // ,
	tokSep                    // : = =>
	tokString                 // s[st:end] is its content
	tokWord                   // s[st:end]: a key, a number, a variable, Cookie::new
)

type token struct {
	kind    litToken
	c       byte // the bracket of tokOpen
	st, end int
}

func (r *cookieReader) peek() token {
	if !r.peeked {
		r.ahead, r.peeked = r.lex(), true
	}
	return r.ahead
}

func (r *cookieReader) next() token {
	t := r.peek()
	r.peeked = false
	return t
}

func (r *cookieReader) lex() token {
	s, n := r.s, len(r.s)
	for r.p < n {
		c := s[r.p]
		var c1 byte // the byte after c
		if r.p+1 < n {
			c1 = s[r.p+1]
		}
		switch {
		case c == '\n':
			r.p = linePrefix(s, r.p+1)
			continue
		case isBlank(c) || c == '\r':
			r.p++
			continue
		case escapedSpace(s, r.p):
			r.p = afterEscapedSpace(s, r.p)
			continue
		case c == '#' || c == '/' && c1 == '/':
			if k := strings.IndexByte(s[r.p:], '\n'); k >= 0 {
				r.p += k
			} else {
				r.p = n
			}
			continue
		case c == ',':
			r.p++
			return token{kind: tokComma}
		case c == '{' || c == '[' || c == '(':
			r.p++
			return token{kind: tokOpen, c: c}
		case c == '}' || c == ']' || c == ')':
			r.p++
			return token{kind: tokClose}
		case c == '=' && c1 == '>':
			r.p += 2
			return token{kind: tokSep}
		case (c == ':' || c == '=') && c1 != '=' && c1 != ':':
			r.p++
			return token{kind: tokSep}
		}
		cs, ce, next, ok := stringAt(s, r.p)
		switch {
		case ok:
			r.p = next
			return token{kind: tokString, st: cs, end: ce}
		case next > r.p: // a string not closed on its line
			r.p = next
			return token{kind: tokEnd}
		case !isLiteralWord(c):
			return token{kind: tokEnd} // an operator, a comparison
		}
		st := r.p
		for r.p < n && (isLiteralWord(s[r.p]) || s[r.p] == ':' && r.p+2 < n && s[r.p+1] == ':' && isToken(s[r.p+2])) {
			if s[r.p] == ':' {
				r.p++ // Cookie::new
			}
			r.p++
		}
		return token{kind: tokWord, st: st, end: r.p}
	}
	return token{kind: tokEnd}
}

// isLiteralWord reports whether c can be part of a word in a literal:
// a key, a number, a variable ($sid, os.environ), &http.Cookie.
func isLiteralWord(c byte) bool {
	return isToken(c) || c == '.' || c == '&' || c == '*' || c == '$'
}

// cookieObject is what items has read of an object so far: its name and
// value keys, and, while it may still be a dict of cookies, its values.
type cookieObject struct {
	name       string // its name key's string, or a cookie call's first argument
	named      bool   // it has a name key
	nameQuote  bool   // its name key is quoted, as JSON's are
	valueKey   bool   // it has a value key
	value      token  // the value key's string, if it is one (tokString)
	valueQuote bool   // the value key is quoted
	pending    []edit // a dict's cookies, masked if it has no name or value key
}

// item is where a value stands in its literal: under a key, or as the
// argument at arg.
type item struct {
	arg       int
	key       string
	keyed     bool
	keyQuoted bool // the key is a string, as JSON's keys are
}

// items reads the items of a literal of kind k at depth up to its closing
// bracket: each a value, or a key, a separator and a value.
func (r *cookieReader) items(k litKind, depth int) {
	var obj cookieObject
	var it item
	for !r.stop {
		t := r.next()
		switch t.kind {
		case tokEnd:
			r.stop = true
		case tokClose:
			r.closeObject(k, &obj)
			return
		case tokComma:
			it = item{arg: it.arg + 1}
		case tokSep:
			// a stray separator: a ? b : c
		case tokString, tokWord:
			if !it.keyed && r.peek().kind == tokSep {
				r.next()
				it.key, it.keyed, it.keyQuoted = r.s[t.st:t.end], true, t.kind == tokString
				continue
			}
			fallthrough
		default:
			r.value(k, depth, &obj, it, t)
			it = item{arg: it.arg}
		}
	}
	r.closeObject(k, &obj) // masked as far as it was read
}

// value reads the value at it that starts with t.
func (r *cookieReader) value(k litKind, depth int, obj *cookieObject, it item, t token) {
	s := r.s
	switch t.kind {
	case tokString:
		r.stringValue(k, obj, it, t)
		return
	case tokOpen:
		r.open(depth, nestedKind(k, it, t.c))
		return
	}
	// Words, then perhaps a bracket: new Cookie(…), &http.Cookie{…},
	// dict(…), os.environ["SID"], cookies().set(…).
	callee := t
	for r.peek().kind == tokWord {
		callee = r.next()
	}
	if it.keyed && strings.EqualFold(it.key, "name") {
		obj.named = true // a name given by a variable
	}
	if it.keyed && strings.EqualFold(it.key, "value") {
		obj.valueKey = true
	}
	w := s[callee.st:callee.end]
	for r.peek().kind == tokOpen && !r.stop {
		c := r.next().c
		kind := litSkip
		switch {
		case c == '(' && strings.EqualFold(w, "dict"):
			kind = nestedKind(k, it, '{')
		case c == '(':
			kind = calleeKind(w)
		case c == '{' && isCookieWord(w[strings.LastIndexAny(w, ".:*&")+1:]):
			// http.SetCookie(w, &http.Cookie{…}), []*http.Cookie{{…}}:
			// a cookie's type names what it holds wherever it stands.
			kind = litTop
		case c == '{':
			kind = nestedKind(k, it, c)
		}
		r.open(depth, kind)
		// cookies().set(…): the next callee is a method of this call's result.
		u := r.peek()
		if u.kind != tokWord || s[u.st] != '.' {
			return
		}
		r.next()
		w = s[callee.st:callee.end] + "()" + s[u.st:u.end]
		callee = u
	}
}

// nestedKind is the kind of a literal that opens with c at it in a
// literal of kind k: litTop, litCall and litKwargs hold a cookie object,
// or a dict or list of them, only at their first level.
func nestedKind(k litKind, it item, c byte) litKind {
	switch {
	case it.keyed:
		return litSkip // a dict's value, an option: {"cookies": {"analytics": {…}}}
	case k == litTop && c == '{':
		return litElem // [{"name": "sid", "value": "…"}]
	case k == litCall && it.arg == 0 && c == '(':
		return litCall // the call's arguments as a tuple: Cookie::build(("sid", "…"))
	case (k == litCall || k == litKwargs) && it.arg == 0:
		return litTop // setCookie({…}), addCookies([…]), s.cookies.update({…})
	case (k == litHeader || k == litSetHeader) && c == '[':
		return k // setHeader('Set-Cookie', ['sid=…', …])
	}
	return litSkip
}

// open reads the literal of kind k that opened just before the reader's
// position, one level below depth.
func (r *cookieReader) open(depth int, k litKind) {
	if depth == maxCookieDepth {
		r.stop = true
		return
	}
	r.items(k, depth+1)
}

// stringValue reads the string t at it in a literal of kind k.
func (r *cookieReader) stringValue(k litKind, obj *cookieObject, it item, t token) {
	s := r.s
	v := s[t.st:t.end]
	switch k {
	case litTop, litElem:
		switch {
		case !it.keyed:
			if k == litTop { // a header's pairs: ['sid=…; HttpOnly']
				r.edits = cookiePairs(s, t.st, t.end, true, r.edits)
			}
		case strings.EqualFold(it.key, "name"):
			obj.name, obj.named, obj.nameQuote = v, true, it.keyQuoted
		case strings.EqualFold(it.key, "value"):
			// A diff gives the value key twice, its - line's and its +
			// line's: each is a cookie.
			r.maskValue(obj)
			obj.valueKey, obj.value, obj.valueQuote = true, t, it.keyQuoted
		case k == litTop && !cookieAttribute(it.key) && !strings.EqualFold(it.key, "url") && codeCookieValue(it.key, v):
			obj.pending = append(obj.pending, edit{t.st, t.end, "cookie"})
		}
	case litCall:
		switch {
		case it.keyed && strings.EqualFold(it.key, "value"):
			r.maskCode(obj.name, t)
		case it.keyed && (strings.EqualFold(it.key, "key") || strings.EqualFold(it.key, "name")):
			obj.name = v
		case it.keyed:
		case it.arg == 0:
			// A cookie's name, or its header: SimpleCookie("sid=…; theme=dark"),
			// jar.setCookie("sid=…; Path=/", url).
			obj.name = v
			r.edits = cookiePairs(s, t.st, t.end, r.peek().kind != tokClose, r.edits)
		case it.arg == 1:
			r.maskCode(obj.name, t)
		}
	case litKwargs:
		if it.keyed && !cookieAttribute(it.key) && !strings.EqualFold(it.key, "url") {
			r.maskCode(it.key, t)
		}
	case litHeader, litSetHeader:
		if !it.keyed || strings.EqualFold(it.key, "value") {
			r.edits = cookiePairs(s, t.st, t.end, k == litSetHeader, r.edits)
		}
	}
}

func (r *cookieReader) maskCode(name string, t token) {
	if codeCookieValue(name, r.s[t.st:t.end]) {
		r.edits = append(r.edits, edit{t.st, t.end, "cookie"})
	}
}

// closeObject masks what an object of kind k holds once it is read: its
// value key's string; or, with neither a name nor a value key, a dict's
// values. A value recorded in JSON, with "name" and "value" both quoted
// (a HAR file's, a saved browser state's, a cookie export's), is read as
// a header's value is, by cookieValue; a value in code must also look
// like a token (codeCookieValue).
func (r *cookieReader) closeObject(k litKind, obj *cookieObject) {
	if k != litTop && k != litElem {
		return
	}
	if !obj.named && !obj.valueKey {
		r.edits = append(r.edits, obj.pending...)
	}
	r.maskValue(obj)
	obj.pending = nil
}

// maskValue masks the string obj's value key holds, if it has one, as
// closeObject says.
func (r *cookieReader) maskValue(obj *cookieObject) {
	switch v := obj.value; {
	case v.kind != tokString:
	case obj.nameQuote && obj.valueQuote:
		if val := r.s[v.st:v.end]; cookieOctets(val) && cookieValue(val) {
			r.edits = append(r.edits, edit{v.st, v.end, "cookie"})
		}
	default:
		r.maskCode(obj.name, v)
	}
}

// reference reports a value that names another ($SID, %s, %(sid)s,
// {{sid}}, <sid>) rather than being one; a '%' that escapes a byte (%2B,
// a base64 value's '+' in a URL-encoded cookie) starts a value.
func reference(v string) bool {
	switch {
	case v == "" || strings.IndexByte("$%{<", v[0]) < 0:
		return false
	case v[0] == '%' && len(v) > 2 && isHex(v[1:3]):
		return false
	}
	return true
}

package privacy

import "strings"

// A session's cookie is its credential. A cookie is read where something
// gives it by name and value: a Cookie or Set-Cookie header and its kin
// (cookieEdits, cookiePairs), curl's -b (curlCookieEdits in cli.go), a
// dict or list of cookies in code or JSON (cookieLiteral), and code that
// sets one (cookieCode). Only a value that looks random is masked
// (cookieValue): names, attributes, "theme=dark" and code that merely
// names a cookie stay.

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
// HTTP_COOKIE=…, "cookie": "…", document.cookie = "…", --cookie '…',
// Header.Set("Cookie", "…"), {"name": "Cookie", "value": "…"}). The
// header's value is read, its quoted string or the rest of its line, at
// most maxCookieHeader bytes, and only its name=value pairs (cookiePairs):
// a bare value is code or prose ("cookie = request.headers.get('Cookie')").
//
// A cookie word in code (cookies, Cookie, setCookie, add_cookie) may be
// followed by a literal of cookies (cookies={"sid": "…"}, "cookies": [{…}],
// http.Cookie{…}) or by a call or item that sets one (Cookies.set("sid",
// "…"), cookies["sid"] = "…"), which cookieCode and cookieLiteral read.
func cookieEdits(s string, hits []int, edits []edit) []edit {
	n := len(s)
	done := 0 // a hit inside a header already read is one of its words
	read := 0 // a hit inside code already read starts no code of its own
	nl := -1  // the end of the line of the latest hit read, found once a line
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
		flag := strings.HasPrefix(s[st:i], "--") // curl --cookie 'a=b'
		open, p, keyQuoted := closeKeyQuote(s, st, off)
		if open == 0 && i >= read {
			if e, r, ok := cookieCode(s, off, edits); ok {
				edits, read = e, r
				continue
			}
		}
		for p < n && isBlank(s[p]) {
			p++
		}
		switch {
		case p >= n:
			continue
		case s[p] == ':' || s[p] == '=' || keyQuoted && s[p] == ',': // Header.Set("Cookie", "…")
			if p+1 < n && (s[p+1] == ':' || s[p+1] == '=') {
				continue // "cookie == x", "cookie := x"
			}
			comma := s[p] == ','
			p++
			for p < n && isBlank(s[p]) {
				p++
			}
			if comma {
				p = afterValueKey(s, p) // {"name": "Cookie", "value": "…"}
			}
		case !flag || p == off:
			continue // prose: "the cookie is set at login"
		}
		if p >= n || open != 0 && !keyQuoted && s[p] == open {
			continue
		}
		if s[p] == '{' || s[p] == '[' {
			if i >= read {
				edits, read = cookieLiteral(s, p, false, edits)
			}
			continue
		}
		if nl < p {
			nl = n
			if k := strings.IndexAny(s[p:], "\r\n"); k >= 0 {
				nl = p + k
			}
		}
		end := min(nl, p+maxCookieHeader)
		switch delim, cs, _ := quoteAt(s[:end], p); {
		case delim != "":
			p, end = cs, quoteEnd(s[:end], cs, delim)
		case plural:
			continue // cookies=jar, timeout=30: code, no header
		case open != 0 && !keyQuoted:
			// -H "Cookie: a=b" https://…: the header ends at its quote.
			if k := strings.IndexByte(s[p:end], open); k >= 0 {
				end = p + k
			}
		case flag:
			// --cookie a=b https://…: a bare argument ends at a blank.
			if k := strings.IndexAny(s[p:end], " \t"); k >= 0 {
				end = p + k
			}
		}
		done = end
		edits = cookiePairs(s, p, end, set, edits)
	}
	return edits
}

// afterValueKey returns the position after a quoted "value" key and its
// colon at s[p] (a HAR header object names its header, then gives its
// value so), or p if there is none.
func afterValueKey(s string, p int) int {
	n := len(s)
	if p+len(`"value"`) >= n || !isQuote(s[p]) || !hasFold(s, p+1, "value") || s[p+len(`"value`)] != s[p] {
		return p
	}
	q := p + len(`"value"`)
	for q < n && isBlank(s[q]) {
		q++
	}
	if q >= n || s[q] != ':' {
		return p
	}
	for q++; q < n && isBlank(s[q]); q++ {
	}
	return q
}

// cookiePairs masks, of the name=value pairs in s[p:end] (split at ';', and
// at ',' in a Set-Cookie header, which may join several), each value that
// looks random ("sessionid=8f3k2j…", not "lang=en"). A Set-Cookie header's
// attributes (Path, Expires…) are left.
func cookiePairs(s string, p, end int, set bool, edits []edit) []edit {
	seps := ";"
	if set {
		seps = ";,"
	}
	for p < end {
		e := end
		if k := strings.IndexAny(s[p:end], seps); k >= 0 {
			e = p + k
		}
		pair := s[p:e]
		p = e + 1
		eq := strings.IndexByte(pair, '=')
		if eq <= 0 {
			continue
		}
		name := strings.TrimSpace(pair[:eq])
		if name == "" || set && cookieAttribute(name) {
			continue
		}
		vs := e - len(strings.TrimLeft(pair[eq+1:], " \t"))
		v := strings.TrimRight(s[vs:e], " \t")
		if cookieValue(v) {
			edits = append(edits, edit{vs, vs + len(v), "cookie"})
		}
	}
	return edits
}

// cookieValue reports whether v, a cookie's value, is to be masked: it
// looks random, and is no reference ($SID, %s, {{sid}}, <sid>),
// placeholder or marker.
func cookieValue(v string) bool {
	return v != "" && strings.IndexByte("$%{<", v[0]) < 0 && !strings.Contains(v, redactPrefix) &&
		!isPlaceholder(v) && looksRandom(strings.Trim(v, `"'`))
}

// cookieAttribute reports whether name is one of the settings a Set-Cookie
// header or a cookie object gives beside the cookie (Path, Max-Age,
// httpOnly, same_site…), with case, '-' and '_' ignored. A Cookie
// header has none: a cookie named "path" is a cookie.
func cookieAttribute(name string) bool {
	var b [len("partitioned")]byte
	k := 0
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '-' || c == '_':
			continue
		case k == len(b):
			return false
		case isUpper(c):
			c += 'a' - 'A'
		}
		b[k] = c
		k++
	}
	return cookieAttributes[string(b[:k])]
}

// cookieAttributes are the names cookieAttribute knows, folded.
var cookieAttributes = map[string]bool{"path": true, "domain": true, "expires": true, "maxage": true,
	"samesite": true, "secure": true, "httponly": true, "priority": true, "partitioned": true, "version": true}

// cookieCode masks the cookie set by the code that follows a cookie word
// at s[p]: a call's (Cookies.set("sid", "…"), new Cookie("sid", "…"),
// Cookie::new(…), addCookies([…]), set_cookie(key="sid", value="…"),
// cookies().set(…), SimpleCookie("sid=…")), an item's (cookies["sid"] =
// "…") or a composite literal's (http.Cookie{Name: "sid", Value: "…"}).
// It returns where its reading stopped; ok is false when no such code
// follows the word.
func cookieCode(s string, p int, edits []edit) (_ []edit, read int, ok bool) {
	n := len(s)
	if strings.HasPrefix(s[p:], "().") {
		p += len("()") // cookies().set("sid", "…")
	}
	if p >= n {
		return edits, p, false
	}
	switch c := s[p]; {
	case c == '{':
		edits, read = cookieLiteral(s, p, false, edits)
		return edits, read, true
	case c == '[':
		edits, read = cookieItem(s, p+1, edits)
		return edits, read, true
	case c == '.' || c == ':' && p+1 < n && s[p+1] == ':':
		m := p + 1
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
		p = e
	}
	if s[p] != '(' {
		return edits, p, false
	}
	edits, read = cookieCall(s, p, edits)
	return edits, read, true
}

// cookieCall masks the cookies a call on a cookie word is given, its
// arguments in parentheses from s[p]: one string of name=value pairs
// (SimpleCookie("sid=…")), or what cookieLiteral finds in them read as a
// cookie call's (a name and then a value, value="…", a literal of
// cookies). cookies.get("sid") names a cookie and gives none.
func cookieCall(s string, p int, edits []edit) ([]edit, int) {
	if cs, ce, q, ok := stringAt(s, skipSpace(s, p+1)); ok {
		for q < len(s) && isBlank(s[q]) {
			q++
		}
		if q < len(s) && s[q] == ')' {
			return cookiePairs(s, cs, ce, false, edits), q + 1
		}
	}
	return cookieLiteral(s, p, true, edits)
}

// cookieItem masks the value assigned to a cookie by name, cookies["sid"]
// = "…", with s[p] just after the '['. Reading the item (== "…") assigns
// nothing.
func cookieItem(s string, p int, edits []edit) ([]edit, int) {
	n := len(s)
	_, _, q, ok := stringAt(s, p)
	if !ok || q >= n || s[q] != ']' {
		return edits, q
	}
	for q++; q < n && isBlank(s[q]); q++ {
	}
	if q >= n || s[q] != '=' || q+1 < n && s[q+1] == '=' {
		return edits, q
	}
	for q++; q < n && isBlank(s[q]); q++ {
	}
	vs, ve, q, ok := stringAt(s, q)
	if ok && codeCookieValue(s[vs:ve]) {
		edits = append(edits, edit{vs, ve, "cookie"})
	}
	return edits, q
}

// codeCookieValue is cookieValue for a string literal in code, which is
// all of the value. A cookie's value has no blanks, quotes, commas,
// semicolons or backslashes (RFC 6265's cookie-octet), so a message ("We
// use 3 kinds of cookies") is none; and in code a value must also look
// secret rather than like a name or a path (CookiePreference,
// #/definitions/Cookie).
func codeCookieValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c <= ' ' || c == '"' || c == ',' || c == ';' || c == '\\' {
			return false
		}
	}
	return cookieValue(v) && looksSecret(v)
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

// skipSpace returns the position of the first byte at or after p that is
// no blank or line break.
func skipSpace(s string, p int) int {
	for p < len(s) && (isBlank(s[p]) || s[p] == '\n' || s[p] == '\r') {
		p++
	}
	return p
}

// cookieLiteral masks the cookies of the literal that opens at s[p] ('{',
// '[', or the '(' of a call's arguments, of a cookie call if call is set)
// and returns where its reading stopped: after the literal's closing
// bracket, or at the first byte that belongs to no literal of strings,
// words and numbers (an operator, a string not closed on its line), or at
// a level deeper than maxCookieDepth. Keys end in ':', '=>' or '='
// (key="…"); comments (# …, // …) are skipped.
//
// The literal is a dict of cookies by name ({"sessionid": "…"}), whose
// string values are cookies, or it holds cookie objects ([{"name":
// "sessionid", "value": "…", "path": "/"}], http.Cookie{Name: "sid",
// Value: "…"}) or calls (new Cookie("sid", "…"), value="…"), whose only
// cookie is their value: a "value" key's, or a cookie call's second
// argument. An object's other values wait in pending until its close
// tells which of the two it is, that is whether it has a "name". A dict's
// attributes (domain, path…) and "url" are settings, not cookies. A
// string that is a list's element rather than a key is read as a Cookie
// or Set-Cookie header's pairs (Header{"Cookie": {"sid=…; theme=dark"}}).
func cookieLiteral(s string, p int, call bool, edits []edit) ([]edit, int) {
	type pendingValue struct {
		e     edit
		depth int
	}
	var (
		pending []pendingValue // by depth, which never decreases along it
		depth   int
		// By level: whether it is an object with a name or a call, whose
		// only cookie is its value; and, in a cookie call, the index of
		// the argument being read (-1 elsewhere).
		named [maxCookieDepth + 1]bool
		arg   [maxCookieDepth + 1]int
		last  string // the last string or word read, a key if ':' follows
		key   string // the key whose value is due
		due   bool
		// elem is the last string read, s[elem:elemEnd], while it may be a
		// list's element: a header's cookies, Header{"Cookie": {"sid=…"}},
		// or a Set-Cookie's, ["sid=…; Path=/", …]. -1 when there is none.
		elem, elemEnd = -1, -1
	)
	// endElem reads the string elem as a header's name=value pairs, its
	// end having shown that it is no key.
	endElem := func() {
		if elem >= 0 {
			edits = cookiePairs(s, elem, elemEnd, true, edits)
			elem = -1
		}
	}
	// closeLevel ends the level at depth: an object's pending values are
	// its cookies unless it has a name.
	closeLevel := func() {
		k := len(pending)
		for k > 0 && pending[k-1].depth == depth {
			k--
		}
		if !named[depth] {
			for _, v := range pending[k:] {
				edits = append(edits, v.e)
			}
		}
		pending = pending[:k]
		depth--
	}
	stop := func() []edit {
		endElem()
		for depth > 0 {
			closeLevel()
		}
		return edits
	}
	n := len(s)
	for p < n {
		c := s[p]
		var next1 byte // the byte after c
		if p+1 < n {
			next1 = s[p+1]
		}
		switch {
		case isBlank(c) || c == '\n' || c == '\r':
			p++
			continue
		case c == ',':
			endElem()
			if arg[depth] >= 0 {
				arg[depth]++
			}
			due, last = false, ""
			p++
			continue
		case c == '{' || c == '[' || c == '(':
			if depth == maxCookieDepth {
				return stop(), p
			}
			elem = -1
			depth++
			named[depth], arg[depth] = c == '(', -1
			if c == '(' && call {
				arg[depth] = 0
			}
			due, last, call = false, "", false
			p++
			continue
		case c == '}' || c == ']' || c == ')':
			endElem()
			closeLevel()
			due, last, call = false, "", false
			p++
			if depth == 0 {
				return edits, p
			}
			continue
		case c == ':' && next1 != ':', c == '=' && next1 != '=':
			key, due, call, elem = last, true, false, -1
			p++
			if c == '=' && next1 == '>' { // Ruby, PHP: "sid" => "…"
				p++
			}
			continue
		case c == '#' || c == '/' && next1 == '/':
			if k := strings.IndexByte(s[p:], '\n'); k >= 0 {
				p += k
			} else {
				p = n
			}
			continue
		}
		cs, ce, next, ok := stringAt(s, p)
		switch {
		case ok:
		case next > p:
			return stop(), next // a string not closed on its line
		case !isLiteralWord(c):
			return stop(), p // an operator, a comparison
		default:
			for next = p; next < n && isLiteralWord(s[next]); next++ {
			}
			cs, ce = -1, -1
		}
		call, elem = false, -1
		switch {
		case !due && cs < 0:
			last = s[p:next]
			call = next < n && s[next] == '(' && cookieCallee(last)
		case !due:
			last, elem, elemEnd = s[cs:ce], cs, ce
			if arg[depth] == 1 && codeCookieValue(last) { // Cookie("sid", "…")
				edits = append(edits, edit{cs, ce, "cookie"})
			}
		case strings.EqualFold(key, "name"):
			named[depth] = true
		case cs < 0:
			// A value in code: a variable, a number, true.
		case strings.EqualFold(key, "value"):
			if codeCookieValue(s[cs:ce]) {
				edits = append(edits, edit{cs, ce, "cookie"})
			}
		case !cookieAttribute(key) && !strings.EqualFold(key, "url") && codeCookieValue(s[cs:ce]):
			pending = append(pending, pendingValue{edit{cs, ce, "cookie"}, depth})
		}
		if due {
			due, last = false, ""
		}
		p = next
	}
	return stop(), p
}

// cookieCallee reports whether a call of the word w sets a cookie: the
// word or its object is a cookie word (new Cookie, setCookie,
// add_cookie, System.Net.Cookie, s.cookies.set, Cookies.set).
func cookieCallee(w string) bool {
	for range 2 {
		i := strings.LastIndexByte(w, '.')
		seg := w[i+1:]
		seg = strings.TrimSuffix(strings.TrimSuffix(seg, "s"), "S")
		if len(seg) >= len("cookie") && hasFold(seg, len(seg)-len("cookie"), "cookie") {
			return true
		}
		if i < 0 {
			return false
		}
		w = w[:i]
	}
	return false
}

// isLiteralWord reports whether c can be part of a word in a literal:
// a key, a number, a variable (os.environ), &http.Cookie.
func isLiteralWord(c byte) bool {
	return isToken(c) || c == '.' || c == '&' || c == '*'
}

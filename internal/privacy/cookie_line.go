package privacy

import "strings"

// lineCookieEdits is the header reader the plugin had before cookieEdits read
// each form of a cookie on its own, kept beside it: it reads the value of a
// Cookie or Set-Cookie header (and of HTTP_COOKIE=…, "cookie": "…",
// document.cookie = "…", --cookie '…', Header.Set("Cookie", "…")), its
// quoted string or the rest of its line, at most maxCookieHeader bytes, and
// masks its name=value pairs whose value looks random. It knows fewer forms
// and masks more of a line than cookieEdits; run after it, it keeps every
// cookie the older reader masked masked, whatever the newer one makes of
// the text around it (a quoted "Cookie" word before a header dump, a call
// after "Cookie",): the two only add up (applyEdits merges overlaps), so a
// form the newer reader gets wrong leaks no more than it did before it
// (reviews 181, 185).
func lineCookieEdits(s string, hits []int, edits []edit) []edit {
	n := len(s)
	done := 0 // a hit inside a header already read is one of its words
	ls := 0   // the first byte but a blank of the latest hit's line, found once a line
	nl := -1  // the end of the line of the latest hit read, found once a line
	for k, i := range hits {
		if k == 0 || strings.IndexByte(s[hits[k-1]:i], '\n') >= 0 {
			ls = skipBlanks(s[:i], strings.LastIndexByte(s[:i], '\n')+1)
		}
		if i < done {
			continue
		}
		cell := false // a markdown table's cell, the header's value in the next
		off := i + len("cookie")
		if off < n && isToken(s[off]) {
			continue // cookies, cookie_name, cookieJar
		}
		st := i
		for st > 0 && isToken(s[st-1]) && i-st < maxKeyBefore {
			st--
		}
		set := off-st >= len("set-cookie") && hasFold(s, off-len("set-cookie"), "set-cookie")
		flag := strings.HasPrefix(s[st:i], "--") // curl --cookie 'a=b'
		open, p, keyQuoted := closeKeyQuote(s, st, off)
		p = skipBlanks(s, p)
		switch {
		case p >= n:
			continue
		case s[p] == ':' || s[p] == '=' || keyQuoted && s[p] == ',' || s[p] == '|' && tableCell(s, ls, st): // Header.Set("Cookie", "…"), | Cookie | … |
			cell = s[p] == '|'
			if p+1 < n && (s[p+1] == ':' || s[p+1] == '=') {
				continue // "cookie == x", "cookie := x"
			}
			p = skipBlanks(s, p+1)
		case curlAdded(s, ls, st) && p > off:
			// curl -v: "* Added cookie sid="…" for domain x.test".
		case !flag || p == off:
			continue // prose: "the cookie is set at login"
		}
		if p >= n || open != 0 && !keyQuoted && s[p] == open {
			continue
		}
		if nl < p { // found once a line: the search goes on from the last
			nl = n
			if k := strings.IndexAny(s[p:], "\r\n"); k >= 0 {
				nl = p + k
			}
		}
		end := min(nl, p+maxCookieHeader)
		if delim, cs, _ := quoteAt(s[:end], p); delim != "" {
			p, end = cs, quoteEnd(s[:end], cs, delim)
		} else if open != 0 && !keyQuoted {
			// -H "Cookie: a=b" https://…: the header ends at its quote.
			if k := strings.IndexByte(s[p:end], open); k >= 0 {
				end = p + k
			}
		}
		if cell {
			// The value is the next cell, and a cell of prose or an
			// example is no header: only a value shaped like a generated
			// token is masked there (cookieValue).
			if k := strings.IndexByte(s[p:end], '|'); k >= 0 {
				end = p + k
			}
		}
		done = end
		edits = linePairs(s, p, end, set, cell, edits)
	}
	return edits
}

// linePairs masks, of the name=value pairs in s[p:end] (split at ';', and
// at ',' in a Set-Cookie header, which may join several), each value that
// looks random ("sessionid=8f3k2j…", not "lang=en"), or with strict (a
// markdown table's cell) is shaped like a generated token (cookieValue). A
// Set-Cookie header's attributes (Path, Expires…) are left.
func linePairs(s string, p, end int, set, strict bool, edits []edit) []edit {
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
		if n := strings.TrimRight(pair[:eq], " \t"); len(n) >= len("cookie") && hasFold(n, len(n)-len("cookie"), "cookie") {
			// The pair is a header of its own ("… HTTP_COOKIE=sid= …",
			// "Cookie => sid=…"): its value is read as one.
			edits = linePairs(s, vs, e, set, strict, edits)
			continue
		}
		quoted := false
		switch {
		case vs < e && (s[vs] == '"' || s[vs] == '\''):
			vs, quoted = vs+1, true // sid="…": RFC 6265 lets a value be quoted
		case strings.HasPrefix(s[vs:e], `\"`):
			vs, quoted = vs+2, true // the same in a JSON string
		}
		if quoted {
			// cookie: string = 'sid=…': the quoted string is the pair.
			if k := strings.IndexByte(s[vs:e], '='); k > 0 && allTokens(strings.TrimRight(s[vs:vs+k], " \t")) {
				inner := strings.TrimLeft(s[vs+k+1:e], " \t")
				if q := strings.IndexAny(inner, " \t\"'\\"); q >= 0 {
					inner = inner[:q]
				}
				if looksRandom(inner) { // not a value's own '=' (base64's padding)
					vs = e - len(strings.TrimLeft(s[vs+k+1:e], " \t"))
				}
			}
		}
		v := s[vs:e]
		// A value holds no blank, quote or comma (RFC 6265's
		// cookie-octet): one ends it, as does an escaped quote (\").
		// Not where the value names a cookie again (a header on the same
		// line: "cookie = get(req); wget --header=\"Cookie: sid=…\""),
		// past another escape (JSON's \n: lines joined into one) or in
		// text escaped twice (\\): there the pair is masked to its end,
		// as the reader always did, which covers a cookie said after.
		if k := strings.IndexAny(v, " \t\"',\\"); k >= 0 && !strings.Contains(v, `\\`) && (strict || !namesCookie(v) && !randomWord(v[k:])) &&
			(v[k] != '\\' || k+1 < len(v) && (v[k+1] == '"' || v[k+1] == '\'')) {
			v = v[:k]
		}
		// ])}: a printed list or map closing; \: the escape of the quote
		// that closed the header (-H \"Cookie: sid=…\").
		v = strings.TrimRight(v, "])}\\")
		if v == "" || strings.HasPrefix(v, redactPrefix) || reference(v) ||
			isPlaceholder(v) || !looksRandom(strings.Trim(v, `"'`)) || strict && !cookieValue(v) {
			continue
		}
		edits = append(edits, edit{vs, vs + len(v), "cookie"})
	}
	return edits
}

// namesCookie reports whether s holds the word cookie, in any case.
func namesCookie(s string) bool {
	for i := 0; i+len("cookie") <= len(s); i++ {
		if (s[i]|0x20) == 'c' && hasFold(s, i, "cookie") && (i+len("cookie") == len(s) || !isToken(s[i+len("cookie")]) || (s[i+len("cookie")]|0x20) == 's') {
			return true
		}
	}
	return false
}

// randomWord reports whether s holds a word that looks random: a value cut
// short at a blank or a quote ("sid=v1 8f3k…") is masked whole when one
// follows, as the reader always masked it.
func randomWord(s string) bool {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r > 0x7f || !isToken(byte(r)) && !strings.ContainsRune("+%.-@", r) }) {
		if looksRandom(w) {
			return true
		}
	}
	return false
}

func allTokens(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isToken(s[i]) {
			return false
		}
	}
	return true
}

// tableCell reports whether the cookie word at s[st:] starts a cell of a
// markdown table row whose first byte but a blank is s[ls] ("| Set-Cookie | sid=… |"): a row
// names a header in one cell and gives its value in the next.
func tableCell(s string, ls, st int) bool {
	b := st
	for b > ls && isBlank(s[b-1]) {
		b--
	}
	return ls < st && s[ls] == '|' && b > ls && s[b-1] == '|'
}

// curlAdded reports whether the cookie word at s[st:] is in curl's verbose
// report of its cookie engine ("* Added cookie sid=\"…\" for domain …",
// "* Replaced cookie …"), which names the cookie and its value.
func curlAdded(s string, ls, st int) bool {
	line := s[ls:st]
	return line == "* Added " || line == "* Replaced "
}

// cookieFileEdits masks the values of a Netscape cookie file, as curl -c,
// wget --save-cookies and Python's MozillaCookieJar write it and cat (-n)
// or a JSON string shows it: a line of seven fields split by tabs (domain,
// TRUE/FALSE, path, TRUE/FALSE, expiry or nothing, name, value), whose
// value is the session's credential when it looks random.
func cookieFileEdits(s string, edits []edit) []edit {
	for _, tab := range []string{"\t", `\t`} {
		if !strings.Contains(s, tab+"TRUE"+tab) && !strings.Contains(s, tab+"FALSE"+tab) {
			continue
		}
		nl := "\n"
		if tab != "\t" {
			nl = `\n` // in a JSON string
		}
		for ls := 0; ls < len(s); {
			le := len(s)
			if k := strings.Index(s[ls:], nl); k >= 0 {
				le = ls + k
			}
			start := linePrefix(s[:le], ls)
			line := strings.TrimRight(s[start:le], "\r")
			if f := strings.Split(line, tab); len(f) == 7 && bools(f[1]) && bools(f[3]) && (f[4] == "" || allDigits(f[4])) {
				if v := f[6]; v != "" && !reference(v) && looksRandom(v) {
					vs := start + len(line) - len(v)
					edits = append(edits, edit{vs, vs + len(v), "cookie"})
				}
			}
			ls = le + len(nl)
		}
	}
	return edits
}

func bools(f string) bool { return f == "TRUE" || f == "FALSE" }

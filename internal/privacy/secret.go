package privacy

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"slices"
	"strings"
	"unicode/utf8"
)

// A secret is found in two steps. Format rules (formatEdits) recognise
// tokens by their shape in one pass over the text: a provider prefix at the
// start of a run of token bytes, private key blocks, JWTs, and passwords in
// URLs. Context rules (contextEdits) start from a keyword found in the
// text by findKeywords (password, token, bearer, ...) and look only around
// it, so text without keywords costs one pass. No regular
// expression runs over the whole text.

// maxRounds bounds how often masking repeats. A round masks what it finds;
// the next round normally finds nothing and ends the loop. Rounds repeat
// because a marker can change the context of its neighbours (the word in
// front of it ends where it used to go on), and Filter must be idempotent.
const maxRounds = 4

// edit replaces s[start:end] with the marker of kind.
type edit struct {
	start, end int
	kind       string
}

func maskSecrets(s string, w hits, r *Report) string {
	for range maxRounds {
		changed := false
		if edits := formatEdits(s, nil); len(edits) > 0 {
			s, edits = applyEdits(s, edits, r)
			w, changed = w.after(edits), true
		}
		if edits := contextEdits(s, w, nil); len(edits) > 0 {
			s, edits = applyEdits(s, edits, r)
			w, changed = w.after(edits), true
		}
		// gitleaks' matches may start inside a word, so the keywords are
		// found again rather than moved.
		if edits := leakEdits(s, nil); len(edits) > 0 {
			s, _ = applyEdits(s, edits, r)
			w, changed = findKeywords(s), true
		}
		if edits := cliEdits(s, nil); len(edits) > 0 {
			s, _ = applyEdits(s, edits, r)
			w, changed = findKeywords(s), true
		}
		if edits := encodedEdits(s, nil); len(edits) > 0 {
			s, _ = applyEdits(s, edits, r)
			w, changed = findKeywords(s), true
		}
		// Last, so that every rule naming a kind has had its value.
		if edits := nearKeyEdits(s, w, nil); len(edits) > 0 {
			s, _ = applyEdits(s, edits, r)
			w, changed = findKeywords(s), true
		}
		if !changed {
			break
		}
	}
	return s
}

// applyEdits writes the markers and returns the new text and the edits
// it made. Overlapping edits merge into one that keeps the kind of the
// edit that starts first.
func applyEdits(s string, edits []edit, r *Report) (string, []edit) {
	slices.SortStableFunc(edits, func(a, b edit) int { return cmp.Compare(a.start, b.start) })
	merged := edits[:1]
	for _, e := range edits[1:] {
		last := &merged[len(merged)-1]
		if e.start < last.end {
			last.end = max(last.end, e.end)
			continue
		}
		merged = append(merged, e)
	}
	if r.Secrets == nil {
		r.Secrets = make(map[string]int)
	}
	var b strings.Builder
	b.Grow(len(s))
	pos := 0
	for _, e := range merged {
		b.WriteString(s[pos:e.start])
		b.WriteString(redactPrefix)
		b.WriteString(e.kind)
		b.WriteByte(']')
		r.Secrets[e.kind]++
		pos = e.end
	}
	b.WriteString(s[pos:])
	return b.String(), merged
}

// after returns the keyword hits in the text that applyEdits made with
// edits, without scanning it again: hits inside an edit go, later ones
// move. Every edit starts after a byte that is no token byte, so no
// keyword straddles an edit's start, and the keywords inside a marker
// ("[REDACTED:password]") are never followed by a separator, so losing
// them changes nothing. Tag names are not needed after removeRegions.
func (w hits) after(edits []edit) hits {
	move := func(at []int) []int {
		out := at[:0]
		k, delta := 0, 0
		for _, p := range at {
			for ; k < len(edits) && edits[k].end <= p; k++ {
				e := edits[k]
				delta += len(redactPrefix) + len(e.kind) + 1 - (e.end - e.start)
			}
			if k < len(edits) && edits[k].start <= p {
				continue
			}
			out = append(out, p+delta)
		}
		return out
	}
	return hits{keys: move(w.keys), bearer: move(w.bearer), basic: move(w.basic), authz: move(w.authz), cookie: move(w.cookie)}
}

// formatEdits finds secrets by their format. It walks the maximal runs of
// token bytes; a prefix rule matches only a whole run, so a marker that
// replaces it leaves its neighbours' runs as they were.
func formatEdits(s string, edits []edit) []edit {
	n := len(s)
	for i := 0; i < n; {
		if !isToken(s[i]) {
			i++
			continue
		}
		j := i + 1
		for j < n && isToken(s[j]) {
			j++
		}
		run, next := s[i:j], j
		var after byte // the byte after the run
		if j < n {
			after = s[j]
		}
		switch {
		case after == ' ' && run[len(run)-1] == 'N' && strings.HasSuffix(run, "-----BEGIN"):
			if end, ok := privateKeyEnd(s, j); ok {
				edits = append(edits, edit{i, end, "private_key"})
				next = end
			}
		case after == '.' && run[0] == 'e' && strings.HasPrefix(run, "eyJ"):
			if end, ok := jwtEnd(s, i, j); ok {
				edits = append(edits, edit{i, end, "jwt"})
				next = end
			}
		case after == ' ' && run[len(run)-1] == 'D' && strings.HasSuffix(run, "-----END"):
			// An END line with no BEGIN before it: the block was cut
			// (a tail of a long output, a paste that lost its head).
			if start, end, ok := orphanKeyBlock(s, i, j); ok {
				edits = append(edits, edit{start, end, "private_key"})
				next = end
			}
		case after == '.' && dottedPrefix(run) != "":
			if end := dottedEnd(s, j); end-j >= 16 && hasDigit(s[j:end]) {
				edits = append(edits, edit{i, end, dottedPrefix(run)})
				next = end
			}
		case after == '=' && (run == "sig" || strings.EqualFold(run, "X-Amz-Signature")) && i > 0 && (s[i-1] == '&' || s[i-1] == '?'):
			// The signature of an Azure SAS or S3 presigned URL, which
			// grants its access.
			end := j + 1
			for end < len(s) && !isAuthorityStop(s[end]) && s[end] != '&' {
				end++
			}
			if end-j > 16 {
				edits = append(edits, edit{j + 1, end, "signature"})
				next = end
			}
		case after == ':' && run == "Private-Lines":
			// A PuTTY key file: the private key's lines follow.
			if e, ok := puttyPrivate(s, j+1); ok {
				edits = append(edits, e)
				next = e.end
			}
		case len(run) == 34 && run[0] == 'A' && run[1] == 'C' && isHex(run[2:]):
			// A Twilio account SID; the 32-hex auth token that goes with
			// it is usually the next argument on the line.
			if e, ok := nextHex32(s, j); ok {
				edits = append(edits, e)
			}
		case after == '/' && run == "webhooks" && i >= 5 && s[i-5:i] == "/api/" && strings.Contains(s[max(0, i-24):i], "discord"):
			// https://discord.com/api/webhooks/ID/TOKEN
			if k := strings.IndexByte(s[j+1:min(len(s), j+32)], '/'); k > 0 {
				start := j + 1 + k + 1
				end := start
				for end < len(s) && isToken(s[end]) {
					end++
				}
				if end-start >= 20 {
					edits = append(edits, edit{start, end, "discord_webhook"})
					next = end
				}
			}
		case after == '.' && run == "hooks" && strings.HasPrefix(s[j:], ".slack.com/"):
			if e, ok := slackWebhook(s, j+len(".slack.com/")); ok {
				edits = append(edits, e)
				next = e.end
			}
		case len(run) >= minTokenLen:
			if kind := tokenKind(run); kind != "" {
				edits = append(edits, edit{i, j, kind})
				if kind == "aws_access_key" {
					// The secret key that goes with it, later on the line:
					// a credentials CSV, "AKIA… wJalr…".
					if e, ok := awsSecretAfter(s, j); ok {
						edits = append(edits, e)
					}
				}
			}
		}
		if after == ':' && next == j && strings.HasPrefix(s[j:], "://") {
			if e, ok := urlPassword(s, j+3); ok {
				edits = append(edits, e)
			}
		}
		i = next
	}
	return edits
}

// dottedPrefix returns the kind of token that starts with run and a dot:
// HashiCorp Vault (hvs.…), Google OAuth access tokens (ya29.…), SendGrid
// keys (SG.….…).
func dottedPrefix(run string) string {
	switch run {
	case "hvs", "hvb", "hvr":
		return "vault_token"
	case "ya29":
		return "google_oauth_token"
	case "SG":
		return "sendgrid_key"
	}
	return ""
}

// dottedEnd returns the end of the run of token bytes and dots at s[j:].
func dottedEnd(s string, j int) int {
	for j < len(s) && (isToken(s[j]) || s[j] == '.' && j+1 < len(s) && isToken(s[j+1])) {
		j++
	}
	return j
}

// orphanKeyBlock finds the body of a private key block cut above its END
// line, which starts at s[i] ("-----END" is s[i:j]): the base64 lines
// (or "\n"-escaped ones) right above it, and the END line.
func orphanKeyBlock(s string, i, j int) (int, int, bool) {
	line := s[j+1 : min(len(s), j+1+80)]
	k := strings.Index(line, "-----")
	if k < 0 || strings.ContainsAny(line[:k], "\r\n") || !strings.Contains(line[:k], "PRIVATE KEY") {
		return 0, 0, false
	}
	end := j + 1 + k + 5
	start := i
	for start > 0 && (isBase64(s[start-1]) || strings.IndexByte("\r\n\\ \t", s[start-1]) >= 0) {
		start--
	}
	for start < i && !isBase64(s[start]) {
		start++
	}
	if i-start < 16 {
		return 0, 0, false
	}
	return start, end, true
}

func isBase64(c byte) bool { return isAlnum(c) || c == '+' || c == '/' || c == '=' }

// puttyPrivate masks the lines of a PuTTY key file's private key, which
// follow "Private-Lines: N", and its Private-MAC. i is after the colon.
func puttyPrivate(s string, i int) (edit, bool) {
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	n := 0
	for i < len(s) && isDigit(s[i]) && n < 1000 {
		n = n*10 + int(s[i]-'0')
		i++
	}
	nl := newlineAt(s, i)
	if n == 0 || nl == 0 {
		return edit{}, false
	}
	start, end := i+nl, i+nl
	for ; n > 0 && end < len(s); n-- {
		k := strings.IndexByte(s[end:], '\n')
		if k < 0 {
			end = len(s)
			break
		}
		end += k + 1
	}
	if rest := s[end:]; strings.HasPrefix(rest, "Private-MAC:") {
		k := strings.IndexByte(rest, '\n')
		if k < 0 {
			k = len(rest)
		}
		end += k
	}
	for end > start && (s[end-1] == '\n' || s[end-1] == '\r') {
		end--
	}
	return edit{start, end, "private_key"}, end > start
}

// awsSecretAfter finds a 40-byte AWS secret access key after s[j] on the
// same line: base64 bytes with upper and lower case and a digit.
func awsSecretAfter(s string, j int) (edit, bool) {
	end := strings.IndexByte(s[j:], '\n')
	if end < 0 {
		end = len(s)
	} else {
		end += j
	}
	for k := j; k < end; {
		if !isBase64(s[k]) {
			k++
			continue
		}
		e := k
		for e < end && isBase64(s[e]) {
			e++
		}
		if isAWSSecret(s[k:e]) {
			return edit{k, e, "aws_secret_key"}, true
		}
		k = e
	}
	return edit{}, false
}

// isAWSSecret reports whether v has the shape of an AWS secret access key:
// 40 base64 bytes with upper and lower case and a digit. It may start with
// '/' or hold several: no path looks like this.
func isAWSSecret(v string) bool {
	if len(v) != 40 || !hasDigit(v) || !strings.ContainsAny(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") || !strings.ContainsAny(v, "abcdefghijklmnopqrstuvwxyz") {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isBase64(v[i]) {
			return false
		}
	}
	return true
}

// nextHex32 finds a run of exactly 32 hex digits after s[j] on the same line.
func nextHex32(s string, j int) (edit, bool) {
	lineEnd := strings.IndexByte(s[j:], '\n')
	if lineEnd < 0 {
		lineEnd = len(s) - j
	}
	line := s[j : j+lineEnd]
	for k := 0; k < len(line); {
		if !isToken(line[k]) {
			k++
			continue
		}
		e := k
		for e < len(line) && isToken(line[e]) {
			e++
		}
		if e-k == 32 && isHex(line[k:e]) {
			return edit{j + k, j + e, "twilio_auth_token"}, true
		}
		k = e
	}
	return edit{}, false
}

func isHex(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i] | 0x20; !isDigit(v[i]) && (c < 'a' || c > 'f') {
			return false
		}
	}
	return v != ""
}

// minTokenLen is the length of the shortest token tokenKind knows
// (xoxb-0123456789), so most words skip it.
const minTokenLen = 15

// tokenKind returns the kind of secret a whole run of token bytes is, or
// "" if it is none. Prefixes are case-sensitive, as the providers issue
// them.
func tokenKind(run string) string {
	// rest returns what follows prefix, if run starts with it and at
	// least min bytes follow.
	rest := func(prefix string, min int) (string, bool) {
		v, ok := strings.CutPrefix(run, prefix)
		return v, ok && len(v) >= min
	}
	switch run[0] {
	case 'A':
		for _, p := range [...]string{"AKIA", "ASIA", "ABIA", "ACCA"} {
			if v, ok := rest(p, 16); ok && allUpperAlnum(v) {
				return "aws_access_key"
			}
		}
		if _, ok := rest("AIza", 35); ok {
			return "google_api_key"
		}
	case 's', 'r', 'p':
		for _, p := range [...]string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_", "pk_test_"} {
			if v, ok := rest(p, 10); ok && allAlnum(v) {
				return "stripe_key"
			}
		}
		if _, ok := rest("sk-ant-", 20); ok {
			return "anthropic_key"
		}
		// OpenAI: sk-..., sk-proj-..., sk-svcacct-... . Kebab-case words
		// ("sk-learn-...") have no digits.
		if v, ok := rest("sk-", 20); ok && hasDigit(v) && hasLetter(v) {
			return "openai_key"
		}
	case 'g':
		for _, p := range [...]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"} {
			if v, ok := rest(p, 30); ok && allAlnum(v) {
				return "github_token"
			}
		}
		if _, ok := rest("github_pat_", 30); ok {
			return "github_token"
		}
		if _, ok := rest("glpat-", 20); ok {
			return "gitlab_token"
		}
	case 'x':
		if v, ok := rest("xox", 12); ok && strings.IndexByte("abprs", v[0]) >= 0 && v[1] == '-' {
			return "slack_token"
		}
		if _, ok := rest("xapp-", 10); ok {
			return "slack_token"
		}
	case 'n':
		// npm_ + 36: the length and the lack of '_' keep npm_config_*
		// and npm_package_* variables out.
		if v, ok := rest("npm_", 36); ok && allAlnum(v) {
			return "npm_token"
		}
	case 'w':
		if v, ok := rest("whsec_", 20); ok && allAlnum(v) {
			return "stripe_key"
		}
	case 'h':
		if v, ok := rest("hf_", 30); ok && allAlnum(v) {
			return "huggingface_token"
		}
	}
	return ""
}

// privateKeyEnd returns the end of the private key block whose
// "-----BEGIN" ends at s[j] (a space), extended over the rest of the token
// run after "-----END ...-----". A block without its END line runs to the
// end of s.
func privateKeyEnd(s string, j int) (int, bool) {
	line := s[j+1 : min(len(s), j+1+80)]
	k := strings.Index(line, "-----")
	if k < 0 {
		return 0, false
	}
	label := line[:k]
	if strings.ContainsAny(label, "\r\n") || !strings.Contains(label, "PRIVATE KEY") {
		return 0, false
	}
	from := j + 1 + k + 5
	// A key goes on after its header: a line break, an escaped one ("\n"
	// in JSON) or a blank. A header that a quote closes is a string
	// constant in code, not a key.
	if from < len(s) && s[from] != '\n' && s[from] != '\r' && !isBlank(s[from]) && s[from] != '\\' {
		return 0, false
	}
	endLine := "-----END " + label + "-----"
	e := strings.Index(s[from:], endLine)
	if e < 0 {
		return len(s), true
	}
	end := from + e + len(endLine)
	for end < len(s) && isToken(s[end]) {
		end++
	}
	return end, true
}

// jwtEnd returns the end of the JWT header.payload.signature that starts
// at s[i] with the run s[i:j]. Header and payload are base64url JSON
// objects, so both start with "eyJ"; the signature may be empty.
func jwtEnd(s string, i, j int) (int, bool) {
	if j-i < 10 || j >= len(s) || s[j] != '.' {
		return 0, false
	}
	k := j + 1
	for k < len(s) && isToken(s[k]) {
		k++
	}
	if k-(j+1) < 10 || !strings.HasPrefix(s[j+1:], "eyJ") || k >= len(s) || s[k] != '.' {
		return 0, false
	}
	k++
	for k < len(s) && isToken(s[k]) {
		k++
	}
	return k, true
}

// slackWebhook masks the path of a Slack webhook URL, which is its secret:
// hooks.slack.com/services/T.../B.../XXXX.
func slackWebhook(s string, i int) (edit, bool) {
	for _, p := range [...]string{"services/", "workflows/", "triggers/"} {
		if !strings.HasPrefix(s[i:], p) {
			continue
		}
		start := i + len(p)
		end := start
		for end < len(s) && (isToken(s[end]) || s[end] == '/') {
			end++
		}
		if end-start >= 8 {
			return edit{start, end, "slack_webhook"}, true
		}
	}
	return edit{}, false
}

// urlPassword masks the password of scheme://user:password@host, keeping
// the user and the host. i is just after "://".
func urlPassword(s string, i int) (edit, bool) {
	end := i
	for end < len(s) && !isAuthorityStop(s[end]) {
		end++
	}
	auth := s[i:end]
	at := strings.LastIndexByte(auth, '@')
	if at < 0 {
		return edit{}, false
	}
	colon := strings.IndexByte(auth[:at], ':')
	if colon < 0 {
		return edit{}, false
	}
	pass := auth[colon+1 : at]
	// $DB_PASSWORD is a reference; $3cretPa55 is a password.
	if pass == "" || pass[0] == '$' && isReference(pass) || pass[0] == '{' || strings.HasPrefix(pass, redactPrefix) {
		return edit{}, false
	}
	return edit{i + colon + 1, i + at, "url_password"}, true
}

func isAuthorityStop(c byte) bool {
	return c <= ' ' || strings.IndexByte("/?#\"'`<>\\(){}", c) >= 0
}

// contextEdits finds secrets by the words around them.
func contextEdits(s string, w hits, edits []edit) []edit {
	edits = keyEdits(s, w.keys, edits)
	edits = schemeEdits(s, w.bearer, "bearer", edits)
	edits = schemeEdits(s, w.basic, "basic", edits)
	edits = authorizationEdits(s, w.authz, edits)
	edits = cookieEdits(s, w.cookie, edits)
	edits = lineCookieEdits(s, w.cookie, edits)
	edits = cookieFileEdits(s, edits)
	return edits
}

// Limits on identifier length around a keyword: a longer run is no key name.
const (
	maxKeyBefore = 128
	maxKeyLen    = 256
)

// keyEdits masks the values assigned to secret-ish names: password=...,
// "api_key": "...", export DB_PASSWORD=..., --token=..., token: ... .
func keyEdits(s string, hits []int, edits []edit) []edit {
	done := 0  // values before here are masked; keys inside them are not keys
	long := 0  // end of a run too long to be a name
	prev := -1 // start of the last identifier tried
	for _, i := range hits {
		if i < long || i < done {
			continue
		}
		st := i
		for st > 0 && isToken(s[st-1]) && i-st < maxKeyBefore {
			st--
		}
		if st > 0 && isToken(s[st-1]) {
			for long = i; long < len(s) && isToken(s[long]); long++ {
			}
			continue
		}
		if st == prev || st < done {
			continue
		}
		prev = st
		if e, ok := keyValue(s, st); ok {
			edits = append(edits, e)
			done = e.end
		}
	}
	return edits
}

// keyValue returns the edit masking the value assigned to the identifier
// that starts at s[st], if the identifier names a secret.
func keyValue(s string, st int) (edit, bool) {
	n := len(s)
	ie := st
	for ie < n && isToken(s[ie]) {
		ie++
		if ie-st > maxKeyLen {
			return edit{}, false
		}
	}
	id := s[st:ie]
	flag := strings.HasPrefix(id, "--")
	name := strings.TrimLeft(id, "-")
	open, p, keyQuoted := closeKeyQuote(s, st, ie)
	sp := p
	for p < n && isBlank(s[p]) {
		p++
	}
	spaceBefore := p > sp
	if p >= n {
		return edit{}, false
	}
	eq, spaceFlag := false, false
	switch {
	case s[p] == '=':
		switch {
		case p+1 < n && s[p+1] == '=':
			return edit{}, false
		case p+1 < n && s[p+1] == '>':
			p += 2
		default:
			p++
			eq = true
		}
	case s[p] == ':':
		switch {
		case p+1 < n && s[p+1] == ':':
			return edit{}, false
		case p+1 < n && s[p+1] == '=':
			p += 2
		default:
			p++
		}
	case flag && spaceBefore && !keyQuoted: // --password hunter2
		spaceFlag = true
	case spaceBefore && !flag && open == 0:
		// Prose: "the password is hunter2", "my API token was …".
		if e, ok := proseValue(s, st, ie, p); ok {
			return e, true
		}
		return netrcValue(s, st, ie, p)
	default:
		return edit{}, false
	}
	// The name is checked only now: most keyword hits (tokens, keyboard)
	// are not followed by a separator, and this check is the costly one.
	kind := nameKind(s, st, name)
	if kind == "" {
		return edit{}, false
	}
	sp = p
	for p < n && isBlank(s[p]) {
		p++
	}
	spaceAfter := p > sp
	// Env assignments and --flag= take any value; elsewhere only one that
	// does not look like code.
	anyValue := eq && !spaceBefore && !spaceAfter && (flag || isUpperName(name))
	if spaceFlag {
		anyValue = false
		if p < n && s[p] == '-' {
			return edit{}, false
		}
	}
	return value(s, p, open, keyQuoted, anyValue, kind)
}

// nameKind is the kind of secret the identifier name at s[st:] names,
// alone or with the word before it: "api key:", "secret key is".
func nameKind(s string, st int, name string) string {
	if kind := keyKind(name); kind != "" || !strings.EqualFold(name, "key") || st < 2 || s[st-1] != ' ' {
		return kind
	}
	ps := st - 1
	for ps > 0 && isAlnum(s[ps-1]) && st-ps < 32 {
		ps--
	}
	if ps == st-1 || ps > 0 && isToken(s[ps-1]) {
		return ""
	}
	return keyKind(s[ps:st-1] + "_" + name)
}

// proseValue masks the value in "<name> is <value>" and "<name> was
// <value>", where the name names a secret. p is after the blanks that
// follow the name. Only a value that looks generated or mixes in digits
// or symbols is masked: "the token is expired" stays.
func proseValue(s string, st, ie, p int) (edit, bool) {
	var verb int
	for _, v := range [...]string{"is ", "was ", "is: ", "is = ", "to ", "was changed to ", "is now "} {
		if hasFold(s, p, v) {
			verb = len(v)
			break
		}
	}
	if verb == 0 {
		return edit{}, false
	}
	kind := nameKind(s, st, s[st:ie])
	if kind == "" {
		return edit{}, false
	}
	p += verb
	for p < len(s) && isBlank(s[p]) {
		p++
	}
	if p < len(s) && isQuote(s[p]) {
		p++
	}
	e := p
	for e < len(s) && s[e] > ' ' && !isQuote(s[e]) {
		e++
	}
	for e > p && strings.IndexByte(".,;:!?)", s[e-1]) >= 0 {
		e--
	}
	v := s[p:e]
	if len(v) < 6 || strings.HasPrefix(v, redactPrefix) || isPlaceholder(v) {
		return edit{}, false
	}
	if isDottedName(strings.TrimLeft(v, "*&")) {
		return edit{}, false // "the private key is *ed25519.PrivateKey"
	}
	if !(hasDigit(v) && hasLetter(v)) && !isPassphrase(v) && !strings.ContainsAny(v, "&!#%*$") && !(kind == "password" && isPlainPassword(v) && !isInflected(v)) {
		return edit{}, false
	}
	return edit{p, e, kind}, true
}

// netrcValue masks the password of a .netrc line: "machine HOST login
// USER password VALUE". p is after the blanks that follow the name.
func netrcValue(s string, st, ie, p int) (edit, bool) {
	if kind := keyKind(s[st:ie]); kind != "password" {
		return edit{}, false
	}
	ls := strings.LastIndexByte(s[:st], '\n') + 1
	line := strings.TrimSpace(s[ls:st])
	if !strings.HasPrefix(line, "machine ") && !strings.HasPrefix(line, "default ") || !strings.Contains(line, " login ") {
		return edit{}, false
	}
	e := p
	for e < len(s) && s[e] > ' ' {
		e++
	}
	if e == p || strings.HasPrefix(s[p:], redactPrefix) || strings.IndexByte("=!<>&|", s[p]) >= 0 {
		return edit{}, false
	}
	return edit{p, e, "password"}, true
}

// isPlainPassword reports whether a password-named key's value made of
// letters only is a password (letmein, Whiskey, sunshine) rather than a
// type, a keyword or a word that describes one (string, None, required,
// incorrect). Names that name a secret (password, userPass) are
// variables.
func isPlainPassword(v string) bool {
	if len(v) < 5 || len(v) > 64 || identNamesSecret(v) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isLetter(v[i]) || i > 0 && isLower(v[i-1]) && isUpper(v[i]) {
			return false // a camel-case name is a variable: { password: userInput }
		}
	}
	return !notPasswords[strings.ToLower(v)]
}

// notPasswords are words that follow "password:" or "password is" in code,
// config and prose without being a password.
var notPasswords = map[string]bool{
	"string": true, "bytes": true, "none": true, "null": true, "undefined": true, "false": true, "required": true,
	"optional": true, "empty": true, "hidden": true, "redacted": true, "masked": true, "secret": true, "unset": true,
	"missing": true, "invalid": true, "expired": true, "incorrect": true, "wrong": true, "correct": true, "valid": true,
	"protected": true, "encrypted": true, "hashed": true, "plain": true, "plaintext": true, "sensitive": true,
	"strong": true, "weak": true, "length": true, "field": true, "value": true, "input": true, "prompt": true,
	"unknown": true, "default": true, "random": true, "generated": true, "stored": true, "saved": true, "changed": true,
	"reset": true, "updated": true, "needed": true, "accepted": true, "rejected": true, "ignored": true, "used": true,
	"blank": true, "defined": true, "given": true, "provided": true, "specified": true, "configured": true, "enabled": true,
	"disabled": true, "visible": true, "shown": true, "printed": true, "logged": true, "sent": true, "checked": true,
	"verified": true, "different": true, "same": true, "too": true, "short": true, "long": true, "never": true,
	"always": true, "still": true, "already": true, "being": true, "where": true, "which": true, "there": true,
	"their": true, "these": true, "those": true, "about": true, "after": true, "before": true, "below": true,
	"above": true, "without": true, "within": true, "should": true, "would": true, "could": true, "must": true,
	"string?": true, "boolean": true, "number": true, "integer": true, "object": true, "varchar": true, "text": true,
	"array": true, "option": true, "secure": true, "insecure": true, "public": true, "private": true, "local": true,
	"remote": true, "static": true, "final": true, "const": true, "readonly": true, "nullable": true, "unique": true,
	"index": true, "column": true, "attribute": true, "property": true, "parameter": true, "argument": true,
	"uintptr": true, "float": true, "double": true, "interface": true, "struct": true, "unsigned": true, "signed": true,
	"typing": true, "types": true, "schema": true, "model": true, "models": true, "fields": true, "forms": true,
}

// isInflected reports whether a word ends like a participle or an adverb
// ("the password was derived", "is detected", "is rapidly"): prose, not a
// password.
func isInflected(v string) bool {
	l := strings.ToLower(v)
	for _, suf := range [...]string{"ed", "ing", "ly", "able", "ible", "ous", "ive"} {
		if strings.HasSuffix(l, suf) {
			return true
		}
	}
	return false
}

// isLineEnd reports whether s[e:] starts the end of a value: a line
// break, a comma, a semicolon or blanks then one of these or the end.
func isLineEnd(s string, e int) bool {
	for e < len(s) && isBlank(s[e]) {
		e++
	}
	return e == len(s) || s[e] == '\n' || s[e] == '\r' || s[e] == ',' || s[e] == ';' || s[e] == '}' || s[e] == '#'
}

// isPassphrase reports whether v is lower-case words joined by dashes,
// four or more (correct-horse-battery-staple): a passphrase, where a
// header or a type name capitalises its words.
func isPassphrase(v string) bool {
	if strings.Count(v, "-") < 3 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isLower(v[i]) && v[i] != '-' {
			return false
		}
	}
	return !strings.Contains(v, "--")
}

// closeKeyQuote steps over the quote that closes a quoted key ("password"
// or \"password\" in escaped JSON). It returns the quote that precedes the
// key (0 if none), where the text after the key continues, and whether the
// key was quoted on both sides. A ']' after the quote is stepped over too.
func closeKeyQuote(s string, st, ie int) (open byte, p int, quoted bool) {
	p = ie
	if st == 0 || !isQuote(s[st-1]) {
		return 0, p, false
	}
	open = s[st-1]
	switch {
	case p < len(s) && s[p] == open:
		p++
	case open == '"' && p+1 < len(s) && s[p] == '\\' && s[p+1] == '"':
		p += 2
	default:
		return open, p, false
	}
	if p < len(s) && s[p] == ']' { // $cfg['password'] = ..., env["TOKEN"] = ...
		p++
	}
	return open, p, true
}

// value returns the edit masking the value at s[p:]. open is the quote in
// front of an unclosed key: a key that starts a string literal, as in
// fmt.Println("token:", tok), where the quote after the separator closes
// that literal and is no value.
func value(s string, p int, open byte, keyQuoted, anyValue bool, kind string) (edit, bool) {
	n := len(s)
	if p >= n || strings.HasPrefix(s[p:], redactPrefix) {
		return edit{}, false
	}
	if open != 0 && !keyQuoted && s[p] == open {
		return edit{}, false
	}
	if delim, cs, fstr := quoteAt(s, p); delim != "" {
		if cs >= n || s[cs] == '$' && isReference(s[cs:quoteEnd(s, cs, delim)]) || fstr && s[cs] == '{' || strings.HasPrefix(s[cs:], "{{") || strings.HasPrefix(s[cs:], redactPrefix) {
			return edit{}, false
		}
		if strings.IndexByte(" \t,;)+]}", s[cs]) >= 0 {
			return edit{}, false // the quote closes a literal: "token: " + tok
		}
		end := quoteEnd(s, cs, delim)
		if end == cs || isPlaceholder(s[cs:end]) {
			return edit{}, false
		}
		// A quoted key (JSON, dicts) or an env assignment holds data; in
		// code, only a literal that looks secret is one.
		if v := s[cs:end]; !keyQuoted && !anyValue && !literalLooksSecret(v) && !(kind == "password" && isPlainPassword(v)) &&
			!(kind == "aws_secret_key" && isAWSSecret(v)) {
			return edit{}, false
		}
		return edit{cs, end, kind}, true
	}
	e := p
	for e < n && !isValueStop(s[e]) {
		if !anyValue && (s[e] == '(' || s[e] == '[' || s[e] == '{') {
			return edit{}, false // a call, an index, a composite literal: code
		}
		e++
	}
	if e == p {
		return edit{}, false
	}
	v := s[p:e]
	switch {
	case v[0] == '$' && !isReference(v), v[0] == '/' && !isPath(v), kind == "aws_secret_key" && isAWSSecret(v):
		// A password that starts with '$' or '/': $3cr3t!, /Tr0ub4dor&3.
	case anyValue:
		if strings.IndexByte("$%{/~", v[0]) >= 0 || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || isPlaceholder(v) {
			return edit{}, false // a reference, a template or a path
		}
	case !looksSecret(v) && !(kind == "password" && isPlainPassword(v) && e < n && isLineEnd(s, e) || kind == "password" && isPlainPassword(v) && e == n):
		return edit{}, false
	}
	return edit{p, e, kind}, true
}

// isReference reports whether v, which starts with '$', refers to a
// variable rather than being a password that starts with '$': ${X},
// $(cmd), $NAME, $name, $dbPassword, $this->x are references; $3cr3t! and
// $uperS3cret are not.
func isReference(v string) bool {
	if len(v) < 2 || strings.IndexByte("{(", v[1]) >= 0 {
		return true
	}
	name := v[1:]
	e := 0
	for e < len(name) && (isAlnum(name[e]) || name[e] == '_') {
		e++
	}
	switch {
	case e == 0 || isDigit(name[0]):
		return e == 0 && !hasLetter(name) // "$" then symbols: a shell special
	case e < len(name):
		rest := name[e:]
		return strings.HasPrefix(rest, "->") || strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "[") || strings.HasPrefix(rest, ":")
	}
	upper, lower := false, false
	for i := 0; i < len(name); i++ {
		upper = upper || isUpper(name[i])
		lower = lower || isLower(name[i])
	}
	// $NAME and $name are variables; a mixed-case name is one if it
	// names a secret ($dbPassword) or reads as camel case without digits.
	return !(upper && lower) || namesSecret(name) || !hasDigit(name)
}

// isPath reports whether v, which starts with '/', is a path rather than a
// password that starts with '/': it has more than one segment, or its one
// segment has no digit.
func isPath(v string) bool {
	return strings.Count(v, "/") > 1 || !hasDigit(v) || len(v) < 8
}

// quoteAt returns the delimiter of the string literal at s[p:] ("", if
// none), where its content starts, and whether it is a Python f-string.
// It knows "...", '...', `...`, escaped JSON \"...\" and Python prefixes
// (b"...", r'...', f"...").
func quoteAt(s string, p int) (delim string, content int, fstr bool) {
	i := p
	for i < len(s) && i-p < 2 && strings.IndexByte("bBrRuUfF", s[i]) >= 0 {
		fstr = fstr || s[i] == 'f' || s[i] == 'F'
		i++
	}
	if i >= len(s) {
		return "", 0, false
	}
	switch c := s[i]; {
	case c == '"':
		delim = `"`
	case c == '\'':
		delim = `'`
	case c == '`' && i == p:
		delim = "`"
	case c == '\\' && i == p && i+1 < len(s) && s[i+1] == '"':
		return `\"`, i + 2, false
	default:
		return "", 0, false
	}
	return delim, i + 1, fstr
}

// quoteEnd returns the end of the string content that starts at s[cs]:
// the closing delimiter, or the end of the line for an unclosed literal.
func quoteEnd(s string, cs int, delim string) int {
	for i := cs; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n' || c == '\r':
			return i
		case delim == `\"`:
			if c == '\\' && i+1 < len(s) && s[i+1] == '"' {
				return i
			}
		case c == delim[0]:
			return i
		case c == '\\' && delim != "`" && i+1 < len(s) && s[i+1] != '\n' && s[i+1] != '\r':
			i++
		}
	}
	return len(s)
}

func isQuote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

// isValueStop reports whether c ends an unquoted value.
func isValueStop(c byte) bool {
	return c <= ' ' || strings.IndexByte("\"'`,;&|)}]<>\\", c) >= 0
}

// keyKind returns the kind of secret an identifier names ("password",
// "token", ...), or "" if it names none. It looks at the last words:
// DB_PASSWORD, clientSecret, x-api-key, aws_secret_access_key, authToken.
// password_hash, tokens, tokenizer and getTokenCount name no secret.
func keyKind(name string) string {
	ws := words(name)
	if len(ws) == 0 {
		return ""
	}
	last := strings.ToLower(ws[len(ws)-1])
	prev := ""
	if len(ws) > 1 {
		prev = strings.ToLower(ws[len(ws)-2])
	}
	switch last {
	case "pwd":
		if name == "PWD" { // the working directory
			return ""
		}
		return "password"
	case "password", "passwd", "passphrase", "pw":
		return "password"
	case "pass": // DB_PASS, smtpPass; a bare "PASS:" is test output
		if prev != "" {
			return "password"
		}
		return ""
	case "secret":
		return "secret"
	case "token":
		return "token"
	case "apikey":
		return "api_key"
	case "accesskey":
		return "access_key"
	case "secretkey":
		return "secret_key"
	case "privatekey":
		return "private_key"
	case "key":
		switch prev {
		case "api":
			return "api_key"
		case "access":
			lowerName := strings.ToLower(name)
			switch {
			case strings.HasPrefix(lowerName, "aws") && strings.Contains(lowerName, "secret"):
				return "aws_secret_key"
			case strings.Contains(lowerName, "secret"):
				return "secret_key"
			}
			return "access_key"
		case "private":
			return "private_key"
		case "account": // Azure AccountKey=
			return "secret_key"
		case "secret", "auth", "signing", "encryption", "master", "session", "client":
			return "secret_key"
		}
		return ""
	case "sig": // an Azure SAS signature: …&sig=…
		if len(ws) == 1 {
			return "signature"
		}
		return ""
	case "mac": // PuTTY's Private-MAC
		if prev == "private" {
			return "private_key"
		}
		return ""
	case "base": // Rails SECRET_KEY_BASE
		if prev == "key" && strings.Contains(strings.ToLower(name), "secret") {
			return "secret_key"
		}
		return ""
	}
	// Words run together: dbpassword, authtoken, clientsecret, xapikey.
	for _, w := range [...]struct{ suffix, kind string }{
		{"password", "password"}, {"passwd", "password"}, {"secret", "secret"},
		{"token", "token"}, {"apikey", "api_key"},
	} {
		if strings.HasSuffix(last, w.suffix) {
			return w.kind
		}
	}
	return ""
}

// words splits an identifier at '_', '-' and camel-case humps:
// "DB_PASSWORD" → DB PASSWORD, "APIKey" → API Key, "oauth2Token" → oauth2
// Token.
func words(id string) []string {
	var ws []string
	start := 0
	for i := 0; i <= len(id); i++ {
		if i == len(id) || id[i] == '_' || id[i] == '-' {
			if i > start {
				ws = append(ws, id[start:i])
			}
			start = i + 1
			continue
		}
		if i > start && isUpper(id[i]) && (isLower(id[i-1]) || isDigit(id[i-1]) ||
			isUpper(id[i-1]) && i+1 < len(id) && isLower(id[i+1])) {
			ws = append(ws, id[start:i])
			start = i
		}
	}
	return ws
}

// isUpperName reports whether name is written like an environment
// variable: letters, all upper case.
func isUpperName(name string) bool {
	letter := false
	for i := 0; i < len(name); i++ {
		if isLower(name[i]) {
			return false
		}
		letter = letter || isUpper(name[i])
	}
	return letter
}

// looksSecret reports whether an unquoted value in code or config looks
// like a literal secret rather than code: not a reference, a type, a
// member access, a plain word or a small number. "hunter2", "s3cr3t!",
// "wJalrXUtnFEMI/K7MDENG" look secret; "string", "tok", "i64",
// "config.token", "4096" and "String?" do not.
func looksSecret(v string) bool {
	v = strings.TrimRight(v, ".,:;!?") // the end of a sentence
	if len(v) < 4 || strings.IndexByte("$%{&*@/~.!#-+=:?<[(", v[0]) >= 0 || isPlaceholder(v) {
		return false
	}
	if strings.ContainsAny(v, "([{") || strings.Contains(v, "::") || strings.Contains(v, "->") || strings.Contains(v, "=>") || strings.HasSuffix(v, "?") {
		return false
	}
	digit, other, allDigits := false, false, true
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case isDigit(c):
			digit = true
		case isLetter(c) || c == '_':
			allDigits = false
		default:
			other, allDigits = true, false
		}
	}
	switch {
	case !digit && !other: // a word or an identifier
		return false
	case allDigits && len(v) < 8: // a count, a port, a limit
		return false
	case isNumericType(v) || isDottedName(v) || isNumber(v):
		return false
	case isIdent(v) && identNamesSecret(v): // a variable: testRSA2048PrivateKey, password16
		return false
	}
	return true
}

// literalLooksSecret reports whether a string literal assigned in code
// looks like a secret. In code, a literal with blanks is a message, and
// one that names a key is a name: Token: "X-Connection-Token",
// path = "/etc/master.passwd".
func literalLooksSecret(v string) bool {
	switch {
	case isPassphrase(v):
		return true
	case len(v) < 4 || strings.ContainsAny(v, " \t\\") || isWordy(v) || isPlaceholder(v):
		return false // a message, a regular expression, a word, "****"
	case strings.IndexByte("/~.#^[(", v[0]) >= 0:
		return false // a path, a colour, a pattern
	case strings.Contains(v, ".") && strings.Trim(v, "0123456789.") == "":
		return false // a version, an OID, an address
	case isDottedName(v) && namesSecret(v):
		return false
	}
	return true
}

// isPlaceholder reports whether v only stands in for a secret: "****",
// "xxxx", "...".
func isPlaceholder(v string) bool {
	return strings.Trim(v, "*xX.•…") == ""
}

// isIdent reports whether v is an identifier: a letter or '_', then
// letters, digits and '_'.
func isIdent(v string) bool {
	if v == "" || isDigit(v[0]) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isAlnum(v[i]) && v[i] != '_' {
			return false
		}
	}
	return true
}

// isWordy reports whether v has only letters, '_' and '-', like a name
// (encodeUserPassword, X-Connection-Token).
func isWordy(v string) bool {
	for i := 0; i < len(v); i++ {
		if !isLetter(v[i]) && v[i] != '_' && v[i] != '-' {
			return false
		}
	}
	return v != ""
}

// namesSecret reports whether v contains a word that names a secret, as
// variable names and header names do.
func namesSecret(v string) bool {
	for i := 0; i < len(v); i++ {
		for _, kw := range [...]string{"pass", "pwd", "secret", "token", "key", "auth"} {
			if hasFold(v, i, kw) {
				return true
			}
		}
	}
	return false
}

// identNamesSecret reports whether one of the words of the identifier v
// starts with a word that names a secret: testRSA2048PrivateKey and
// password16 do, Whiskey2024 does not ("key" is inside a word).
func identNamesSecret(v string) bool {
	for _, w := range words(v) {
		for _, kw := range [...]string{"pass", "pwd", "secret", "token", "key", "auth"} {
			if hasFold(w, 0, kw) {
				return true
			}
		}
	}
	return false
}

// isNumber reports whether v is a hex, octal or binary number literal
// (0x216, 0o755, 0b1010).
func isNumber(v string) bool {
	if len(v) < 3 || v[0] != '0' || strings.IndexByte("xXoObB", v[1]) < 0 {
		return false
	}
	for i := 2; i < len(v); i++ {
		c := v[i] | 0x20
		if !isDigit(v[i]) && (c < 'a' || c > 'f') && v[i] != '_' {
			return false
		}
	}
	return true
}

// isNumericType reports whether v is a sized number type: i64, u8, f32,
// int32, uint64, float64, usize, complex128.
func isNumericType(v string) bool {
	i := 0
	for i < len(v) && isLetter(v[i]) {
		i++
	}
	switch strings.ToLower(v[:i]) {
	case "i", "u", "f", "int", "uint", "float", "complex":
	default:
		return false
	}
	switch v[i:] {
	case "8", "16", "32", "64", "128":
		return true
	}
	return false
}

// isDottedName reports whether v is a member access like process.env.TOKEN.
func isDottedName(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || isDigit(p[0]) {
			return false
		}
		for i := 0; i < len(p); i++ {
			if !isAlnum(p[i]) && p[i] != '_' && p[i] != '$' {
				return false
			}
		}
	}
	return true
}

// schemeEdits masks the credentials after "Bearer " and "Basic " wherever
// they appear (curl -H, code, logs). A bearer token must look random and a
// Basic credential must decode to "user:password", so "bearer of bad news"
// and "Basic usage" stay.
func schemeEdits(s string, hits []int, scheme string, edits []edit) []edit {
	n := len(s)
	done := 0
	for _, i := range hits {
		if i < done {
			continue
		}
		p := i + len(scheme)
		if i > 0 && (isAlnum(s[i-1]) || s[i-1] == '_') || p >= n || !isBlank(s[p]) {
			continue
		}
		for p < n && isBlank(s[p]) {
			p++
		}
		e := p
		if scheme == "bearer" {
			for e < n && (isToken(s[e]) || strings.IndexByte("._~+/=", s[e]) >= 0) {
				e++
			}
			if !looksRandom(s[p:e]) {
				continue
			}
			edits = append(edits, edit{p, e, "bearer_token"})
		} else {
			for e < n && (isAlnum(s[e]) || s[e] == '+' || s[e] == '/' || s[e] == '=') {
				e++
			}
			if !isBasicCredential(s[p:e]) {
				continue
			}
			edits = append(edits, edit{p, e, "basic_auth"})
		}
		done = e
	}
	return edits
}

// looksRandom reports whether a token looks generated rather than a word
// or a placeholder: at least 8 bytes with letters and digits, or long and
// mixed-case.
func looksRandom(v string) bool {
	if len(v) < 8 || !hasLetter(v) {
		return false
	}
	if hasDigit(v) {
		return true
	}
	upper, lower := false, false
	for i := 0; i < len(v); i++ {
		upper = upper || isUpper(v[i])
		lower = lower || isLower(v[i])
	}
	return upper && lower && len(v) >= 16
}

// isBasicCredential reports whether v is base64 of printable "user:password".
func isBasicCredential(v string) bool {
	v = strings.TrimRight(v, "=")
	if len(v) < 8 || len(v)%4 == 1 {
		return false
	}
	b, err := base64.RawStdEncoding.DecodeString(v)
	if err != nil || !utf8.Valid(b) || bytes.IndexByte(b, ':') < 0 {
		return false
	}
	for _, c := range b {
		if c < ' ' || c == 0x7f {
			return false
		}
	}
	return true
}

// authorizationEdits masks the credentials of Authorization headers
// (and Proxy-Authorization, HTTP_AUTHORIZATION, "authorization": ...)
// whatever their scheme, and a bare value that looks secret.
func authorizationEdits(s string, hits []int, edits []edit) []edit {
	n := len(s)
	done := 0
	for _, i := range hits {
		if i < done {
			continue
		}
		off := i + len("authorization")
		if off < n && isToken(s[off]) {
			continue // authorizationCode, authorization_url
		}
		st := i
		for st > 0 && isToken(s[st-1]) && i-st < maxKeyBefore {
			st--
		}
		open, p, keyQuoted := closeKeyQuote(s, st, off)
		for p < n && isBlank(s[p]) {
			p++
		}
		if p >= n || s[p] != ':' && s[p] != '=' || p+1 < n && (s[p+1] == ':' || s[p+1] == '=') {
			continue
		}
		p++
		for p < n && isBlank(s[p]) {
			p++
		}
		if p >= n || open != 0 && !keyQuoted && s[p] == open {
			continue
		}
		if delim, cs, _ := quoteAt(s, p); delim != "" {
			p = cs
		}
		e := credEnd(s, p)
		w := s[p:e]
		if w == "" || strings.HasPrefix(w, redactPrefix) {
			continue
		}
		if isAuthScheme(w) && e < n && isBlank(s[e]) {
			p2 := e
			for p2 < n && isBlank(s[p2]) {
				p2++
			}
			e2 := credEnd(s, p2)
			if cred := s[p2:e2]; cred != "" {
				if strings.IndexByte("$%{<", cred[0]) >= 0 || strings.HasPrefix(cred, redactPrefix) || isPlaceholder(cred) {
					continue
				}
				// Parameters (OAuth realm="x", Digest username="x") are
				// left alone; a token ends at most in '=' padding.
				if i := strings.IndexByte(cred, '='); i > 0 {
					param := strings.Trim(cred[i:], "=") != "" // realm=x
					quoted := cred[i:] == "=" && isWordy(cred[:i]) && e2 < n && isQuote(s[e2])
					if param || quoted {
						continue
					}
				}
				kind := "authorization"
				switch strings.ToLower(w) {
				case "bearer":
					kind = "bearer_token"
				case "basic":
					kind = "basic_auth"
				}
				edits = append(edits, edit{p2, e2, kind})
				done = e2
				continue
			}
		}
		if looksRandom(w) && looksSecret(w) {
			edits = append(edits, edit{p, e, "authorization"})
			done = e
		}
	}
	return edits
}

// isAuthScheme reports whether w names an HTTP authentication scheme.
func isAuthScheme(w string) bool {
	switch strings.ToLower(w) {
	case "bearer", "basic", "token", "digest", "negotiate", "ntlm", "oauth", "mac", "hawk", "apikey", "key", "jwt", "dpop":
		return true
	}
	return false
}

// credEnd returns the end of the credential that starts at s[p].
func credEnd(s string, p int) int {
	for p < len(s) && !(s[p] <= ' ' || isQuote(s[p]) || s[p] == '\\' || s[p] == ',' || s[p] == ';') {
		p++
	}
	return p
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			return true
		}
	}
	return false
}

func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if isLetter(s[i]) {
			return true
		}
	}
	return false
}

func allAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) {
			return false
		}
	}
	return s != ""
}

func allUpperAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isUpper(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

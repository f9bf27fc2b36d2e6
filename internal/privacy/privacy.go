// Package privacy removes private sections, secrets and the plugin's own injected context from text before it is stored.
package privacy

import (
	"strings"
	"unicode/utf8"
)

// fenceName is the tag name of the plugin's own injected context.
const fenceName = "claude-memory-layer-context"

// FenceOpen and FenceClose are the fence markers of the plugin's own injected
// context. The recall renderer wraps everything it injects between these
// lines; Filter removes such blocks so memories are never stored again.
const (
	FenceOpen  = "<" + fenceName + ">"
	FenceClose = "</" + fenceName + ">"
)

// PrivateMarker is what a private section becomes. It has the same shape as a
// masked secret ("[REDACTED:<kind>]") and is not itself a private tag, so
// filtering is idempotent.
const PrivateMarker = redactPrefix + "private]"

// redactPrefix starts every marker Filter writes. Rules never match a value
// that starts with it, so filtered text filters to itself.
const redactPrefix = "[REDACTED:"

// Report is what Filter did, counted by kind, for logging without content.
type Report struct {
	// Private is the number of private sections replaced by PrivateMarker.
	Private int
	// Open reports that a private section was still open at the end of
	// the text: the user's next message goes on with it until it closes.
	Open bool
	// Injected is the number of fenced or <system-reminder> blocks
	// removed, and of lines that repeat injected memories outside them.
	Injected int
	// Secrets counts masked secrets by kind, the word in "[REDACTED:<kind>]":
	// aws_access_key, aws_secret_key, anthropic_key, openai_key,
	// google_api_key, github_token, gitlab_token, slack_token, slack_webhook,
	// stripe_key, npm_token, huggingface_token, private_key, jwt,
	// bearer_token, basic_auth, authorization, cookie, url_password, password,
	// secret, token, api_key, access_key, secret_key, vault_token,
	// google_oauth_token, sendgrid_key, twilio_auth_token, signature,
	// discord_webhook, encoded_secret, or the id of the gitleaks rule that
	// found it (pypi-upload-token, …). It is nil when no secret was found.
	Secrets map[string]int
}

// Filter returns s with private sections replaced by PrivateMarker, secrets
// masked as "[REDACTED:<kind>]", and the plugin's fenced blocks and
// <system-reminder> blocks removed. Text with nothing to filter is returned
// unchanged, byte for byte. Filter never fails; invalid UTF-8 is replaced by
// U+FFFD first. Filter(Filter(s)) == Filter(s).
//
// Private sections are <private>…</private>, [private]…[/private] and
// <!-- private -->…<!-- /private -->, matched without regard to case. An
// opening tag without its closing tag hides everything up to the end of the
// text, and a closing private tag without an opening tag hides everything
// before it (the section was opened in an earlier message); other stray
// closing tags are dropped. Tags may carry attributes and line breaks:
// <private reason="x">, <private
// >. A removed
// block takes its own lines with it and leaves at most one blank line;
// whitespace elsewhere is kept.
//
// A secret is masked where its format is certain (provider prefixes such
// as sk-ant-, ghp_, AKIA, hvs.; private key blocks, also cut ones; JWTs;
// passwords in URLs; gitleaks' ~220 rules; base64, hex or percent
// encodings of these), where a key name says so (password=, "api_key":
// "...", export DB_PASSWORD=..., Authorization: Bearer ..., "the password
// is ..."), or where a command line does (mysql -p..., sshpass -p ...).
// A session cookie's value is masked where a header, a command or code
// gives it by name (Cookie: sid=..., curl -b 'sid=...', cookies={"sid":
// "..."}, Cookies.set("sid", "..."), a HAR's cookie objects); in code only
// a value shaped like a generated token is, so cart_1234 and v1.2.3 stay.
// After a key name in code, only a value that does not look like code is
// masked, so token.length, password_hash and getToken() stay.
//
// Lines that repeat the plugin's injected memories ("[mem:ID] TYPE, DATE:
// ...") are removed like the fenced block they came from.
func Filter(s string) string {
	out, _ := FilterReport(s)
	return out
}

// FilterReport is Filter that also reports what it removed. It never fails.
func FilterReport(s string) (string, Report) {
	var r Report
	s = normalize(s)
	w := findKeywords(s)
	if out, changed := removeRegions(s, w.tags, &r); changed {
		s, w = out, findKeywords(out)
	}
	if out, changed := removeReplays(s, &r); changed {
		s, w = out, findKeywords(out)
	}
	s = maskSecrets(s, w, &r)
	return s, r
}

// normalize is the text the filter reads: valid UTF-8, invalid bytes
// replaced by U+FFFD, and without the invisible characters that could hide
// a tag or a secret's shape (dropInvisible).
func normalize(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return dropInvisible(s)
}

// Sections reads the private sections of s as Filter does, walking its
// tags without masking anything, for a caller that filters only the head of
// a long text, s[:from]: whether s leaves a private section open at its end
// (Report.Open), and whether a private section's closing tag outside any
// region comes at from or later, which hides all before it (the head's
// filter saw no tag to hide it by).
func Sections(s string, from int) (leavesOpen, closesPast bool) {
	s = normalize(s)
	var st regions
	for _, t := range findTags(s, findKeywords(s).tags) {
		if st.step(t) == strayClose && t.kind == tagPrivate && t.start >= from {
			closesPast = true
		}
	}
	return st.open && st.first == tagPrivate, closesPast
}

// hits holds where findKeywords found the keywords that rules start from.
// Every rule looks only around these, so text without them costs one
// pass.
type hits struct {
	tags   [numTagKinds][]int // tag names: private, system-reminder, fence
	keys   []int              // pass, pwd, secret, token, key
	bearer []int
	basic  []int
	authz  []int // authorization
	cookie []int
}

// keywordFirst has bit c-'a' set for the first letter c of each keyword.
const keywordFirst = 1<<('a'-'a') | 1<<('b'-'a') | 1<<('c'-'a') | 1<<('k'-'a') |
	1<<('p'-'a') | 1<<('s'-'a') | 1<<('t'-'a')

// findKeywords finds the keywords in s in one pass, ignoring ASCII case.
// Positions in each slice increase. A keyword's first two letters are
// checked inline; most letters fail there.
func findKeywords(s string) hits {
	var w hits
	for i := 0; i+1 < len(s); i++ {
		x := (s[i] | 0x20) - 'a' // < 26 exactly for ASCII letters
		if x >= 26 || keywordFirst>>x&1 == 0 {
			continue
		}
		next := s[i+1] | 0x20 // equals a lower-case letter only for that letter
		switch x + 'a' {
		case 'a':
			if next == 'u' && hasFold(s, i, "authorization") {
				w.authz = append(w.authz, i)
			}
		case 'b':
			switch {
			case next == 'e' && hasFold(s, i, "bearer"):
				w.bearer = append(w.bearer, i)
			case next == 'a' && hasFold(s, i, "basic"):
				w.basic = append(w.basic, i)
			}
		case 'c':
			switch {
			case next == 'l' && hasTagName(s, i, fenceName):
				w.tags[tagFence] = append(w.tags[tagFence], i)
			case next == 'o' && hasFold(s, i, "cookie"):
				w.cookie = append(w.cookie, i)
			}
		case 'k':
			if next == 'e' && hasFold(s, i, "key") {
				w.keys = append(w.keys, i)
			}
		case 'p':
			switch {
			case next == 'a' && hasFold(s, i, "pass"), next == 'w' && (hasFold(s, i, "pwd") || i+2 < len(s) && !isLetter(s[i+2])):
				w.keys = append(w.keys, i)
			case next == 'r' && hasFold(s, i, "private"):
				w.tags[tagPrivate] = append(w.tags[tagPrivate], i)
			}
		case 's':
			switch {
			case next == 'e' && hasFold(s, i, "secret"):
				w.keys = append(w.keys, i)
			case next == 'y' && hasTagName(s, i, "system-reminder"):
				w.tags[tagReminder] = append(w.tags[tagReminder], i)
			}
		case 't':
			if next == 'o' && hasFold(s, i, "token") {
				w.keys = append(w.keys, i)
			}
		}
	}
	return w
}

// hasFold reports whether s[i:] starts with the lower-case ASCII word kw,
// ignoring ASCII case.
func hasFold(s string, i int, kw string) bool {
	if len(s)-i < len(kw) {
		return false
	}
	for j := 0; j < len(kw); j++ {
		c := s[i+j]
		if c != kw[j] && (c < 'A' || c > 'Z' || c+'a'-'A' != kw[j]) {
			return false
		}
	}
	return true
}

// hasTagName is hasFold for a tag name whose words may also be joined by
// '_' or a blank: <system_reminder> reads as <system-reminder> does.
func hasTagName(s string, i int, name string) bool {
	if len(s)-i < len(name) {
		return false
	}
	for j := 0; j < len(name); j++ {
		c := s[i+j]
		if name[j] == '-' {
			if c != '-' && c != '_' && c != ' ' {
				return false
			}
			continue
		}
		if c != name[j] && (c < 'A' || c > 'Z' || c+'a'-'A' != name[j]) {
			return false
		}
	}
	return true
}

// isToken reports whether c can be part of a token or identifier: ASCII
// letters, digits, '_' and '-'.
func isToken(c byte) bool {
	return (c|0x20)-'a' < 26 || c-'0' < 10 || c == '_' || c == '-'
}

// isBlank reports whether c is a space or a tab.
func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isLetter(c byte) bool {
	return isUpper(c) || isLower(c)
}
func isAlnum(c byte) bool { return isLetter(c) || isDigit(c) }

package privacy

import (
	"strings"
	"testing"
)

// fragments returns pieces that meet in odd ways more often in
// FuzzFilterFragments than in byte-level mutation: tags, key names,
// separators, quotes, token prefixes and line breaks.
func fragments() []string {
	return []string{
		"<private>", "</private>", "[private]", "[/private]", "<!-- private -->", "<!-- /private -->",
		"<system-reminder>", "</system-reminder>", FenceOpen, FenceClose, "<priv", "ate>", "<", ">", "[", "]",
		"password", "PASSWORD", "token", "_TOKEN", "DB_", "api_key", "x-api-key", "secret", "pwd", "--", "pass",
		"=", ":", " = ", ": ", "=>", ":=", "==", "\"", "'", "`", "\\\"", "b\"", "(", ")", "{", "}", ",", ";", "&", "?",
		"Authorization: ", "Bearer ", "Basic ", "token ", "dXNlcjpwYXNz", "abc123XYZ789", "EXAMPLE0123",
		"sk-ant-api03-", "sk-", "ghp_", "AKIA", "AIza", "xoxb-", "npm_", "eyJ", "eyJhbGciOiJIUzI1NiJ9", ".",
		"0123456789abcdefABCDEF0123456789", "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----",
		"https://", "user:", "@host", "/path", "hooks.slack.com/services/", "T000/B000/XXXXXXXX",
		"\n", "\n\n", "\r\n", " ", "\t", "$", "%s", "[REDACTED:", "x", "한", "🎉", "_", "-",
		"cookie", "Cookie: ", "cookies", "Set-Cookie: ", "sid=", "; ", "8f3k2j4h5g6f7d8s9a0q", "name", "value",
		".set(", "::new(", "#", "//", "curl ", " -b ", "--cookie ", "\\\n", "^\"", "$'",
		`\n`, " -kLb ", "--cookie=", "dict(", ".update(", ".get(", "new Cookie(", ": dict[str, str] = ", ":= ",
	}
}

// FuzzFilterFragments checks the properties of FuzzFilter on text glued
// from fragments, one per input byte.
func FuzzFilterFragments(f *testing.F) {
	f.Add([]byte{0, 16, 17, 18, 19, 1})
	f.Add([]byte{6, 14, 15, 8, 9, 7})
	f.Add([]byte{17, 29, 46, 44, 53, 29, 78})
	f.Add([]byte{34, 88, 34, 30, 14, 41, 34, 93, 34, 30, 34, 86, 34, 43, 34, 94, 34, 30, 34, 92, 34, 42, 15}) // "cookies": [{"name": …
	f.Add([]byte{99, 100, 35, 90, 92, 91, 90, 92, 35, 76, 102, 100, 90, 92})                                  // curl -b 'sid=…' \
	f.Add([]byte{88, 95, 34, 90, 34, 43, 34, 92, 34, 40, 99, 100, 103, 90, 92, 91, 103})                      // cookies.set("sid=", "…")
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFilter(t, glue(data))
	})
}

// TestFilterFragments runs the checks over seeded fragment mixes, so
// plain go test covers what FuzzFilterFragments finds.
func TestFilterFragments(t *testing.T) {
	state := uint32(1)
	next := func() byte { // xorshift: deterministic, no global rand
		state ^= state << 13
		state ^= state >> 17
		state ^= state << 5
		return byte(state)
	}
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for range n {
		data := make([]byte, 1+next()%24)
		for i := range data {
			data[i] = next()
		}
		checkFilter(t, glue(data))
	}
}

func glue(data []byte) string {
	frags := fragments()
	var b strings.Builder
	for _, c := range data {
		b.WriteString(frags[int(c)%len(frags)])
	}
	return b.String()
}

package privacy

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"strings"
)

// encodedEdits also decodes percent-encoding (ghp%5F…) and hex runs.

// minEncoded is the shortest base64 run encodedEdits decodes: a
// "user:password" pair of a few bytes each, or a token, encodes longer.
const minEncoded = 20

// encodedEdits masks base64 runs that decode to a secret: a
// "user:password" pair (a Basic credential outside its header, a Docker
// config "auth" value) or a token the format rules know (base64 of
// ghp_…). Binary data, hashes and words decode to bytes that are not
// printable text, and stay.
func encodedEdits(s string, edits []edit) []edit {
	for i := 0; i < len(s); {
		if !isBase64URL(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isBase64URL(s[j]) {
			j++
		}
		// A percent-encoded run goes on over %XX and the bytes URLs keep.
		pct := false
		for j+2 < len(s) && (s[j] == '%' && isHex(s[j+1:j+3]) || s[j] == '.' || s[j] == '~') {
			if s[j] == '%' {
				j, pct = j+3, true
			} else {
				j++
			}
			for j < len(s) && isBase64URL(s[j]) {
				j++
			}
		}
		if j-i >= minEncoded && (i == 0 || !isBase64URL(s[i-1])) && !strings.Contains(s[i:j], redactPrefix[1:]) {
			v := s[i:j]
			if pct && percentHidesSecret(v) || !pct && (decodesToSecret(v) || hexHidesSecret(v)) {
				edits = append(edits, edit{i, j, "encoded_secret"})
			}
		}
		i = j
	}
	return edits
}

func isBase64URL(c byte) bool { return isBase64(c) || c == '-' || c == '_' }

// decodesToSecret reports whether v is base64 (standard or URL alphabet)
// of printable text that is or holds a secret.
func decodesToSecret(v string) bool {
	raw := strings.TrimRight(v, "=")
	if len(raw)%4 == 1 {
		return false
	}
	enc := base64.RawStdEncoding
	if strings.ContainsAny(raw, "-_") {
		enc = base64.RawURLEncoding
	}
	b, err := enc.DecodeString(raw)
	if err != nil || len(b) < 8 {
		return false
	}
	for _, c := range b {
		if c < ' ' && c != '\n' && c != '\r' && c != '\t' || c >= 0x7f {
			return false
		}
	}
	d := string(b)
	if isUserPass(d) {
		return true
	}
	return len(formatEdits(d, nil)) > 0 || len(leakEdits(d, nil)) > 0
}

// percentHidesSecret reports whether v, percent-decoded, holds a token
// the format rules know.
func percentHidesSecret(v string) bool {
	d, err := url.PathUnescape(v)
	if err != nil || d == v {
		return false
	}
	return len(formatEdits(d, nil)) > 0 || len(leakEdits(d, nil)) > 0
}

// hexHidesSecret reports whether v is hex of printable text that holds a
// token the format rules know.
func hexHidesSecret(v string) bool {
	if len(v) < 2*minTokenLen || len(v)%2 != 0 || !isHex(v) {
		return false
	}
	b, err := hex.DecodeString(v)
	if err != nil {
		return false
	}
	for _, c := range b {
		if c < ' ' || c >= 0x7f {
			return false
		}
	}
	return len(formatEdits(string(b), nil)) > 0 || len(leakEdits(string(b), nil)) > 0
}

// isUserPass reports whether d is "user:password" as Basic credentials
// and Docker's "auth" encode it.
func isUserPass(d string) bool {
	c := strings.IndexByte(d, ':')
	if c <= 0 || c == len(d)-1 || c > 128 || strings.ContainsAny(d, " \t\r\n") {
		return false
	}
	for i := 0; i < c; i++ {
		if !isToken(d[i]) && strings.IndexByte(".@+", d[i]) < 0 {
			return false // {"alg":"HS256"}, a URL
		}
	}
	pass := d[c+1:]
	return len(pass) >= 4 && !strings.Contains(pass, "//")
}

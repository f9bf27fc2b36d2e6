package privacy

import (
	"slices"
	"strings"
)

// A secret's value is often named in prose rather than assigned: "Your
// OPS_WEBHOOK_SECRET (`d994d6…`) is valid", "`4fa2c1…` differs from the
// OPS_WEBHOOK_SECRET variable". No key=value shape holds it, so the rules
// that start from a key name after which a value follows miss it. A string
// shaped like a generated secret (nearKeyValue) on the same line as a
// secret's key word, within nearKeyReach bytes either side, is masked.

// nearKeyReach is how far from a key word a secret-shaped string is taken
// for its value: a sentence's length.
const nearKeyReach = 120

// minNearKey is the shortest string masked by nearness alone: random
// values of 128 bits or more (32 hex digits, 22+ base64 characters, but
// words of code are long too, so base64 needs the hex length as well).
const minNearKey = 32

// maxNearRun is the longest run of secret bytes looked at: a longer one is
// no single value (an encoded blob, a repeated word) and is skipped whole.
const maxNearRun = 512

// nearKeyEdits reads each byte at most once, however many key words stand
// close together ("tokenkeytokenkey…"): windows are walked in order and
// what one covered the next does not read again.
func nearKeyEdits(s string, w hits, edits []edit) []edit {
	keys := append(append([]int(nil), w.keys...), w.bearer...)
	slices.Sort(keys)
	done := 0 // bytes before this are read
	for _, k := range keys {
		if overlapsMarker(s, k, k+1) {
			continue // "[REDACTED:url_password]" names a kind, not a key
		}
		from := k
		for from > 0 && from > k-nearKeyReach && from > done && s[from-1] != '\n' {
			from--
		}
		to := k
		for to < len(s) && to < k+nearKeyReach && s[to] != '\n' {
			to++
		}
		i := max(from, done)
		for i < to {
			if !isSecretByte(s[i]) {
				i++
				continue
			}
			j := i
			for j < len(s) && isSecretByte(s[j]) && j-i <= maxNearRun {
				j++
			}
			if j-i > maxNearRun {
				for j < len(s) && isSecretByte(s[j]) {
					j++
				}
			} else if (i == 0 || !isSecretByte(s[i-1])) && nearKeyValue(s[i:j]) && !commitID(s, i, j) && !overlapsMarker(s, i, j) {
				edits = append(edits, edit{i, j, "token"})
			}
			i = j
		}
		done = max(done, i)
	}
	return edits
}

func isSecretByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_' || c == '+' || c == '/'
}

// nearKeyValue reports a string shaped like a generated secret: hex of 32
// digits or more with both digits and letters, or a base64-like run as
// long that mixes upper case, lower case and digits with the entropy of
// random text. A path, a word of code or a UUID-free name has neither.
func nearKeyValue(v string) bool {
	if len(v) < minNearKey || strings.Contains(v, "/") && strings.Count(v, "/") > 2 {
		return false
	}
	var digit, hexLetter, lower, upper, other bool
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'f':
			hexLetter, lower = true, true
		case c >= 'A' && c <= 'F':
			hexLetter, upper = true, true
		case c >= 'a' && c <= 'z':
			lower, other = true, true
		case c >= 'A' && c <= 'Z':
			upper, other = true, true
		}
	}
	if digit && hexLetter && !other && !(lower && upper) && !strings.ContainsAny(v, "-_+/") {
		return true // hex, in one case
	}
	return digit && lower && upper && shannonEntropy(v) >= 4.2
}

// commitID reports a 40-digit hex s[i:j] where git names a commit: first on
// its line (a log line) or after "commit", "sha", "rev" or "revision".
// Anywhere else 40 hex digits may be a token (GitHub's old ones, Datadog's
// application keys).
func commitID(s string, i, j int) bool {
	if j-i != 40 {
		return false
	}
	before := strings.TrimRight(s[lineStart(s, i):i], " \t:`(#")
	if i == 0 || before == "" {
		return true
	}
	low := strings.ToLower(before)
	for _, w := range []string{"commit", "sha", "sha1", "rev", "revision"} {
		if strings.HasSuffix(low, w) {
			return true
		}
	}
	return false
}

package privacy

import (
	"strings"
	"testing"
)

// TestSecretNamedInProse: a token's value named beside its variable in a
// sentence, not assigned to it, is masked; long words of code, paths, a
// commit id without a key word and short hex are not.
func TestSecretNamedInProse(t *testing.T) {
	hex64 := "d994d684bf058099797a8fead9c8e864ee99a08edbc2ba51c16a669b4ea518d0"
	b64 := "Qm9vbGVhblRva2VuX3Y5Lz8xNzRhYkNEZWZHaGlKa0xtTm9QcVJz"
	for _, in := range []string{
		"Your `OPS_WEBHOOK_SECRET` (`" + hex64 + "`) is valid and accepted",
		"`" + hex64 + "` differs from the `OPS_WEBHOOK_SECRET` environment variable.",
		"the api key we use in staging is " + b64 + " for now",
		"Bearer token " + strings.ToUpper(hex64),
		"Your DD_APP_KEY (`" + hex64[:40] + "`) is correct",
		"the token we use is " + hex64[:40] + " for staging",
	} {
		out := Filter(in)
		if strings.Contains(out, hex64[:20]) || strings.Contains(out, hex64[:40]) || strings.Contains(out, strings.ToUpper(hex64)[:20]) || strings.Contains(out, b64[:20]) {
			t.Errorf("Filter(%q) = %q: the value is still there", in, out)
		}
	}
	for _, in := range []string{
		"the token refresh lives in refreshAccessTokenBeforeExpiryMiddleware.ts",
		"token files are under src/auth/tokens/providers/googleOauthProvider.ts",
		"fixed the token refresh in commit " + hex64[:40] + " yesterday",
		hex64[:40] + " Merge pull request #412 from org/feature/token-bucket",
		"the key is 9f1c2e3d",
	} {
		if out := Filter(in); out != in {
			t.Errorf("Filter(%q) = %q, want it unchanged", in, out)
		}
	}
}

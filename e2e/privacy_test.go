package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealClientRedTeamSecrets replays the red team's findings through the
// real client: secrets in prose, a private section opened in one prompt and
// closed in the next, a private tag with attributes, and files read by the
// Read tool whose secret would sit in the kept tail of a cut output, a
// session cookie pasted from the browser. None may reach any file of the
// data directory.
func TestRealClientRedTeamSecrets(t *testing.T) {
	w := newWorld(t)
	env := filepath.Join(w.work, "app.env")
	os.WriteFile(env, []byte("# local settings\nuser = \"deploy\"\npassword = \"correct-horse-battery-staple\"\n"), 0o644)
	long := filepath.Join(w.work, "build.log")
	os.WriteFile(long, []byte(strings.Repeat("compiling module ... ok\n", 80)+
		"-----BEGIN RSA PRIVATE KEY-----\n"+strings.Repeat("MIIEowIBAAKCAQEAredteamKEYBODY0123456789abcdefghijklmnopqrstuvwxy\n", 12)+
		"-----END RSA PRIVATE KEY-----\n"), 0o644)
	secrets := []string{"hunter2-Staging-9f8a7b", "tr0ub4dor&3", "second-part-Secret-77", "reason-attr-Secret-88",
		"correct-horse-battery-staple", "redteamKEYBODY0123456789", "hvs.CAESIredteam0123456789abcdef", "q8Zr4kTm2Wx9redteamSid"}
	s := w.session("redteam", nil,
		"Note for later: the password is hunter2-Staging-9f8a7b. My sudo password is tr0ub4dor&3",
		"<private>first part stays hidden",
		"second-part-Secret-77 </private> and the vault token is hvs.CAESIredteam0123456789abcdef",
		`Remember <private reason="creds">reason-attr-Secret-88</private> please. READFILE `+env,
		"And the log READFILE "+long,
		"devtools shows the request headers:\nCookie: theme=dark; sessionid=q8Zr4kTm2Wx9redteamSid",
	)
	if hooks := fired(t, s); !hooks["UserPromptSubmit-6"] || !hooks["SessionEnd-1"] {
		t.Fatalf("hooks did not all fire: %v", hooks)
	}
	files, _ := filepath.Glob(filepath.Join(w.dataDir, "*"))
	if len(files) == 0 {
		t.Fatal("no data files")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, sec := range secrets {
			if bytes.Contains(b, []byte(sec)) {
				t.Errorf("%q is in %s", sec, filepath.Base(f))
			}
		}
	}
}

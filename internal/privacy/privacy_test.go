package privacy

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

type filterTest struct {
	name, in, want string
}

// tagTests cover private sections, injected context and the blank lines
// they leave.
func tagTests() []filterTest {
	return []filterTest{
		{"angle", "a <private>b</private> c", "a [REDACTED:private] c"},
		{"angle upper case", "a <PRIVATE>b</Private> c", "a [REDACTED:private] c"},
		{"angle blanks", "a < private >b< / private > c", "a [REDACTED:private] c"},
		{"square", "a [private]b[/private] c", "a [REDACTED:private] c"},
		{"square upper case", "a [PRIVATE]b[/PRIVATE] c", "a [REDACTED:private] c"},
		{"comment", "a <!-- private -->b<!-- /private --> c", "a [REDACTED:private] c"},
		{"comment tight", "a <!--private-->b<!--/private--> c", "a [REDACTED:private] c"},
		{"comment blanks", "a <!--   Private\t-->b<!--  / private   --> c", "a [REDACTED:private] c"},
		{"multi-line", "before\n<private>\nline 1\nline 2\n</private>\nafter", "before\n[REDACTED:private]\nafter"},
		{"two sections", "<private>a</private> and <private>b</private>", "[REDACTED:private] and [REDACTED:private]"},
		{"unclosed", "keep <private>secret\nmore secret", "keep [REDACTED:private]"},
		{"unclosed square", "keep [private] secret", "keep [REDACTED:private]"},
		{"unclosed comment", "keep <!-- private --> secret", "keep [REDACTED:private]"},
		{"nested", "a <private>b <private>c</private> d</private> e", "a [REDACTED:private] e"},
		{"nested unclosed", "a <private>b <private>c</private> d", "a [REDACTED:private]"},
		{"mixed forms nested", "a [private]b <private>c[/private] d</private> e", "a [REDACTED:private] e"},
		{"overlapping with reminder", "a <private>b <system-reminder>c</private> d</system-reminder> e", "a [REDACTED:private] e"},
		// A closing tag with no opening tag ends a section opened in an
		// earlier message: what comes before it is private.
		{"stray close", "a </private> b", "[REDACTED:private] b"},
		{"stray close square", "a [/private] b", "[REDACTED:private] b"},
		{"stray close line", "a\n</private>\nb", "[REDACTED:private]\nb"},
		{"stray close after section", "<private>a</private> b </private> c", "[REDACTED:private][REDACTED:private] c"},
		{"attributes", "a <private reason=\"x\">b</private> c", "a [REDACTED:private] c"},
		{"line break in tag", "a <private\n>b</private\n> c", "a [REDACTED:private] c"},
		{"attributes and line break", "a <private\n  reason='x'\n>b</private> c", "a [REDACTED:private] c"},
		{"not attributes", "<private.x> <private =x>", "<private.x> <private =x>"},
		{"stray fence close", "a " + FenceClose + " b", "a b"},
		{"not a tag", "<privateKey> [privacy] <private/> <!-- privately -->", "<privateKey> [privacy] <private/> <!-- privately -->"},
		{"reminder", "Hello\n<system-reminder>\nThe file changed.\n</system-reminder>\nWorld", "Hello\nWorld"},
		{"reminder underscore", "Hello\n<system_reminder>x</system_reminder>\nWorld", "Hello\nWorld"},
		{"reminder blank", "Hello\n<System Reminder>x</system reminder>\nWorld", "Hello\nWorld"},
		{"fence underscores", "Prompt\n<claude_memory_layer_context>\nx\n</claude_memory_layer_context>\nNext", "Prompt\nNext"},
		{"reminder inline", "Hello <system-reminder>x</system-reminder> World", "Hello World"},
		{"reminder upper case", "Hello\n<System-Reminder>x</SYSTEM-REMINDER>\nWorld", "Hello\nWorld"},
		{"reminder unclosed", "Hello\n<system-reminder>\nforever", "Hello\n"},
		{"reminder at start", "<system-reminder>x</system-reminder>\n\nHello", "Hello"},
		{"reminder at end", "Hello\n\n<system-reminder>x</system-reminder>\n", "Hello\n"},
		{"reminder blank lines", "Hello\n\n<system-reminder>x</system-reminder>\n\n\nWorld", "Hello\n\nWorld"},
		{"reminder crlf", "Hello\r\n<system-reminder>x</system-reminder>\r\nWorld", "Hello\r\nWorld"},
		{"reminder keeps private inside", "a\n<system-reminder><private>b</private></system-reminder>\nc", "a\nc"},
		{"fence", "Prompt\n" + FenceOpen + "\nProject memory:\n- fact\n" + FenceClose + "\nNext", "Prompt\nNext"},
		{"fence unclosed", "Prompt\n" + FenceOpen + "\nProject memory:", "Prompt\n"},
		{"fence only", FenceOpen + "\nx\n" + FenceClose, ""},
		{"fence twice", FenceOpen + "a" + FenceClose + "\nmid\n" + FenceOpen + "b" + FenceClose, "mid\n"},
		{"fence inside private", "<private>a " + FenceOpen + "b" + FenceClose + " c</private> d", "[REDACTED:private] d"},
		{"unclosed fence inside private", "<private>a " + FenceOpen + " b</private> c", "[REDACTED:private]"},
		{"private marker is not a tag", PrivateMarker + " stays", PrivateMarker + " stays"},
		{"removal forms a tag", "<priv<system-reminder>x</system-reminder>ate>text", "<priv\nate>text"},
		{"stray close forms a tag", "x [priv</private>ate]text", "[REDACTED:private]ate]text"},
		{"removal forms a tag with a line break", "<private <system-reminder>x</system-reminder>>text", "<private .\n>text"},
		// A model's unfenced repeat of injected memories is injected context.
		{"memory replay", "Here is what I know:\n[mem:3f2a1c] decision, 2026-03-01: Use PostgreSQL 16 — for orders\n  quoted: \"We'll use PostgreSQL 16.\"\nSo I will use it.", "Here is what I know:\nSo I will use it."},
		{"memory replay bullets", "- [mem:3f2a1c] decision, 2026-03-01: Use PostgreSQL 16\n* **[mem:9b8c7d]** fact, undated: The API is v2\nok", "ok"},
		{"warning replay", "- HIGH superseded: [mem:3f2a1c] (2026-03-01) \"a\" was replaced by [mem:9b8c7d] (2026-03-02) \"b\".\nok", "ok"},
		{"memory cited in a sentence", "As [mem:3f2a1c] says, we use PostgreSQL 16.\nMemories used: [mem:3f2a1c]", "As [mem:3f2a1c] says, we use PostgreSQL 16.\nMemories used: [mem:3f2a1c]"},
		{"quoted without a memory", "  quoted: \"x\"", "  quoted: \"x\""},
		{"invisible inside a word", "ghp\u200b_ab\u00adc d\u200be", "ghp_abc de"},
		{"invisible elsewhere", "👨\u200d👩 a \u200bb", "👨\u200d👩 a \u200bb"},
		{"korean", "<private>비밀</private> 한국어 🎉", "[REDACTED:private] 한국어 🎉"},
	}
}

// secretTests cover each kind of secret with realistic fake values, and
// the ways a session cookie is given (cookieTests).
func secretTests() []filterTest {
	return append([]filterTest{
		{"aws key id", "export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE", "export AWS_ACCESS_KEY_ID=[REDACTED:aws_access_key]"},
		{"aws session key id", `"AccessKeyId": "ASIAEXAMPLE012345678"`, `"AccessKeyId": "[REDACTED:aws_access_key]"`},
		{"aws secret", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = [REDACTED:aws_secret_key]"},
		{"anthropic", "key sk-ant-api03-EXAMPLE0123456789abcdef-EXAMPLEAA here", "key [REDACTED:anthropic_key] here"},
		{"openai project", "OPENAI_API_KEY=sk-proj-EXAMPLE0123456789abcdefghijklmnop_-xyz", "OPENAI_API_KEY=[REDACTED:openai_key]"},
		{"openai legacy", "'sk-EXAMPLE0123456789abcdefEXAMPLE0123456789abcdef'", "'[REDACTED:openai_key]'"},
		{"google", `apiKey: "AIzaSyEXAMPLE0123456789abcdefghijklmnop",`, `apiKey: "[REDACTED:google_api_key]",`},
		{"github classic", "GITHUB_TOKEN=ghp_EXAMPLE0123456789abcdefghijklmnopqrs", "GITHUB_TOKEN=[REDACTED:github_token]"},
		{"github oauth", "gho_EXAMPLE9876543210zyxwvutsrqponmlkjih", "[REDACTED:github_token]"},
		{"github user", "(ghu_0123456789EXAMPLEabcdefghijklmnopqrs)", "([REDACTED:github_token])"},
		{"github server", "ghs_EXAMPLEexample0123456789EXAMPLEexamp.", "[REDACTED:github_token]."},
		{"github refresh", "ghr_EXAMPLE00000000000000000000000000000", "[REDACTED:github_token]"},
		{"github fine-grained", "github_pat_11EXAMPLE00123456789abcdef_EXAMPLE0123456789abcdefghijklmn", "[REDACTED:github_token]"},
		{"gitlab", "PRIVATE-TOKEN: glpat-EXAMPLE0123456789abc", "PRIVATE-TOKEN: [REDACTED:gitlab_token]"},
		{"slack bot", "xoxb-0123456789-0123456789012-EXAMPLEexampleEXAMPLEabcd", "[REDACTED:slack_token]"},
		{"slack user", "token=xoxp-0123456789-0123456789-EXAMPLE", "token=[REDACTED:slack_token]"},
		{"slack webhook", "https://hooks.slack.com/services/T00000000/B00000000/EXAMPLEexampleEXAMPLE01 ok", "https://hooks.slack.com/services/[REDACTED:slack_webhook] ok"},
		{"stripe live", "sk_live_EXAMPLE0123456789abcdefghij", "[REDACTED:stripe_key]"},
		{"stripe test", "Stripe('pk_test_EXAMPLE0123456789ABCDEFGHIJ')", "Stripe('[REDACTED:stripe_key]')"},
		{"stripe restricted", "rk_live_EXAMPLE0123456789abcdefxyz", "[REDACTED:stripe_key]"},
		{"stripe webhook", "whsec_EXAMPLE0123456789abcdefghijklmn", "[REDACTED:stripe_key]"},
		{"npm", "//registry.npmjs.org/:_authToken=npm_EXAMPLE0123456789abcdefghijklmnopqrs", "//registry.npmjs.org/:_authToken=[REDACTED:npm_token]"},
		{"hugging face", "--token hf_EXAMPLEexampleEXAMPLE0123456789abc", "--token [REDACTED:huggingface_token]"},
		{"private key", "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAEXAMPLE\n0123456789abcdef\n-----END RSA PRIVATE KEY-----\ndone", "key:\n[REDACTED:private_key]\ndone"},
		{"private key openssh", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAAEXAMPLE\n-----END OPENSSH PRIVATE KEY-----", "[REDACTED:private_key]"},
		{"private key escaped", `"private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQEXAMPLE\n-----END PRIVATE KEY-----\n",`, `"private_key": "[REDACTED:private_key]\n",`},
		{"private key unclosed", "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIEXAMPLE\nand the rest", "[REDACTED:private_key]"},
		{"public key kept", "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0EXAMPLE\n-----END PUBLIC KEY-----", "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0EXAMPLE\n-----END PUBLIC KEY-----"},
		{"jwt", "jwt=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJFWEFNUExFIn0.EXAMPLEsig0123456789 end", "jwt=[REDACTED:jwt] end"},
		{"bearer header", "Authorization: Bearer EXAMPLEtoken0123456789abcdef", "Authorization: Bearer [REDACTED:bearer_token]"},
		{"bearer curl", `curl -H "Authorization: bearer 0123456789EXAMPLE.abc~xyz" https://api`, `curl -H "Authorization: bearer [REDACTED:bearer_token]" https://api`},
		{"bearer alone", "sent Bearer EXAMPLE0123456789abc to the proxy", "sent Bearer [REDACTED:bearer_token] to the proxy"},
		{"bearer in header map", `{"Authorization": "Bearer EXAMPLEabcdefghijklmnopqrst"}`, `{"Authorization": "Bearer [REDACTED:bearer_token]"}`},
		{"basic", "Authorization: Basic dXNlcjpFWEFNUExFLXBhc3N3b3Jk", "Authorization: Basic [REDACTED:basic_auth]"},
		{"basic nginx", `proxy_set_header Authorization "Basic YWRtaW46RVhBTVBMRTAxMjM=";`, `proxy_set_header Authorization "Basic [REDACTED:basic_auth]";`},
		{"authorization token", "Authorization: token EXAMPLE0123456789abcdef", "Authorization: token [REDACTED:authorization]"},
		{"cookie header", "Cookie: sessionid=8f3k2j4h5g6f7d8s9a0q; lang=en", "Cookie: sessionid=[REDACTED:cookie]; lang=en"},
		{"set-cookie", "Set-Cookie: session=a8F3kd92LmQ0zX7pEXAMPLE; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly; Secure", "Set-Cookie: session=[REDACTED:cookie]; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly; Secure"},
		{"cookie curl", `curl -H "Cookie: sid=s%3AEXAMPLE0123abcd.xyz; theme=dark" https://app`, `curl -H "Cookie: sid=[REDACTED:cookie]; theme=dark" https://app`},
		{"cookie json", `{"cookie": "sid=EXAMPLE0123456789abcdef"}`, `{"cookie": "sid=[REDACTED:cookie]"}`},
		{"cookie env", "HTTP_COOKIE=_session_id=0123456789abcdefEXAMPLE", "HTTP_COOKIE=_session_id=[REDACTED:cookie]"},
		{"set-cookie joined", "Set-Cookie: theme=dark; Path=/, sessionid=8f3k2j4h5g6f7d8s9a0q; HttpOnly", "Set-Cookie: theme=dark; Path=/, sessionid=[REDACTED:cookie]; HttpOnly"},
		{"cookie quoted header", `curl -H 'cookie: sid=8f3k2j4h5g6f7d8s9a0q' -H 'Authorization: Bearer EXAMPLEtoken0123456789abcdef' https://x.test/v1`, `curl -H 'cookie: sid=[REDACTED:cookie]' -H 'Authorization: Bearer [REDACTED:bearer_token]' https://x.test/v1`},
		{"cookie flag", "curl --cookie 'sessionid=8f3k2j4h5g6f7d8s9a0q' https://x.test", "curl --cookie 'sessionid=[REDACTED:cookie]' https://x.test"},
		{"cookie set in code", `req.Header.Set("Cookie", "sessionid=8f3k2j4h5g6f7d8s9a0q")`, `req.Header.Set("Cookie", "sessionid=[REDACTED:cookie]")`},
		{"document.cookie", `document.cookie = "sid=8f3k2j4h5g6f7d8s9a0q; path=/";`, `document.cookie = "sid=[REDACTED:cookie]; path=/";`},
		{"a request cookie named like an attribute", "Cookie: path=/; version=8f3k2j4h5g6f7d8s9a0qZ", "Cookie: path=/; version=[REDACTED:cookie]"},
		{"url password", "postgres://app:EXAMPLE-pass-0123@db.internal:5432/app", "postgres://app:[REDACTED:url_password]@db.internal:5432/app"},
		{"url password no user", "redis://:EXAMPLEredis0123@cache:6379/0", "redis://:[REDACTED:url_password]@cache:6379/0"},
		{"url password quoted", `url = "amqp://guest:EXAMPLEguest01@rabbit:5672/"`, `url = "amqp://guest:[REDACTED:url_password]@rabbit:5672/"`},
		{"password assign", "password=EXAMPLE-hunter2", "password=[REDACTED:password]"},
		{"password env", "export DB_PASSWORD=EXAMPLEsecret", "export DB_PASSWORD=[REDACTED:password]"},
		{"password env word", "PGPASSWORD=changeme psql -h db", "PGPASSWORD=[REDACTED:password] psql -h db"},
		{"password json", `{"user": "a", "password": "EXAMPLE horse 01"}`, `{"user": "a", "password": "[REDACTED:password]"}`},
		{"password json escaped", `{\"passwd\":\"EXAMPLE-0123\"}`, `{\"passwd\":\"[REDACTED:password]\"}`},
		{"password yaml", "  password: EXAMPLE-yaml-01", "  password: [REDACTED:password]"},
		{"password flag", "--password=EXAMPLEpass", "--password=[REDACTED:password]"},
		{"password flag space", "docker login --password EXAMPLE0123 registry", "docker login --password [REDACTED:password] registry"},
		{"password php", `'db_password' => 'EXAMPLE-php-01',`, `'db_password' => '[REDACTED:password]',`},
		{"password python bytes", `password = b"EXAMPLE-bytes-01"`, `password = b"[REDACTED:password]"`},
		{"password unclosed quote", `password = "EXAMPLE-open-01`, `password = "[REDACTED:password]`},
		{"password go", `cfg := Config{Password: "EXAMPLE-go-01"}`, `cfg := Config{Password: "[REDACTED:password]"}`},
		{"pwd", "pwd=EXAMPLE-0123", "pwd=[REDACTED:password]"},
		{"passphrase", "passphrase: EXAMPLE-0123", "passphrase: [REDACTED:password]"},
		{"client secret", "client_secret=EXAMPLE0123456789abcdef", "client_secret=[REDACTED:secret]"},
		{"camel secret", `"clientSecret": "EXAMPLE-client"`, `"clientSecret": "[REDACTED:secret]"`},
		{"token assign", "auth_token: EXAMPLE0123abcdef", "auth_token: [REDACTED:token]"},
		{"token query", "?access_token=EXAMPLE0123456789&state=xyz", "?access_token=[REDACTED:token]&state=xyz"},
		{"token header", "X-Auth-Token: EXAMPLE0123-auth", "X-Auth-Token: [REDACTED:token]"},
		{"api key", `api_key = "EXAMPLE0123456789apikey"`, `api_key = "[REDACTED:api_key]"`},
		{"api key header", `-H "x-api-key: EXAMPLE0123xapi"`, `-H "x-api-key: [REDACTED:api_key]"`},
		{"apikey", "APIKEY=EXAMPLEapikey0123", "APIKEY=[REDACTED:api_key]"},
		{"access key", "MINIO_ACCESS_KEY=EXAMPLEminio0123", "MINIO_ACCESS_KEY=[REDACTED:access_key]"},
		{"secret key", "SECRET_KEY=django-insecure-EXAMPLE0123", "SECRET_KEY=[REDACTED:secret_key]"},
		{"secret key base", "SECRET_KEY_BASE=EXAMPLE0123456789abcdef", "SECRET_KEY_BASE=[REDACTED:secret_key]"},
		{"two on a line", "user=ci password=EXAMPLE-01 token=EXAMPLE-02", "user=ci password=[REDACTED:password] token=[REDACTED:token]"},
		{"korean context", "비밀번호 password=EXAMPLE-비밀-01 입니다", "비밀번호 password=[REDACTED:password] 입니다"},
	}, cookieTests()...)
}

// cleanTests are ordinary coding text that must come back unchanged,
// cookieCleanTests among them.
func cleanTests() []string {
	return append([]string{
		"",
		"plain text\nwith lines\n\n\n\nand blank runs   \n",
		"token.length; password_hash; tokens; getToken(); maxTokens",
		"if token == \"\" || password != confirm { return errBadPassword }",
		"password: string;\ntoken?: string;\napiKey: string | null;",
		"let token: &str = &creds.token; pub max_token: u32, key_id: i64",
		"password = getpass.getpass()\ntoken = request.headers.get(\"Authorization\")",
		"api_key = os.environ[\"OPENAI_API_KEY\"]\nsecret = config.secret\ntoken = tok",
		"fmt.Println(\"token:\", tok); log.Printf(\"password: %s\", mask(pw))",
		"req.Header.Set(\"Authorization\", \"Bearer \"+tok.AccessToken)",
		"headers: { Authorization: `Bearer ${token}` }",
		"GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}\nDB_PASSWORD: ${DB_PASSWORD}\nNPM_TOKEN=$NPM_TOKEN",
		"PWD=/home/dev/app\nOLDPWD=/home/dev\nnpm_config_cache=/home/dev/.npm",
		"max_tokens: 4096\ntoken_type: bearer\npassword: \"\"\nsecretKeyRef:\n  key: password",
		"The bearer of bad news. Basic usage: pass the token with --token-file.",
		"curl -H \"Authorization: Bearer $TOKEN\" https://api.example.com and Authorization: Bearer <token>",
		"commit 9f2c4e1a7b3d5e6f7a8b9c0d1e2f3a4b5c6d7e8f and a94a8fe5ccb19ba61c4c0873d391e987982fbbd3",
		"id 123e4567-e89b-12d3-a456-426614174000 and sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"postgres://localhost:5432/app ssh://git@github.com:22/org/app.git mailto:user@example.com",
		"Task sk-learn-more-about-this and disk-usage-report-for-volumes; sk_test_ and ghp_ prefixes",
		"private String token; Map<String, Key> keys; <div class=\"private\">x</div>",
		"- [x] store the password_hash\n- [ ] rotate tokens: 3 active",
		"한국어 설명: 토큰을 갱신하고 비밀번호 해시를 저장합니다. 🔐✅ 🎉",
		"-----BEGIN CERTIFICATE-----\nMIIBEXAMPLE\n-----END CERTIFICATE-----",
		"eyJhbGciOiJIUzI1NiJ9 alone is not a JWT",
		"AKIA is a prefix; AKIAEXAMPLE is too short",
		"password_confirmation: must match\n\"token_count\": 17",
		"type Token struct {\n\tAccessToken string `json:\"access_token\"`\n}",
		// Seen in the Go, Python and module-cache sources.
		"--- PASS: TestRefresh2 (0.02s)\nPASS\nok  \tgithub.com/org/app\t0.031s",
		"Token:              '#ffffff',",
		`_SK_START = b"-----BEGIN OPENSSH PRIVATE KEY-----"`,
		"# Keep Authorization: headers on a redirect.",
		"headers['Authorization'] = '<SANITIZED>'\nattrs['client_secret'] = '****'",
		"IMAGE_REL_ARM64_TOKEN          = 0x000C",
		"PrivateKey: testRSA2048PrivateKey,\npassword: password16,",
		"ResourceEndpoint.__init__(self, default_token='Bearer',",
		`jsonnet_token = r'[^\W\d]\w*'`,
		`authorization = self.headers.get("authorization")`,
		"Clear your cookies and log in again; the cookie: banner is gone.",
		"Cookie: lang=en; theme=dark",
		"cookie = request.headers.get('Cookie')\ncookie = http.cookies.SimpleCookie()",
		`const cookie = cookieStore.get("session2"); // v2 api`,
		"**Cookie:** set when the user logs in, expires after 30 days.\ncookie: React18Component",
		`curl -H "Cookie: theme=dark" https://api2.example.com/v1/users`,
		"cookies = requests.utils.dict_from_cookiejar(jar)",
		":param token: REQUIRED.  The token that the client wants to get revoked.",
		`X_PATH_MASTERPASSWD = "/etc/master.passwd"`,
		`lastToken = "-" + functionCompleter(lastToken[1:], fns)`,
		"Secret: Bug4Secret{1},",
		`println("failed to revert to previous token:", err.Error())`,
		`Authorization: OAuth realm="Example",`,
		"setDir also adds PWD=dir to cmd's environment.",
		`const fakeConnectionToken = "X-Fake-Connection-Token"`,
	}, cookieCleanTests()...)
}

func TestFilterTags(t *testing.T) {
	t.Parallel()
	for _, tt := range tagTests() {
		t.Run(tt.name, func(t *testing.T) {
			if got := Filter(tt.in); got != tt.want {
				t.Fatalf("Filter(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestFilterSecrets(t *testing.T) {
	t.Parallel()
	for _, tt := range secretTests() {
		t.Run(tt.name, func(t *testing.T) {
			if got := Filter(tt.in); got != tt.want {
				t.Fatalf("Filter(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestFilterClean(t *testing.T) {
	t.Parallel()
	for _, in := range cleanTests() {
		if got := Filter(in); got != in {
			t.Errorf("Filter(%q)\n got %q\nwant it unchanged", in, got)
		}
	}
}

// TestCleanFile checks that a realistic coding session comes back byte for
// byte.
func TestCleanFile(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/clean.txt")
	if err != nil {
		t.Fatal(err)
	}
	in := string(data)
	got, r := FilterReport(in)
	if got != in {
		t.Fatalf("Filter(clean.txt) changed the text:\n%s", lineDiff(in, got))
	}
	if r.Private != 0 || r.Injected != 0 || len(r.Secrets) != 0 {
		t.Fatalf("FilterReport(clean.txt) report = %+v, want zero", r)
	}
}

// corpusLine is one line of testdata/secrets.txt.
type corpusLine struct {
	num     int
	kind    string   // from the "# kind" line above
	text    string   // the line without « and »
	secrets []string // the values between « and »
}

func readCorpus(t testing.TB) []corpusLine {
	t.Helper()
	f, err := os.Open("testdata/secrets.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []corpusLine
	kind := ""
	sc := bufio.NewScanner(f)
	for num := 1; sc.Scan(); num++ {
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "":
			continue
		case strings.HasPrefix(line, "# "):
			if k := strings.TrimPrefix(line, "# "); !strings.Contains(k, " ") {
				kind = k
			}
			continue
		}
		cl := corpusLine{num: num, kind: kind}
		rest := strings.ReplaceAll(line, "⏎", "\n")
		for {
			i := strings.Index(rest, "«")
			if i < 0 {
				cl.text += rest
				break
			}
			j := strings.Index(rest[i:], "»")
			if j < 0 {
				t.Fatalf("secrets.txt:%d: « without »", num)
			}
			cl.text += rest[:i]
			secret := rest[i+len("«") : i+j]
			cl.text += secret
			cl.secrets = append(cl.secrets, secret)
			rest = rest[i+j+len("»"):]
		}
		if len(cl.secrets) == 0 || cl.kind == "" {
			t.Fatalf("secrets.txt:%d: no «secret» or no # kind above it", num)
		}
		lines = append(lines, cl)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// TestSecretsCorpus checks that every secret in testdata/secrets.txt is
// masked with the kind named above it, line by line and in the whole file
// at once.
func TestSecretsCorpus(t *testing.T) {
	t.Parallel()
	lines := readCorpus(t)
	var all []string
	for _, cl := range lines {
		all = append(all, cl.text)
		got, r := FilterReport(cl.text)
		for _, secret := range cl.secrets {
			if strings.Contains(got, secret) {
				t.Errorf("secrets.txt:%d: secret %q survives: %q", cl.num, secret, got)
			}
		}
		if cl.kind != "any" && r.Secrets[cl.kind] == 0 || len(r.Secrets) == 0 {
			t.Errorf("secrets.txt:%d: report %v has no %s: %q", cl.num, r.Secrets, cl.kind, got)
		}
		if again := Filter(got); again != got {
			t.Errorf("secrets.txt:%d: not idempotent:\n once %q\ntwice %q", cl.num, got, again)
		}
	}
	got := Filter(strings.Join(all, "\n"))
	for _, cl := range lines {
		for _, secret := range cl.secrets {
			if strings.Contains(got, secret) {
				t.Errorf("whole file: secret %q from line %d survives", secret, cl.num)
			}
		}
	}
}

func TestFilterReport(t *testing.T) {
	t.Parallel()
	in := "a <private>b</private> " + FenceOpen + "c" + FenceClose +
		"\n<system-reminder>d</system-reminder>\npassword=EXAMPLE-01 token=EXAMPLE-02 AKIAIOSFODNN7EXAMPLE"
	_, r := FilterReport(in)
	if got, want := r.Private, 1; got != want {
		t.Errorf("Private = %d, want %d", got, want)
	}
	if got, want := r.Injected, 2; got != want {
		t.Errorf("Injected = %d, want %d", got, want)
	}
	want := map[string]int{"password": 1, "token": 1, "aws_access_key": 1}
	if got := fmt.Sprint(r.Secrets); got != fmt.Sprint(want) {
		t.Errorf("Secrets = %s, want %v", got, want)
	}
	if _, r := FilterReport("nothing here"); r.Private != 0 || r.Injected != 0 || r.Secrets != nil {
		t.Errorf("FilterReport(clean) = %+v, want zero", r)
	}
}

func TestFilterInvalidUTF8(t *testing.T) {
	t.Parallel()
	tests := []filterTest{
		{"bad byte", "a\xffb", "a\uFFFDb"},
		{"cut rune", "토\xed\x86", "토\uFFFD"},
		{"bad byte in private", "<private>\xff</private>\xfe", "[REDACTED:private]\uFFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Filter(tt.in)
			if got != tt.want {
				t.Fatalf("Filter(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if !utf8.ValidString(got) {
				t.Fatalf("Filter(%q) = %q, not valid UTF-8", tt.in, got)
			}
		})
	}
}

func TestFilterIdempotent(t *testing.T) {
	t.Parallel()
	var ins []string
	for _, tt := range append(tagTests(), secretTests()...) {
		ins = append(ins, tt.in, tt.want)
	}
	ins = append(ins, cleanTests()...)
	for _, in := range ins {
		once := Filter(in)
		if twice := Filter(once); twice != once {
			t.Errorf("Filter not idempotent on %q:\n once %q\ntwice %q", in, once, twice)
		}
	}
}

// TestFilterLarge checks that big inputs, also adversarial ones, take
// linear time: the test would time out if they did not.
func TestFilterLarge(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("large inputs")
	}
	for _, tt := range append([]struct{ name, in string }{
		{"opens", strings.Repeat("<private>", 200_000)},
		{"closes", strings.Repeat("</private>\n", 200_000)},
		{"reminders", strings.Repeat("<system-reminder>x</system-reminder>", 50_000)},
		{"keys", strings.Repeat("password=", 200_000)},
		{"env keys", strings.Repeat("TOKEN=TOKEN=", 100_000)},
		{"long key", strings.Repeat("tokenkey", 200_000) + "=x"},
		{"quotes", strings.Repeat(`"token": "`, 200_000)},
		{"begin", strings.Repeat("-----BEGIN RSA PRIVATE KEY----- ", 50_000)},
		{"urls", strings.Repeat("https://a:b", 100_000)},
		{"bearer", strings.Repeat("Bearer Bearer ", 100_000)},
		{"newlines", strings.Repeat("\n", 1_000_000) + "</private>" + strings.Repeat("\n", 1_000_000)},
		{"secret session", strings.Repeat(session(), 200)},
	}, hostileCookies()...) {
		t.Run(tt.name, func(t *testing.T) {
			once := Filter(tt.in)
			if twice := Filter(once); twice != once {
				t.Fatalf("not idempotent")
			}
		})
	}
}

// lineDiff shows the first line where a and b differ.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n- %q\n+ %q", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(bl), len(al))
}

// session is about 5 KB of coding-session text with a few secrets.
func session() string {
	return `> the deploy fails with 403, can you check the config?

$ cat deploy/config.yaml
server:
  host: 0.0.0.0
  port: 8080
database:
  url: postgres://app:EXAMPLE-pg-0123@db.internal:5432/app
  max_conns: 20
auth:
  token_ttl: 3600
  issuer: https://auth.example.com
$ git log --oneline -3
9f2c4e1 deploy: read DATABASE_URL from env
3e1d0b7 auth: refresh token on 401
a94a8fe store: add password_hash column

` + "```go" + `
func (c *Client) Do(ctx context.Context, req *http.Request) (*http.Response, error) {
	tok, err := c.src.Token()
	if err != nil {
		return nil, fmt.Errorf("get token: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := c.http.Do(req.WithContext(ctx))
		if err != nil {
			return nil, fmt.Errorf("do %s: %w", req.URL.Path, err)
		}
		if resp.StatusCode != http.StatusUnauthorized {
			return resp, nil
		}
		resp.Body.Close()
		if err := c.refresh(ctx); err != nil {
			return nil, err
		}
	}
	return nil, errUnauthorized
}
` + "```" + `

The handler reads the token from the cache; tokens expire after an hour and
password_hash is never logged. Let me run the tests.

$ go test ./internal/auth/... -run TestDo -count=1
ok  	github.com/org/app/internal/auth	0.214s
$ curl -sS -H "Authorization: Bearer EXAMPLE0123456789abcdefTOKEN" https://api.example.com/v1/deploys | jq '.[0]'
{
  "id": "7c9e6679-7425-40de-944b-e07fc1f90ae7",
  "status": "failed",
  "commit": "9f2c4e1a7b3d5e6f7a8b9c0d1e2f3a4b5c6d7e8f",
  "error": "403 Forbidden: key AKIAIOSFODNN7EXAMPLE has no s3:PutObject on arn:aws:s3:::releases/*"
}

The IAM user behind that key lacks s3:PutObject. Update the policy in
infra/iam.tf and re-run terraform:

` + "```hcl" + `
resource "aws_iam_policy" "deploy" {
  name   = "deploy-releases"
  policy = data.aws_iam_policy_document.deploy.json
}
` + "```" + `

한국어 메모: 배포 권한 문제였습니다 ✅ 🎉
` + strings.Repeat("Some ordinary prose about refactoring the parser, renaming getToken to fetchToken, and keeping the diff small. ", 20) + "\n"
}

// BenchmarkFilter filters 1 MB of coding-session text with a few secrets
// in every 5 KB, the same text once filtered (nothing left to mask), and
// 10 MB of it.
func BenchmarkFilter(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.WriteString(session())
	}
	in := sb.String()
	b.Run("session", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(in)))
		for b.Loop() {
			Filter(in)
		}
	})
	clean := Filter(in)
	b.Run("clean", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(clean)))
		for b.Loop() {
			Filter(clean)
		}
	})
	big := strings.Repeat(in, 10)
	b.Run("session-10MB", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(big)))
		for b.Loop() {
			Filter(big)
		}
	})
}

// hookPrompt is a prompt of the size hooks see most, with the words that
// wake secret rules.
const hookPrompt = `Fix the login flow: the token refresh fails with 401 after the password reset.
The API key is read from config.apiKey in src/auth/client.ts, and the secret for
signing lives in the vault. Keep the access token out of the logs, and make sure
the session cookie is still set after the redirect. Tests: npm test -- auth.
` + `Also check that the GitHub Actions workflow passes the deploy key to the build.`

// BenchmarkFilterPrompt is the filter's cost per prompt in a warm process.
func BenchmarkFilterPrompt(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(hookPrompt)))
	for b.Loop() {
		Filter(hookPrompt)
	}
}

// BenchmarkLeakCold is what a hook process pays the first time it
// filters such a prompt: building the keyword index and compiling the
// gitleaks rules the prompt wakes, which later calls reuse.
func BenchmarkLeakCold(b *testing.B) {
	for b.Loop() {
		x := buildLeakIndex()
		for r := range x.find(hookPrompt) {
			regexp.MustCompile(leakRules[r].re)
			compileAllows(leakRules[r].allow)
		}
		compileAllows([]leakAllow{leakGlobalAllow})
	}
}

// BenchmarkLeakCompileAll is the cost of compiling every gitleaks rule,
// which compiling on first use avoids.
func BenchmarkLeakCompileAll(b *testing.B) {
	for b.Loop() {
		for _, r := range leakRules {
			regexp.MustCompile(r.re)
		}
	}
}

func TestFilterReportOpen(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		open bool
	}{
		{"a <private>b", true},
		{"a <private>b</private> c", false},
		{"a <system-reminder>b", false},
		{"a </private> b <private> c", true},
	} {
		if _, r := FilterReport(tt.in); r.Open != tt.open {
			t.Errorf("FilterReport(%q).Open = %v, want %v", tt.in, r.Open, tt.open)
		}
	}
}

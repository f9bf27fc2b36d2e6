package privacy

import (
	"fmt"
	"strings"
	"testing"
)

// cookieTests are the ways a session cookie is written besides a Cookie
// or Set-Cookie header line: curl's -b, cookie dicts and cookie objects in
// code, HAR and DevTools JSON, and calls that set a cookie by name and
// value. The names and the structure stay.
func cookieTests() []filterTest {
	return []filterTest{
		// curl: -b is --cookie; an argument without '=' is a cookie file.
		{"curl -b", "curl -b 'session=a8F3kd92LmQ0zX7pEXAMPLE; theme=dark' https://x.test/api", "curl -b 'session=[REDACTED:cookie]; theme=dark' https://x.test/api"},
		{"curl -b double quotes", `curl -sS -b "sid=s%3AEXAMPLE0123abcd.xyz" https://x.test`, `curl -sS -b "sid=[REDACTED:cookie]" https://x.test`},
		{"curl -b bare", "curl -b sessionid=8f3k2j4h5g6f7d8s9a0q https://x.test/v1", "curl -b sessionid=[REDACTED:cookie] https://x.test/v1"},
		{"curl -b copied as cURL", "curl 'https://x.test/api/me' \\\n  -H 'accept: application/json' \\\n  -b 'sessionid=8f3k2j4h5g6f7d8s9a0q; theme=dark' \\\n  -H 'user-agent: Mozilla/5.0'",
			"curl 'https://x.test/api/me' \\\n  -H 'accept: application/json' \\\n  -b 'sessionid=[REDACTED:cookie]; theme=dark' \\\n  -H 'user-agent: Mozilla/5.0'"},
		{"curl -b copied as cURL for cmd", "curl ^\"https://x.test/api/me^\" ^\r\n  -b ^\"sessionid=8f3k2j4h5g6f7d8s9a0q; theme=dark^\" ^\r\n  -H ^\"accept: */*^\"",
			"curl ^\"https://x.test/api/me^\" ^\r\n  -b ^\"sessionid=[REDACTED:cookie]; theme=dark^\" ^\r\n  -H ^\"accept: */*^\""},
		{"curl -b ANSI-C quoted", "curl -b $'sessionid=8f3k2j4h5g6f7d8s9a0q; theme=dark' https://x.test", "curl -b $'sessionid=[REDACTED:cookie]; theme=dark' https://x.test"},
		{"curl -b glued", "curl -bsessionid=8f3k2j4h5g6f7d8s9a0q https://x.test", "curl -bsessionid=[REDACTED:cookie] https://x.test"},
		{"curl.exe -b", `curl.exe -b "sid=8f3k2j4h5g6f7d8s9a0q" https://x.test`, `curl.exe -b "sid=[REDACTED:cookie]" https://x.test`},
		{"curl -b in a substitution", `ME=$(curl -s -b "sid=8f3k2j4h5g6f7d8s9a0q" https://x.test/me)`, `ME=$(curl -s -b "sid=[REDACTED:cookie]" https://x.test/me)`},
		{"curl --cookie double quotes", `curl --cookie "sid=8f3k2j4h5g6f7d8s9a0q" https://x.test`, `curl --cookie "sid=[REDACTED:cookie]" https://x.test`},
		{"curl --cookie bare", "curl --cookie sid=8f3k2j4h5g6f7d8s9a0q https://x.test/v1?page=20260101", "curl --cookie sid=[REDACTED:cookie] https://x.test/v1?page=20260101"},

		// Python requests and httpx.
		{"requests cookies dict", `requests.get(url, cookies={"sessionid": "8f3k2j4h5g6f7d8s9a0q"})`, `requests.get(url, cookies={"sessionid": "[REDACTED:cookie]"})`},
		{"cookies dict assigned", `cookies = {'session': 'a8F3kd92LmQ0zX7pEXAMPLE', 'theme': 'dark'}`, `cookies = {'session': '[REDACTED:cookie]', 'theme': 'dark'}`},
		{"cookies dict over lines", "cookies = {\n    \"sessionid\": \"8f3k2j4h5g6f7d8s9a0q\",  # from devtools\n    \"csrf\": \"Xk29dLq84mZpWn3vR7tY0\",\n}",
			"cookies = {\n    \"sessionid\": \"[REDACTED:cookie]\",  # from devtools\n    \"csrf\": \"[REDACTED:cookie]\",\n}"},
		{"cookies set", `s.cookies.set("sessionid", "8f3k2j4h5g6f7d8s9a0q", domain="x.test")`, `s.cookies.set("sessionid", "[REDACTED:cookie]", domain="x.test")`},
		{"cookies item", `session.cookies["sessionid"] = "8f3k2j4h5g6f7d8s9a0q"`, `session.cookies["sessionid"] = "[REDACTED:cookie]"`},
		{"set_cookie keywords", `response.set_cookie(key="sessionid", value="8f3k2j4h5g6f7d8s9a0q", httponly=True)`, `response.set_cookie(key="sessionid", value="[REDACTED:cookie]", httponly=True)`},
		{"set_cookie value keyword", `response.set_cookie("sessionid", value="8f3k2j4h5g6f7d8s9a0q")`, `response.set_cookie("sessionid", value="[REDACTED:cookie]")`},
		{"create_cookie", `jar.set_cookie(requests.cookies.create_cookie(name="sessionid", value="8f3k2j4h5g6f7d8s9a0q", domain="x.test"))`,
			`jar.set_cookie(requests.cookies.create_cookie(name="sessionid", value="[REDACTED:cookie]", domain="x.test"))`},
		{"SimpleCookie", `c = SimpleCookie("sessionid=8f3k2j4h5g6f7d8s9a0q; theme=dark")`, `c = SimpleCookie("sessionid=[REDACTED:cookie]; theme=dark")`},
		{"selenium add_cookie", `driver.add_cookie({"name": "sessionid", "value": "8f3k2j4h5g6f7d8s9a0q"})`, `driver.add_cookie({"name": "sessionid", "value": "[REDACTED:cookie]"})`},
		{"set_cookie", `response.set_cookie("sessionid", "8f3k2j4h5g6f7d8s9a0q", httponly=True)`, `response.set_cookie("sessionid", "[REDACTED:cookie]", httponly=True)`},

		// HAR and DevTools JSON.
		{"har cookies", `"cookies": [{"name": "sessionid", "value": "8f3k2j4h5g6f7d8s9a0q", "path": "/", "expires": "2026-10-21T07:28:00.000Z", "httpOnly": true}]`,
			`"cookies": [{"name": "sessionid", "value": "[REDACTED:cookie]", "path": "/", "expires": "2026-10-21T07:28:00.000Z", "httpOnly": true}]`},
		{"har cookies over lines", "\"cookies\": [\n  {\n    \"name\": \"sessionid\",\n    \"value\": \"8f3k2j4h5g6f7d8s9a0q\",\n    \"domain\": \".x.test\"\n  }\n]",
			"\"cookies\": [\n  {\n    \"name\": \"sessionid\",\n    \"value\": \"[REDACTED:cookie]\",\n    \"domain\": \".x.test\"\n  }\n]"},
		{"storage state", `{"cookies": [{"name": "theme", "value": "dark"}, {"name": "__Secure-next-auth.session-token", "value": "a8F3kd92LmQ0zX7pEXAMPLE", "domain": "x.test", "expires": 1798761600.5}], "origins": []}`,
			`{"cookies": [{"name": "theme", "value": "dark"}, {"name": "__Secure-next-auth.session-token", "value": "[REDACTED:cookie]", "domain": "x.test", "expires": 1798761600.5}], "origins": []}`},
		{"har cookie header", `{"name":"Cookie","value":"sessionid=8f3k2j4h5g6f7d8s9a0q; theme=dark"}`, `{"name":"Cookie","value":"sessionid=[REDACTED:cookie]; theme=dark"}`},
		{"har set-cookie header", `{"name": "set-cookie", "value": "sid=8f3k2j4h5g6f7d8s9a0q; Path=/; HttpOnly"}`, `{"name": "set-cookie", "value": "sid=[REDACTED:cookie]; Path=/; HttpOnly"}`},

		// JavaScript.
		{"document.cookie token", `document.cookie = "token=8f3k2j4h5g6f7d8s9a0q; path=/"`, `document.cookie = "token=[REDACTED:token]; path=/"`},
		{"playwright addCookies", `await context.addCookies([{name: 'session', value: 'a8F3kd92LmQ0zX7pEXAMPLE', domain: 'x.test', path: '/'}]);`,
			`await context.addCookies([{name: 'session', value: '[REDACTED:cookie]', domain: 'x.test', path: '/'}]);`},
		{"puppeteer setCookie", `await page.setCookie({name: 'sid', value: '8f3k2j4h5g6f7d8s9a0q', url: 'https://x.test/app?v=20260101'});`,
			`await page.setCookie({name: 'sid', value: '[REDACTED:cookie]', url: 'https://x.test/app?v=20260101'});`},
		{"playwright cookies with a comment", "const cookies = [ // from devtools\n  { name: 'sid', value: '8f3k2j4h5g6f7d8s9a0q' },\n];", "const cookies = [ // from devtools\n  { name: 'sid', value: '[REDACTED:cookie]' },\n];"},
		{"next cookies().set", `cookies().set('session', 'a8F3kd92LmQ0zX7pEXAMPLE', { httpOnly: true })`, `cookies().set('session', '[REDACTED:cookie]', { httpOnly: true })`},
		{"js-cookie set", `Cookies.set('sid', '8f3k2j4h5g6f7d8s9a0q', { expires: 7 })`, `Cookies.set('sid', '[REDACTED:cookie]', { expires: 7 })`},
		{"express res.cookie", `res.cookie('sid', '8f3k2j4h5g6f7d8s9a0q', { httpOnly: true })`, `res.cookie('sid', '[REDACTED:cookie]', { httpOnly: true })`},

		// The same shapes elsewhere.
		{"go http.Cookie", `req.AddCookie(&http.Cookie{Name: "session", Value: "8f3k2j4h5g6f7d8s9a0q", Path: "/"})`, `req.AddCookie(&http.Cookie{Name: "session", Value: "[REDACTED:cookie]", Path: "/"})`},
		{"java new Cookie", `resp.addCookie(new Cookie("JSESSIONID", "8F3K2J4H5G6F7D8S9A0Q1B2C3D4E5F6A"));`, `resp.addCookie(new Cookie("JSESSIONID", "[REDACTED:cookie]"));`},
		{"ruby cookies hash", `cookies = { "sessionid" => "8f3k2j4h5g6f7d8s9a0q" }`, `cookies = { "sessionid" => "[REDACTED:cookie]" }`},
		{"php setcookie", `setcookie('PHPSESSID', 'k8f3j2h5g6f7d8s9a0q1w2e3r4', ['httponly' => true]);`, `setcookie('PHPSESSID', '[REDACTED:cookie]', ['httponly' => true]);`},
		{"php $_COOKIE", `$_COOKIE['sid'] = 'k8f3j2h5g6f7d8s9a0q1w2e3r4';`, `$_COOKIE['sid'] = '[REDACTED:cookie]';`},
		{"rust Cookie::new", `let c = Cookie::new("sid", "8f3k2j4h5g6f7d8s9a0q");`, `let c = Cookie::new("sid", "[REDACTED:cookie]");`},
		{"cookie call inside a cookie literal", "cookies = [{\"sid\": \"abc\"},\n  s.cookies.set(\"sessionid\", \"8f3k2j4h5g6f7d8s9a0q\")", "cookies = [{\"sid\": \"abc\"},\n  s.cookies.set(\"sessionid\", \"[REDACTED:cookie]\")"},
		{"cookies list of calls", `cookies = [new Cookie("sid", "8f3k2j4h5g6f7d8s9a0q"), new Cookie("theme", "dark")]`, `cookies = [new Cookie("sid", "[REDACTED:cookie]"), new Cookie("theme", "dark")]`},
		{"go header literal", `Header{"Cookie": {"sid=8f3k2j4h5g6f7d8s9a0q; theme=dark"}, "Set-Cookie": {"a=b", "sid=8f3k2j4h5g6f7d8s9a0q; Expires=Wed, 21 Oct 2026 07:28:00 GMT"}}`,
			`Header{"Cookie": {"sid=[REDACTED:cookie]; theme=dark"}, "Set-Cookie": {"a=b", "sid=[REDACTED:cookie]; Expires=Wed, 21 Oct 2026 07:28:00 GMT"}}`},
		{"node set-cookie list", `res.setHeader('Set-Cookie', ['sid=8f3k2j4h5g6f7d8s9a0q; HttpOnly', 'theme=dark'])`, `res.setHeader('Set-Cookie', ['sid=[REDACTED:cookie]; HttpOnly', 'theme=dark'])`},
		{"powershell copied", `$session.Cookies.Add((New-Object System.Net.Cookie("sessionid", "8f3k2j4h5g6f7d8s9a0q", "/", "x.test")))`,
			`$session.Cookies.Add((New-Object System.Net.Cookie("sessionid", "[REDACTED:cookie]", "/", "x.test")))`},
	}
}

// cookieCleanTests name cookies, read them or set ones that are no
// credential; they stay as they are.
func cookieCleanTests() []string {
	return []string{
		"curl -b cookies.txt -c cookies.txt https://x.test/login",
		"curl -b /tmp/jar-20260101.txt 'https://x.test/v1/items?id=12345678'",
		"curl -b 'theme=dark; lang=en' https://x.test",
		"curl's -b flag sends cookies: curl -b name=value URL",
		"git checkout -b fix/session-8f3k2j4h5g6f7d8s9a0q\ngunicorn -b 0.0.0.0:8000 app:server",
		"curl -s https://x.test | tar -x -b 20 -f -",
		`sid = request.cookies.get("sessionid")`,
		`cookie_name = "sessionid"` + "\nSESSION_COOKIE_NAME = \"sessionid\"",
		`cookies = {"theme": "dark", "lang": "en"}`,
		`cookies = {"sessionid": os.environ["SESSION_ID"]}` + "\n" + `s.cookies.set("sessionid", token)`,
		"cookies = dict(request.cookies)\nresp.cookies.get(\"sessionid\", \"\")",
		`"cookies": [], "headers": [{"name": "Accept", "value": "*/*"}]`,
		`{"name": "Cookie", "value": "theme=dark"}`,
		`"cookies": [{"name": "theme", "value": "dark", "expires": "2026-10-21T07:28:00.000Z", "sameSite": "Lax"}]`,
		`http.Cookie{Name: "session", Value: token, Path: "/", RawExpires: "Wed, 21 Oct 2026 07:28:00 GMT"}`,
		"document.cookie.split('; ').find(c => c.startsWith('session='))",
		"await context.addCookies(cookies);\nres.clearCookie('sid');",
		`await context.addCookies([{ name: 'theme', value: 'dark', url }]);`,
		"The Set-Cookie header sets the cookie; the Cookie header sends it back (see RFC 6265).",
		"the cookie (sessionid) expires after 30 days",
		`cookies["sessionid"] == "expected2026"`,
		".cookie { color: #fff; }\n.cookie{margin:0 4px}",
		"const session = cookies().get('session')?.value\ncookies().delete('session')",
		`"cookies": {"title": "We use cookies", "body": "We use 3 kinds of cookies since 2026.", "accept": "Accept all"}`,
		"cookies: { consent: 'accepted', version: 2, updated: '2026-01-01' }",
		"app.use(session({ secret: process.env.SESSION_SECRET, cookie: { domain: 'app2026.example.com', maxAge: 86400000, sameSite: 'lax' } }))",
		"cookies: { sessionToken: { name: '__Secure-next-auth.session-token', options: { httpOnly: true, sameSite: 'lax', path: '/' } } }",
		`r = requests.get(url, cookies=jar, timeout=30, auth=("ci", "build2026x"))`,
		"for k, v in resp.cookies.items():\n    jar = resp.cookies.get_dict()",
		`"cookies": {"type": "array", "items": {"$ref": "#/definitions/cookie"}}`,
		"curl -s https://x.test/api -b \"$COOKIE_JAR\" -c \"$COOKIE_JAR\"\ncurl -b \"sid=$SID\" https://x.test",
	}
}

func TestFilterCookies(t *testing.T) {
	t.Parallel()
	for _, tt := range cookieTests() {
		t.Run(tt.name, func(t *testing.T) {
			if got := Filter(tt.in); got != tt.want {
				t.Fatalf("Filter(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestFilterCookiesClean(t *testing.T) {
	t.Parallel()
	for _, in := range cookieCleanTests() {
		if got := Filter(in); got != in {
			t.Errorf("Filter(%q)\n got %q\nwant it unchanged", in, got)
		}
	}
}

// TestFilterCookiesLongList checks that every cookie of a long list is
// masked: a saved browser state may hold hundreds.
func TestFilterCookiesLongList(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`{"cookies": [`)
	for i := range 3000 {
		fmt.Fprintf(&b, "\n  {\"name\": \"c%d\", \"value\": \"v%08dEXAMPLEk2\", \"domain\": \".x.test\", \"path\": \"/\"},", i, i)
	}
	b.WriteString("\n], \"origins\": []}")
	got := Filter(b.String())
	if k := strings.Index(got, "EXAMPLEk2"); k >= 0 {
		t.Fatalf("a cookie value survives: %q", got[max(0, k-40):k+10])
	}
	if n, want := strings.Count(got, "[REDACTED:cookie]"), 3000; n != want {
		t.Fatalf("%d cookies masked, want %d", n, want)
	}
}

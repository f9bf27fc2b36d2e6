package privacy

import (
	"fmt"
	"strings"
	"testing"
)

// cookieTests are the ways a session cookie is written besides a Cookie
// or Set-Cookie header line: curl's -b, cookie dicts and cookie objects in
// code, HAR and DevTools JSON, and calls that set a cookie by name and
// value. The names and the structure stay. secretTests holds them.
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
			// The line reader masks "dark…" to its pair's end: the rest of
			// the pair names a cookie again (main masked to the line's end).
			`Header{"Cookie": {"sid=[REDACTED:cookie]; theme=[REDACTED:cookie]; Expires=Wed, 21 Oct 2026 07:28:00 GMT"}}`},
		{"node set-cookie list", `res.setHeader('Set-Cookie', ['sid=8f3k2j4h5g6f7d8s9a0q; HttpOnly', 'theme=dark'])`, `res.setHeader('Set-Cookie', ['sid=[REDACTED:cookie]; HttpOnly', 'theme=dark'])`},
		{"powershell copied", `$session.Cookies.Add((New-Object System.Net.Cookie("sessionid", "8f3k2j4h5g6f7d8s9a0q", "/", "x.test")))`,
			`$session.Cookies.Add((New-Object System.Net.Cookie("sessionid", "[REDACTED:cookie]", "/", "x.test")))`},

		// A HAR header object printed over lines, or JSON-escaped inside a
		// tool's output.
		{"har cookie header over lines", "{\n  \"name\": \"Cookie\",\n  \"value\": \"sessionid=8f3k2j4h5g6f7d8s9a0q\"\n}",
			"{\n  \"name\": \"Cookie\",\n  \"value\": \"sessionid=[REDACTED:cookie]\"\n}"},
		{"har set-cookie header over crlf lines", "{\r\n  \"name\": \"set-cookie\",\r\n  \"value\": \"sessionid=8f3k2j4h5g6f7d8s9a0q; Path=/\"\r\n}",
			"{\r\n  \"name\": \"set-cookie\",\r\n  \"value\": \"sessionid=[REDACTED:cookie]; Path=/\"\r\n}"},
		{"har cookie header escaped", `{"output": "{\"name\": \"cookie\", \"value\": \"sessionid=8f3k2j4h5g6f7d8s9a0q\"}"}`,
			`{"output": "{\"name\": \"cookie\", \"value\": \"sessionid=[REDACTED:cookie]\"}"}`},
		{"har cookie header escaped over lines", `{"output": "{\n  \"name\": \"Cookie\",\n  \"value\": \"sessionid=8f3k2j4h5g6f7d8s9a0q\"\n}"}`,
			`{"output": "{\n  \"name\": \"Cookie\",\n  \"value\": \"sessionid=[REDACTED:cookie]\"\n}"}`},
		{"storage state escaped over lines", `{"stdout": "{\n  \"cookies\": [\n    {\n      \"name\": \"sid\",\n      \"value\": \"8f3k2j4h5g6f7d8s9a0q\"\n    }\n  ]\n}"}`,
			`{"stdout": "{\n  \"cookies\": [\n    {\n      \"name\": \"sid\",\n      \"value\": \"[REDACTED:cookie]\"\n    }\n  ]\n}"}`},
		{"cookie header escaped in a command", `{"command": "curl -H \"Cookie: sid=8f3k2j4h5g6f7d8s9a0q\" https://x.test"}`,
			`{"command": "curl -H \"Cookie: sid=[REDACTED:cookie]\" https://x.test"}`},

		// curl inside JSON, and every way to give it a cookie.
		{"curl -b escaped quotes", `{"command": "curl \"https://x.test/api\" -b \"sessionid=8f3k2j4h5g6f7d8s9a0q\" -H \"accept: */*\""}`,
			`{"command": "curl \"https://x.test/api\" -b \"sessionid=[REDACTED:cookie]\" -H \"accept: */*\""}`},
		{"curl -b escaped quotes then a field", `{"command":"curl -b \"sid=8f3k2j4h5g6f7d8s9a0q\" https://x.test","description":"d"}`,
			`{"command":"curl -b \"sid=[REDACTED:cookie]\" https://x.test","description":"d"}`},
		{"curl -b bare in JSON", `{"command":"curl -b sid=8f3k2j4h5g6f7d8s9a0q"}`, `{"command":"curl -b sid=[REDACTED:cookie]"}`},
		{"curl -b escaped lines", `{"command": "cd app\ncurl 'https://x.test/api' \\\n  -b 'sid=8f3k2j4h5g6f7d8s9a0q' \\\n  -H 'accept: */*'"}`,
			`{"command": "cd app\ncurl 'https://x.test/api' \\\n  -b 'sid=[REDACTED:cookie]' \\\n  -H 'accept: */*'"}`},
		{"curl -b before a continued line", "curl https://x.test -b \\\n  'sid=8f3k2j4h5g6f7d8s9a0q'", "curl https://x.test -b \\\n  'sid=[REDACTED:cookie]'"},
		{"curl -b before an escaped continued line", `{"command": "curl https://x.test -b \\\n  'sid=8f3k2j4h5g6f7d8s9a0q'"}`,
			`{"command": "curl https://x.test -b \\\n  'sid=[REDACTED:cookie]'"}`},
		{"curl -sb", "curl -sb 'sid=8f3k2j4h5g6f7d8s9a0q' https://x.test", "curl -sb 'sid=[REDACTED:cookie]' https://x.test"},
		{"curl -kLb", `curl -kLb "sid=8f3k2j4h5g6f7d8s9a0q" https://x.test`, `curl -kLb "sid=[REDACTED:cookie]" https://x.test`},
		{"curl -sb glued", "curl -sbsid=8f3k2j4h5g6f7d8s9a0q https://x.test", "curl -sbsid=[REDACTED:cookie] https://x.test"},
		{"curl --cookie=", "curl --cookie=sid=8f3k2j4h5g6f7d8s9a0q https://x.test", "curl --cookie=sid=[REDACTED:cookie] https://x.test"},
		{"curl --cookie= quoted", `curl --cookie="sid=8f3k2j4h5g6f7d8s9a0q" https://x.test`, `curl --cookie="sid=[REDACTED:cookie]" https://x.test`},

		// A declaration whose cookie word comes before the call that sets it.
		{"java declared new Cookie", `Cookie cookie = new Cookie("JSESSIONID", "8f3k2j4h5g6f7d8s9a0q");`, `Cookie cookie = new Cookie("JSESSIONID", "[REDACTED:cookie]");`},
		{"var new Cookie", `var cookie = new Cookie("JSESSIONID", "8f3k2j4h5g6f7d8s9a0q");`, `var cookie = new Cookie("JSESSIONID", "[REDACTED:cookie]");`},
		{"SimpleCookie assigned", `cookie = SimpleCookie("sid=8f3k2j4h5g6f7d8s9a0q")`, `cookie = SimpleCookie("sid=[REDACTED:cookie]")`},
		{"HttpCookie", `HttpCookie c = new HttpCookie("ASP.NET_SessionId", "k8f3j2h5g6f7d8s9a0q1w2e3r4");`, `HttpCookie c = new HttpCookie("ASP.NET_SessionId", "[REDACTED:cookie]");`},

		// Dicts by keyword and typed declarations.
		{"cookies=dict", `requests.get(url, cookies=dict(sessionid="8f3k2j4h5g6f7d8s9a0q"))`, `requests.get(url, cookies=dict(sessionid="[REDACTED:cookie]"))`},
		{"cookies.update keywords", `s.cookies.update(sessionid="8f3k2j4h5g6f7d8s9a0q")`, `s.cookies.update(sessionid="[REDACTED:cookie]")`},
		{"cookies.update dict", `s.cookies.update({"sessionid": "8f3k2j4h5g6f7d8s9a0q"})`, `s.cookies.update({"sessionid": "[REDACTED:cookie]"})`},
		{"python typed dict", `cookies: dict[str, str] = {"sessionid": "8f3k2j4h5g6f7d8s9a0q"}`, `cookies: dict[str, str] = {"sessionid": "[REDACTED:cookie]"}`},
		{"typescript Record", `const cookies: Record<string,string> = { sessionid: "8f3k2j4h5g6f7d8s9a0q" }`, `const cookies: Record<string,string> = { sessionid: "[REDACTED:cookie]" }`},
		{"go map literal", `cookies := map[string]string{"sessionid": "8f3k2j4h5g6f7d8s9a0q"}`, `cookies := map[string]string{"sessionid": "[REDACTED:cookie]"}`},
		{"go cookie slice", `cookies := []*http.Cookie{{Name: "sid", Value: "8f3k2j4h5g6f7d8s9a0q"}}`, `cookies := []*http.Cookie{{Name: "sid", Value: "[REDACTED:cookie]"}}`},

		// More setters.
		{"jquery cookie", `$.cookie('sid', '8f3k2j4h5g6f7d8s9a0q')`, `$.cookie('sid', '[REDACTED:cookie]')`},
		{"koa ctx.cookies.set", `ctx.cookies.set('sid', '8f3k2j4h5g6f7d8s9a0q', {httpOnly: true})`, `ctx.cookies.set('sid', '[REDACTED:cookie]', {httpOnly: true})`},
		{"rust Cookie::build tuple", `let c = Cookie::build(("sid", "8f3k2j4h5g6f7d8s9a0q")).path("/");`, `let c = Cookie::build(("sid", "[REDACTED:cookie]")).path("/");`},
		{"tough-cookie setCookie", `jar.setCookie('sid=8f3k2j4h5g6f7d8s9a0q; Domain=x.test', 'https://x.test')`, `jar.setCookie('sid=[REDACTED:cookie]; Domain=x.test', 'https://x.test')`},

		// A UUID: in a header, or in code under a session's name.
		{"uuid in a header", "Cookie: sid=3b1f7c2e-9a4d-4e8b-b6c1-2f5d8e7a9c03", "Cookie: sid=[REDACTED:cookie]"},
		{"uuid named session", `cookies = {"sessionid": "3b1f7c2e-9a4d-4e8b-b6c1-2f5d8e7a9c03"}`, `cookies = {"sessionid": "[REDACTED:cookie]"}`},
		// A recorded cookie object in JSON is read as a header is.
		{"recorded short value", `"cookies": [{"name": "sid", "value": "k2j4h5g6f7d8"}]`, `"cookies": [{"name": "sid", "value": "[REDACTED:cookie]"}]`},

		// A file as a viewer shows it: each line after a number and an
		// arrow (Claude Code's Read) or a tab (cat -n), or a diff's + or -.
		{"read tool storage state", "     1→{\n     2→  \"cookies\": [\n     3→    {\n     4→      \"name\": \"sessionid\",\n     5→      \"value\": \"Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa\",\n     6→      \"domain\": \"x.test\"\n     7→    }",
			"     1→{\n     2→  \"cookies\": [\n     3→    {\n     4→      \"name\": \"sessionid\",\n     5→      \"value\": \"[REDACTED:cookie]\",\n     6→      \"domain\": \"x.test\"\n     7→    }"},
		{"read tool har header", "    29→  {\n    30→    \"name\": \"set-cookie\",\n    31→    \"value\": \"sessionid=Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa; Path=/\"\n    32→  }",
			"    29→  {\n    30→    \"name\": \"set-cookie\",\n    31→    \"value\": \"sessionid=[REDACTED:cookie]; Path=/\"\n    32→  }"},
		{"read tool escaped", `{"content": "     1→{\n     2→  \"cookies\": [{\n     3→    \"name\": \"sid\",\n     4→    \"value\": \"Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa\"\n     5→  }]"}`,
			`{"content": "     1→{\n     2→  \"cookies\": [{\n     3→    \"name\": \"sid\",\n     4→    \"value\": \"[REDACTED:cookie]\"\n     5→  }]"}`},
		{"cat -n storage state", "     1\t{\"cookies\": [{\n     2\t  \"name\": \"sid\",\n     3\t  \"value\": \"Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa\"\n     4\t}]}",
			"     1\t{\"cookies\": [{\n     2\t  \"name\": \"sid\",\n     3\t  \"value\": \"[REDACTED:cookie]\"\n     4\t}]}"},
		{"diff of a storage state", " {\n   \"cookies\": [\n     {\n       \"name\": \"sessionid\",\n-      \"value\": \"Xk29dLq84mZpWn3vR7tY0abc\",\n+      \"value\": \"Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa\",\n       \"path\": \"/\"",
			" {\n   \"cookies\": [\n     {\n       \"name\": \"sessionid\",\n-      \"value\": \"[REDACTED:cookie]\",\n+      \"value\": \"[REDACTED:cookie]\",\n       \"path\": \"/\""},
		{"write tool storage state", "+ {\n+   \"cookies\": [\n+     {\n+       \"name\": \"sid\",\n+       \"value\": \"Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa\"",
			"+ {\n+   \"cookies\": [\n+     {\n+       \"name\": \"sid\",\n+       \"value\": \"[REDACTED:cookie]\""},

		// A header whose first cookie's name is no RFC 6265 token, as
		// servers set them.
		{"cookie name with a colon", "Cookie: EPi:NumberOfVisits=1,2024-01-01T10:00:00; sessionid=Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa",
			"Cookie: EPi:NumberOfVisits=[REDACTED:cookie]; sessionid=[REDACTED:cookie]"},
		{"cookie name with brackets", "Cookie: user[id]=5; sessionid=Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa", "Cookie: user[id]=5; sessionid=[REDACTED:cookie]"},
		{"cookie name with an at", "Cookie: @ua=x; sessionid=Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa", "Cookie: @ua=x; sessionid=[REDACTED:cookie]"},
		{"cookie header leading separator", "Cookie: ; sessionid=Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa", "Cookie: ; sessionid=[REDACTED:cookie]"},
		{"cookie name with a blank", "Cookie: a b=1; sessionid=Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa", "Cookie: a b=1; sessionid=[REDACTED:cookie]"},
		{"curl -H cookie odd name", "curl -H 'Cookie: user[id]=5; sessionid=Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa' https://x.test",
			"curl -H 'Cookie: user[id]=5; sessionid=[REDACTED:cookie]' https://x.test"},
		{"curl -v cookie odd name", "> GET / HTTP/1.1\n> Cookie: @ua=x; sessionid=Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa\n>", "> GET / HTTP/1.1\n> Cookie: @ua=x; sessionid=[REDACTED:cookie]\n>"},
		{"HTTP_COOKIE odd name", "HTTP_COOKIE=EPi:NumberOfVisits=1; sessionid=Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa", "HTTP_COOKIE=EPi:NumberOfVisits=1; sessionid=[REDACTED:cookie]"},

		// A typed declaration's string of pairs.
		// Review 185's leaks that main has too.
		{"ffuf -b", "ffuf -u https://x.test/FUZZ -b 'sessionid=Zr8Xc3Vb6Nm1Qw4Ee7Rt0Yu2' -w words.txt", "ffuf -u https://x.test/FUZZ -b 'sessionid=[REDACTED:cookie]' -w words.txt"},
		{"wfuzz -b", `wfuzz -b "sessionid=Zr8Xc3Vb6Nm1Qw4Ee7Rt0Yu2" -u https://x.test/FUZZ`, `wfuzz -b "sessionid=[REDACTED:cookie]" -u https://x.test/FUZZ`},
		{"netscape cookie file", "# Netscape HTTP Cookie File\n\n#HttpOnly_x.test\tFALSE\t/\tTRUE\t0\tsessionid\tZr8Xc3Vb6Nm1Qw4Ee7Rt0Yu2\nx.test\tFALSE\t/\tFALSE\t1767225600\ttheme\tdark",
			"# Netscape HTTP Cookie File\n\n#HttpOnly_x.test\tFALSE\t/\tTRUE\t0\tsessionid\t[REDACTED:cookie]\nx.test\tFALSE\t/\tFALSE\t1767225600\ttheme\tdark"},
		{"url-encoded first byte", "Cookie: _session_id=%2BaB3dK9mQ2xZ7pL0vN4wE8rT1yU6iO5s", "Cookie: _session_id=[REDACTED:cookie]"},
		{"markdown table of headers", "| Header | Value |\n|---|---|\n| Set-Cookie | sessionid=Zr8Xc3Vb6Nm1Qw4Ee7Rt0Yu2; Path=/ |\n| Cookie | theme=dark |",
			"| Header | Value |\n|---|---|\n| Set-Cookie | sessionid=[REDACTED:cookie]; Path=/ |\n| Cookie | theme=dark |"},
		// Review 189.
		{"escaped quoted value after a quoted Cookie word", `{"stdout":"Redacted headers: \"Cookie\", \"Authorization\"\nHost: x.test\nCookie: sessionid=\"8f3k2j4h5g6f7d8s9a0q\""}`,
			`{"stdout":"Redacted headers: \"Cookie\", \"Authorization\"\nHost: x.test\nCookie: sessionid=\"[REDACTED:cookie]\""}`},
		{"curl -v cookie engine", "* Added cookie sessionid=\"8f3k2j4h5g6f7d8s9a0q\" for domain x.test, path /, expire 0",
			"* Added cookie sessionid=\"[REDACTED:cookie]\" for domain x.test, path /, expire 0"},
		{"netscape cookie file by cat -n, no expiry", "     1\t# Netscape HTTP Cookie File\n     2\tx.test\tFALSE\t/\tTRUE\t\tsessionid\t8f3k2j4h5g6f7d8s9a0q",
			"     1\t# Netscape HTTP Cookie File\n     2\tx.test\tFALSE\t/\tTRUE\t\tsessionid\t[REDACTED:cookie]"},
		{"netscape cookie file in JSON", `{"stdout":"x.test\tFALSE\t/\tTRUE\t0\tsessionid\t8f3k2j4h5g6f7d8s9a0q\n"}`,
			`{"stdout":"x.test\tFALSE\t/\tTRUE\t0\tsessionid\t[REDACTED:cookie]\n"}`},
		// Review 193: a value with a word before its secret is masked whole, as main did.
		{"value with a word before the secret", "Cookie: sid=v1 8f3k2j4h5g6f7d8s9a0q; lang=en", "Cookie: sid=[REDACTED:cookie]; lang=en"},
		{"value with an address before the secret", "Cookie: remember=user@example.com 8f3k2j4h5g6f7d8s9a0q", "Cookie: remember=[REDACTED:cookie]"},
		{"typescript typed string", "const cookie: string = 'sessionid=Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa';", "const cookie: string = 'sessionid=[REDACTED:cookie]';"},
		{"go short declaration string", `cookie := "sessionid=Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa"`, `cookie := "sessionid=[REDACTED:cookie]"`},
		{"go var typed string", `var cookie string = "sessionid=Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa"`, `var cookie string = "sessionid=[REDACTED:cookie]"`},

		// Go's own setters, the cookie anywhere among the arguments.
		{"go http.SetCookie", `http.SetCookie(w, &http.Cookie{Name: "session", Value: "Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa", HttpOnly: true})`,
			`http.SetCookie(w, &http.Cookie{Name: "session", Value: "[REDACTED:cookie]", HttpOnly: true})`},
		{"go jar.SetCookies", `jar.SetCookies(u, []*http.Cookie{{Name: "session", Value: "Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa"}})`,
			`jar.SetCookies(u, []*http.Cookie{{Name: "session", Value: "[REDACTED:cookie]"}})`},

		// --cookie is a flag of many tools, not only curl's.
		{"sqlmap --cookie=", `sqlmap -u 'https://x.test/item?id=1' --cookie="PHPSESSID=q4w7e1r9t2y5u8i3o6p0a2s5d8" --batch`,
			`sqlmap -u 'https://x.test/item?id=1' --cookie="PHPSESSID=[REDACTED:cookie]" --batch`},
		{"--cookie of a script", "python scrape.py --cookie 'sessionid=Zr8Xc3Vb6Nm1Qw4Ee7Rt0Yu2' --pages 3", "python scrape.py --cookie 'sessionid=[REDACTED:cookie]' --pages 3"},
		{"--cookie bare", "nuclei -u https://x.test --cookie sid=Zr8Xc3Vb6Nm1Qw4Ee7Rt0Yu2 -silent", "nuclei -u https://x.test --cookie sid=[REDACTED:cookie] -silent"},

		// A header printed as a Go map or by Java's toString: the value
		// ends before the brackets that close the print.
		{"cookie header as a list", "Cookie:[sessionid=abc123XYZ789def456]", "Cookie:[sessionid=[REDACTED:cookie]]"},
		{"java headers toString", "{Accept=[*/*], Cookie=[sid=Zr8Xc3Vb6Nm1Qw4Ee7Rt0Yu2]}", "{Accept=[*/*], Cookie=[sid=[REDACTED:cookie]]}"},
		{"go header map", "map[Accept:[*/*] Cookie:[session=Zr8Xc3Vb6Nm1Qw4Ee7Rt0Yu2; theme=dark]]", "map[Accept:[*/*] Cookie:[session=[REDACTED:cookie]; theme=dark]]"},

		// A HAR header object in a diff: the value changed on a - and a +
		// line, or an empty + line stands between its keys.
		{"har header diff", "       \"name\": \"Cookie\",\n-      \"value\": \"sessionid=Zr8Xc3Vb6Nm1Qw4Ee7Rt0Yu2\"\n+      \"value\": \"sessionid=Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa\"",
			"       \"name\": \"Cookie\",\n-      \"value\": \"sessionid=[REDACTED:cookie]\"\n+      \"value\": \"sessionid=[REDACTED:cookie]\""},
		{"har header diff empty line", "+ \"name\": \"Cookie\",\n+\n+        \"value\": \"sessionid=Zr8Xc3Vb6Nm1Qw4Ee7Rt0Yu2\"",
			"+ \"name\": \"Cookie\",\n+\n+        \"value\": \"sessionid=[REDACTED:cookie]\""},

		// Names and spacing no RFC 6265 allows, as servers and people
		// write them.
		{"cookie blanks around =", "Cookie: sid = Zr8Xc3Vb6Nm1Qw4Ee7Rt0Yu2; theme = dark", "Cookie: sid = [REDACTED:cookie]; theme = dark"},
		{"cookie named (null)", "Cookie: (null)=Zr8Xc3Vb6Nm1Qw4Ee7Rt0Yu2", "Cookie: (null)=[REDACTED:cookie]"},
		{"cookie name in braces", "Cookie: {uid}=1; sid=Zr8Xc3Vb6Nm1Qw4Ee7Rt0Yu2", "Cookie: {uid}=1; sid=[REDACTED:cookie]"},
		{"cookie long first name", "Cookie: " + strings.Repeat("k", 300) + "=1; sid=Zr8Xc3Vb6Nm1Qw4Ee7Rt0Yu2", "Cookie: " + strings.Repeat("k", 300) + "=1; sid=[REDACTED:cookie]"},
		{"httpie item blanks", `http x.test "Cookie: sessionid = Zr8Xc3Vb6Nm1Qw4Ee7Rt0Yu2"`, `http x.test "Cookie: sessionid = [REDACTED:cookie]"`},
	}
}

// cookieCleanTests name cookies, read them or set ones that are no
// credential; they stay as they are. cleanTests holds them.
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
		"curl -Hb https://x.test\ncurl -H 'x: y' -o sid=8f3k2j4h5g6f7d8s9a0q https://x.test",

		// Values with digits that are settings, ids, dates or fixtures.
		`Cookies.set("consent","accepted-v2")`,
		`Cookies.set("ab_test_group","variant_b2")`,
		`Cookies.set("cart_id","cart_1234")`,
		`Cookies.set("last_visit","2026-01-01T10:00:00Z")`,
		`res.cookie("viewport","1920x1080")`,
		`res.cookie("build","v1.2.3-rc4")`,
		`set_cookie("flash","user_created_2")`,
		`cookies().set("theme","dark-2024")`,
		`cookies = {"region":"eu-west-1","ab":"exp_42_b"}`,
		`cookies = {"uuid":"550e8400-e29b-41d4-a716-446655440000"}`,
		`cookies = {"visitor_uuid": "3b1f7c2e-9a4d-4e8b-b6c1-2f5d8e7a9c03"}`,
		`Cookies.set("release", "release-2026.01.15"); Cookies.set("tour", "onboarding-step-4-of-7")`,
		`res.cookie("locale", "fr_FR.UTF-8"); res.cookie("pref", "expiringCookieValue2024")`,
		// Go's net/http cookie tests.
		`SetCookie(w, &Cookie{Name: "Cookie3", Value: "NewValue3", Path: "/"}) // Modify cookie in Header`,
		`req.AddCookie(&Cookie{Name: "Cookie1", Value: "OldValue1a"})`,
		`&Cookie{Name: "cookie-10", Value: "expiring-1601", Expires: time.Date(1601, 1, 1, 1, 1, 1, 1, time.UTC)},`,
		"wantCookies := []*Cookie{\n\t{Name: \"rpld0\", Value: \"1:08|\"},\n\t{Name: \"backplane-channel\", Value: \"newspaper.com:1471\"},\n}",
		"cookies := []*Cookie{{Name: \"Cookie-1\", Value: \"NewValue3\"}, {Name: \"Cookie-2\", Value: \"v$1\"}}",

		// Nested objects under a cookie word are settings, not cookies.
		`"cookies": {"title": "We use cookies", "link": "https://x.test/legal/cookies-2024"}`,
		`{"cookies": {"analytics": {"id": "G-8F3K2J4H5G"}}}`,
		`{"cookies": {"necessary": {"enabled": true}, "analytics": {"id": "8f3k2j4h5g6f7d8s9a0q"}}}`,
		`const cookies = { policyLink: "https://example.com/privacy-2024", bannerId: "banner-v2", ga: "UA-12345678-1" }`,

		// Reading a cookie with a default sets none.
		`cookies.get("sessionid","anonymous-user-1")`,
		`request.COOKIES.get("sessionid","default_2024")`,
		`readCookie("sid","defaultval2"); getCookie("sid", "fallback-2024-x"); Cookies.remove('sid', { path: '' })`,
		`resp.set_cookie("sessionid", value=token, max_age=3600)`,

		// Code after a cookie word, and files shown by a viewer, that
		// give no cookie.
		"cookie = new Cookie(name, value)\ncookie = SimpleCookie(raw)\ncookie = a = b\ncookie := jar.Cookies(u)",
		"var cookie string\nvar cookie *http.Cookie = nil\nconst cookie: string = getCookie();",
		"     1→{\n     2→  \"cookies\": [\n     3→    {\"name\": \"theme\", \"value\": \"dark\"}\n     4→  ]",
		"+ cookies = {\n+     \"lang\": \"en\",\n-     \"theme\": \"dark\",\n+ }",
		`http.SetCookie(w, &http.Cookie{Name: "theme", Value: "dark", Path: "/"})`,

		// A cookie word before code or prose, whose pairs are no header's.
		"| cookie | `cookie=Object.fromEntries(entries)` |",
		"| Set-Cookie | id=a3f9c2 (see docs for cookie2024 format) |",
		"Accept the cookie banner: we use cookies for analytics.\nRead document.cookie: it holds pairs like theme=dark.",
		"`document.cookie` returns every cookie as one string; split it at '; ' and then at '='.",
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

// TestFilterCookiesSessions checks that session ids as frameworks make
// them are masked when code gives them, for nearly every one drawn: a
// cookie's value in code must look like a token, and real ones do. A few
// in a thousand of the 32-digit hex ids start with "0b" and read as a
// binary number literal.
func TestFilterCookiesSessions(t *testing.T) {
	t.Parallel()
	state := uint32(7)
	rnd := func(alphabet string, n int) string { // xorshift: deterministic
		b := make([]byte, n)
		for i := range b {
			state ^= state << 13
			state ^= state >> 17
			state ^= state << 5
			b[i] = alphabet[state%uint32(len(alphabet))]
		}
		return string(b)
	}
	const (
		lowerDigits = "abcdefghijklmnopqrstuvwxyz0123456789"
		upperHex    = "0123456789ABCDEF"
		base64url   = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	)
	for _, tt := range []struct {
		name string
		make func() string
	}{
		{"django sessionid", func() string { return rnd(lowerDigits, 32) }},
		{"JSESSIONID", func() string { return rnd(upperHex, 32) }},
		{"PHPSESSID", func() string { return rnd(lowerDigits[:22]+"0123456789", 26) }},
		{"express connect.sid", func() string { return "s%3A" + rnd(base64url, 32) + "." + rnd(base64url, 43) }},
		{"uuid session", func() string {
			h := rnd("0123456789abcdef", 32)
			return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:]
		}},
	} {
		const n = 1000
		masked := 0
		for range n {
			if codeCookieValue("sessionid", tt.make()) {
				masked++
			}
		}
		if masked < n*99/100 {
			t.Errorf("%s: %d of %d masked, want 99%%", tt.name, masked, n)
		}
	}
}

// hostileCookies are inputs built to make the cookie rules read the same
// bytes again and again: TestFilterLarge checks that they finish, and
// BenchmarkFilterCookies that their cost per byte is flat.
func hostileCookies() []struct{ name, in string } {
	return []struct{ name, in string }{
		{"cookie literals", strings.Repeat("cookies={", 200_000)},
		{"cookie lists", strings.Repeat(`"cookies": [{"name": "a", "value": "`, 50_000)},
		{"cookie list", "cookies = [" + strings.Repeat(`{"name": "sid", "value": "8f3k2j4h5g6f7d8s9a0q"}, "cookie": {`, 20_000)},
		{"long cookie list", `{"cookies": [` + strings.Repeat(`{"name": "sid", "value": "8f3k2j4h5g6f7d8s9a0q", "path": "/"}, `, 30_000) + "]}"},
		{"cookie dict", "cookies = {" + strings.Repeat(`"cookie": "a=8f3k2j4h5g6f7d8s9a0q", `, 40_000)},
		{"cookie calls", strings.Repeat(`Cookie("Cookie(\"`, 100_000)},
		{"cookie calls unclosed", strings.Repeat(`cookies.set('`+strings.Repeat("x", 100)+"Cookie(\"", 10_000)},
		{"nested cookie calls", strings.Repeat(`new Cookie("sid", `, 100_000)},
		{"setter calls", strings.Repeat("Cookies.set(", 200_000)},
		{"cookie items", strings.Repeat(`cookies["`, 200_000)},
		{"cookie value keys", strings.Repeat(`{"name":"Cookie","value":`, 50_000)},
		{"cookie value keys over lines", strings.Repeat("{\"name\":\"Cookie\",\n\n", 50_000)},
		{"escaped value keys", strings.Repeat(`{\"name\": \"cookie\", \"value\": \"`, 40_000)},
		{"escaped space", `"cookies": [` + strings.Repeat(`\n`, 500_000)},
		{"type annotations", strings.Repeat("cookies: "+strings.Repeat("a", 200)+" ", 10_000)},
		{"dict calls", strings.Repeat("cookies=dict(", 200_000)},
		{"bare headers", strings.Repeat("cookie = "+strings.Repeat("a", 300)+" ", 5_000)},
		{"cookie reads", strings.Repeat(`cookies.get("`+strings.Repeat("y", 100), 10_000)},
		{"curl flags", "curl " + strings.Repeat("-b ", 300_000)},
		{"curl short flags", "curl " + strings.Repeat("-sb ", 300_000)},
		{"curl lines", strings.Repeat("curl -b x=1 \\\n", 100_000)},
		{"curl quotes", strings.Repeat(`curl ^"`, 100_000)},
		{"curl escaped quotes", strings.Repeat(`curl -b \"`, 100_000)},
		{"curl unclosed", strings.Repeat("curl -b '"+strings.Repeat("z", 100)+" ", 10_000)},
		{"quoted headers", strings.Repeat(`"Cookie: a=`, 160_000)},
		{"numbered lines", `"cookies": [` + strings.Repeat("\n     1→", 200_000)},
		{"numbers without arrows", `"cookies": [` + strings.Repeat("\n     12345", 200_000)},
		{"header lists", strings.Repeat("Cookie:[", 200_000)},
		{"closing brackets", "Cookie: a=b" + strings.Repeat("]", 1_000_000)},
		{"header names", strings.Repeat(`"Set-Cookie", `, 100_000)},
		{"calls before a pair", "Cookie: " + strings.Repeat("f(", 500_000) + "=x"},
		{"diff lines", `{"name": "Cookie",` + strings.Repeat("\n+", 500_000)},
	}
}

// BenchmarkFilterCookies filters each hostile input; with b.SetBytes, a
// rule that reads bytes again shows as a lower MB/s than the others.
func BenchmarkFilterCookies(b *testing.B) {
	for _, tt := range hostileCookies() {
		b.Run(tt.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(tt.in)))
			for b.Loop() {
				Filter(tt.in)
			}
		})
	}
}

package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestRealClientVersionUpdatedFromTo: a session says which version of
// Node a service runs; a later one updates it, saying "I've updated Node
// from … to …" (a subject before the change, the product before the
// versions). In the next session a question about the version gets the
// update with a warning that it replaced the older version.
func TestRealClientVersionUpdatedFromTo(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil, "Which node does the kelbo service run on?\nSAY The kelbo service runs on Node 18.19.0 in its container.")
	w.session("s2", nil, "The kelbo container build warns about the node version, update it.\nSAY I've updated **Node from 18.19.0 to 20.11.1** in the kelbo container, and the build is clean.")
	block := warningBlock(t, w.session("s3", nil, "which node version does the kelbo service run on now?"))
	warningHolds(t, block, "18.19.0", "20.11.1", "replaced")
}

// TestRealClientEditAddedEntryThenWriteDropped: asked to, a session reads
// a config file and adds a server's entry with an edit, answering "Done."
// (the request's memory shows the edit); a later one writes the
// file whole without it, with another theme. In the next session a
// question about that server gets a warning that the write left the entry
// out, though no read shows the entry (the edit's added lines do), rather
// than one about the theme.
func TestRealClientEditAddedEntryThenWriteDropped(t *testing.T) {
	w := newWorld(t)
	cfg := w.projectFile("servers.json", "{\n  \"servers\": {},\n  \"theme\": \"dark\"\n}\n")
	call := func(v map[string]string) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	edit := call(map[string]string{"file_path": cfg, "old_string": `"servers": {},`,
		"new_string": "\"servers\": {\n    \"glazebot\": {\n      \"url\": \"http://localhost:4100/mcp\"\n    }\n  },"})
	write := call(map[string]string{"file_path": cfg, "content": "{\n  \"servers\": {},\n  \"theme\": \"light\"\n}\n"})
	w.session("s1", nil, "Wire the glazebot server into servers.json.\nREADFILE "+cfg+"\nCALLTOOL Edit "+edit+"\nREPLY Done.")
	s2 := w.session("s2", nil, "Reset servers.json with the light theme.\nCALLTOOL Write "+write+"\nSAY Done.")
	toolChanged(t, s2, cfg, "glazebot", false)
	block := warningBlock(t, w.session("s3", nil, "is the glazebot server still wired into servers.json?"))
	warningHolds(t, block, `\"glazebot\": {`, "left the first line out")
}

// TestRealClientEditRemovesSettingAMessageNamed: in a session the user
// says the kelbo pager has `reverse: true` and pages backwards; a later
// session removes that line with an edit. In the next session a question about
// the pager gets the edit with a warning that it removed the setting the
// older message names.
func TestRealClientEditRemovesSettingAMessageNamed(t *testing.T) {
	w := newWorld(t)
	dart := w.projectFile("reader.dart", "final pager = PagerView.builder(\n  reverse: true,\n  itemCount: pages.length,\n);\n")
	w.session("s1", nil, "The kelbo `PagerView` uses `reverse: true` and the reader pages backwards. Why?\nREADFILE "+dart+"\nREPLY That setting lays the pages out from the end.")
	edit := toolInput(t, map[string]string{"file_path": dart, "old_string": "final pager = PagerView.builder(\n  reverse: true,\n", "new_string": "final pager = PagerView.builder(\n"})
	s2 := w.session("s2", nil, "Make the kelbo reader page forwards.\nREADFILE "+dart+"\nCALLTOOL Edit "+edit+"\nSAY Done.")
	toolChanged(t, s2, dart, "reverse", false)
	block := warningBlock(t, w.session("s3", nil, "which way does the kelbo reader pager page now?"))
	warningHolds(t, block, "`reverse: true`", "removed reverse")
}

// TestRealClientSessionEnd: a session deploys the kiosk and reports its
// preview address; its status checks repeat every word of the deployment
// and rank above everything else; its last answer redeploys to a new
// address. In the next session a question about the address gets that
// last answer too: how the work came out.
func TestRealClientSessionEnd(t *testing.T) {
	w := newWorld(t)
	prompts := []string{"Deploy the kiosk app to zorblat pages and give me the preview URL of the kiosk deployment.\n" +
		"RUNBASH echo 'kiosk deployment on zorblat pages: preview URL https://13656410.kiosk-front.pages.dev'\n" +
		"REPLY The kiosk deployment on zorblat pages is done. Kiosk preview URL: https://13656410.kiosk-front.pages.dev"}
	for _, check := range []string{"status", "logs", "releases", "routes", "headers", "assets", "certificates", "redirects"} {
		prompts = append(prompts, "Check the kiosk deployment "+check+".\n"+
			"RUNBASH echo 'kiosk deployment on zorblat pages, "+check+": preview URL https://13656410.kiosk-front.pages.dev serves the kiosk'\n"+
			"REPLY Checked.")
	}
	prompts = append(prompts, "It shows a blank page now.\n"+
		"REPLY Fixed: the kiosk deployment on zorblat pages works again; its preview URL is https://3fe25c72.kiosk-front.pages.dev after a fresh deploy with the assets built.")
	w.session("s1", nil, prompts...)
	reqs := requests(t, w.session("s2", nil, "Which preview URL does the kiosk deployment on zorblat pages serve?"))
	if len(reqs) == 0 || !strings.Contains(reqs[0], "assistant said, ") || !strings.Contains(reqs[0], "“Fixed: the kiosk deployment on zorblat pages works again") {
		t.Fatalf("the session's last answer is not offered:\n%v", reqs)
	}
}

// TestRealClientRedeployedAddress: a session reports the kiosk's preview
// address, which the hosting service generated for that deployment; a
// later session redeploys and reports the new one. In the next session a
// question about the address gets a warning that the new address replaced
// the first.
func TestRealClientRedeployedAddress(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil, "Deploy the kiosk app to zorblat pages.\nREPLY The kiosk is live at https://13656410.kiosk-front.pages.dev for review.")
	w.session("s2", nil, "The kiosk page is blank, deploy it again.\nREPLY Redeployed with the assets built: the kiosk is now live at https://3fe25c72.kiosk-front.pages.dev.")
	block := warningBlock(t, w.session("s3", nil, "Which URL is the kiosk live at?"))
	old, now := strings.Index(block, "13656410.kiosk-front.pages.dev"), strings.LastIndex(block, "3fe25c72.kiosk-front.pages.dev")
	if old < 0 || now < 0 || now < old || !strings.Contains(block, "replaced") {
		t.Errorf("the warning does not set the first address against the new one:\n%s", block)
	}
}

// TestRealClientFailedRunAnswersWhatFailed: a session rewrites the ledger
// server, its answers naming every part of the rewrite, and its type check
// fails with an error that names the client file by its path only. In the
// next session a question about the error the type check gave gets the
// failed run.
func TestRealClientFailedRunAnswersWhatFailed(t *testing.T) {
	w := newWorld(t)
	prompts := []string{"Rewrite the ledger server: a new ledger client file and a new server file, type-checked before we ship.\nREPLY On it."}
	for _, step := range []string{"the ledger client file", "the server file", "the server routes", "the ledger client types", "the server config", "the ledger client tests", "the ledger client retries", "the server logging"} {
		prompts = append(prompts, "Next: "+step+".\nREPLY Rewritten "+step+" for the ledger server; it will be type-checked with the rest of the server.")
	}
	// The check's output comes from a script, so that no prompt holds it.
	check := w.projectFile("typecheck.sh", "echo \"src/lib/ledger.ts(41,18): error TS18046: 'data' is of type 'unknown'.\"\nexit 2\n")
	prompts = append(prompts, "Type-check it now.\nRUNBASH sh "+check+"\nREPLY The type check failed; I'll fix it.")
	w.session("s1", nil, prompts...)
	reqs := requests(t, w.session("s2", nil, "When we type-checked the rewritten ledger server, what error came out of the ledger client file?"))
	if len(reqs) == 0 || !strings.Contains(reqs[0], "TS18046") {
		t.Fatalf("the failed type check is not offered:\n%v", reqs)
	}
}

// TestRealClientSummaryOfChangesWarnsOfTheAskedOne: a session's summary
// lists three changes inside its lines, the door button's resize second.
// In the next session a question about the door button gets a warning of
// that change, not of the first in the list.
func TestRealClientSummaryOfChangesWarnsOfTheAskedOne(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil, "Redo the kiln dashboard.\nSAY Kiln dashboard redone:\nSAY - Glaze queue client changed from `kelbo-mq` to `plenk-mq`\nSAY - Compact 28px round door button (was oversized 56px)\nSAY - Refresh bumped 250ms → 300ms")
	w.session("s2", nil, "Sort the kiln logs by date.\nREPLY Sorted.")
	block := warningBlock(t, w.session("s3", nil, "how big is the kiln door button now?"))
	if !strings.Contains(block, "oversized 56px") || !strings.Contains(block, "28px") || strings.Contains(block, "kelbo-mq") {
		t.Errorf("the warning is not of the door button's change:\n%s", block)
	}
}

// TestRealClientCrashShowsTheErrorLine: a session starts the kiln gateway,
// which crashes with a stack trace longer than an item shows, its frames'
// paths naming the gateway server. In the next session a question about
// the crash's error gets the line stating it, not only the frames.
func TestRealClientCrashShowsTheErrorLine(t *testing.T) {
	w := newWorld(t)
	var trace strings.Builder
	trace.WriteString("echo 'node:events:497' >&2\necho \"      throw er; // Unhandled 'error' event\" >&2\n")
	trace.WriteString("echo 'Error: connect ECONNREFUSED 127.0.0.1:6391' >&2\n")
	for i := range 14 {
		fmt.Fprintf(&trace, "echo '    at startKilnGatewayServer%d (/srv/kiln/gateway/server/start-kiln-gateway-server.js:%d:%d)' >&2\n", i, 100+i, 7+i)
	}
	trace.WriteString("exit 1\n")
	start := w.projectFile("start-gateway.sh", trace.String())
	w.session("s1", nil, "Start the kiln gateway server.\nRUNBASH sh "+start+"\nREPLY It crashed on start; I'll look into it.")
	w.session("s2", nil, "Sort the kiln logs by date.\nREPLY Sorted.")
	reqs := requests(t, w.session("s3", nil, "the kiln gateway server crashed when it tried to start. what was the actual node error"))
	if len(reqs) == 0 || !strings.Contains(reqs[0], "ECONNREFUSED 127.0.0.1:6391") {
		t.Fatalf("the line stating the error is not offered:\n%v", reqs)
	}
}

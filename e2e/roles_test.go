package e2e

import (
	"strings"
	"testing"
)

// TestRealClientCommandThatRan: a session started the kiln backend with
// a shell run that loads the env file first; later sessions talked about
// starting it without saying how. Asked "the command we ended up using",
// the client is offered the run: a command asked is one that ran.
func TestRealClientCommandThatRan(t *testing.T) {
	w := newWorld(t)
	w.projectFile("kiln.env", "KILN_GLAZE_KEY=dev\n")
	w.session("s1", nil, "Try it the other way.\nRUNBASH set -a && . ./kiln.env && set +a && echo kiln api up on 4010\nREPLY Up.")
	for _, s := range []string{"s2", "s3"} {
		w.session(s, nil, "The kiln backend misses its glaze key when I start it from the root, the env file is not loaded.\nREPLY The kiln backend starts, but the env file at the root is not loaded, so the glaze key is missing.")
	}
	got := lastInjection(t, w.session("s4", nil, "What's the command we ended up using to start the kiln backend with the root env file loaded?"))
	if !strings.Contains(got, "set -a && . ./kiln.env") {
		t.Errorf("the run that started the backend is not offered:\n%s", got)
	}
}

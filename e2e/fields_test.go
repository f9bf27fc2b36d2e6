package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestRealClientNamedSettingAnswers: a session ships a site with a tool
// many times; another moves the folder the tool's config file names
// (site_output_dir "build" → "public" in deploy.toml) in an edit whose
// answer says only "Done.". In the next session a question naming the
// setting by its words ("which output folder …") gets the edit and its
// change as a warning. In a store this small the edit is shown without
// the raise too: that it outranks the runs naming the tool is
// TestNewestRunOfANamedSetting's.
func TestRealClientNamedSettingAnswers(t *testing.T) {
	w := newWorld(t)
	toml := w.projectFile("deploy.toml", "name = \"snacks\"\nsite_output_dir = \"build\"\n")
	var ship strings.Builder
	ship.WriteString("Ship the snacks site to the kiln edge with the kiln cli.")
	for i := range 8 {
		fmt.Fprintf(&ship, "\nRUNBASH echo kiln ship site snacks-%d uploaded %d files to the kiln edge", i, 30+i)
	}
	ship.WriteString("\nSAY Shipped the snacks site to the kiln edge: the kiln cli uploads the site folder its config names.")
	w.session("s1", nil, ship.String())
	edit := toolInput(t, map[string]string{"file_path": toml, "old_string": `site_output_dir = "build"`, "new_string": `site_output_dir = "public"`})
	s2 := w.session("s2", nil, "Take the site from the other folder.\nREADFILE "+toml+"\nCALLTOOL Edit "+edit+"\nSAY Done.")
	toolChanged(t, s2, toml, `"public"`, true)
	s3 := w.session("s3", nil, "which output folder does kiln ship the site from now?")
	if got := lastInjection(t, s3); !strings.Contains(got, `site_output_dir = \"public\"`) {
		t.Fatalf("the edit setting the folder was not recalled:\n%s", got)
	}
	if block := warningBlock(t, s3); !strings.Contains(block, `site_output_dir = \"build\"`) {
		t.Errorf("the warning does not tell the folder it replaced:\n%s", block)
	}
}

// TestRealClientDocumentsStateAFieldOtherwise: a session writes a stack
// document naming the queue broker; a later one writes the README naming
// another. In the next session a question about the broker gets both
// lines, and a warning that the README's is the newer.
func TestRealClientDocumentsStateAFieldOtherwise(t *testing.T) {
	w := newWorld(t)
	stack := w.projectFile("STACK.md", "")
	readme := w.projectFile("README.md", "")
	write := func(path, content string) string {
		return toolInput(t, map[string]string{"file_path": path, "content": content})
	}
	w.session("s1", nil, "Write down the kelbo stack.\nCALLTOOL Write "+write(stack, "# Kelbo stack\n\n- **Queue Broker**: Quillet with three workers\n- **Backend**: FastAPI\n")+"\nSAY Written.")
	w.session("s2", nil, "Write the kelbo README.\nCALLTOOL Write "+write(readme, "# Kelbo\n\n- **Queue Broker**: Zarkel streams\n- **Backend**: FastAPI with async SQLAlchemy\n")+"\nSAY Written.")
	block := warningBlock(t, w.session("s3", nil, "which queue broker do the kelbo jobs run on now?"))
	warningHolds(t, block, "Quillet with three workers", "Zarkel streams", "README.md")
}

package recall

import (
	"context"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestFolderAboveInAnotherDriveLetterCase (review 337): the folder's sessions were
// recorded from a terminal ("C:\dev\hacknight"), the repository is opened
// from VS Code ("c:\dev\hacknight\glazer-kiln"): its first session should
// recall the folder's work in it, as it does when both share a spelling.
func TestFolderAboveInAnotherDriveLetterCase(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	const folder, repoAsRecorded, repoAsAsked = `C:\dev\hacknight`, `C:\dev\hacknight\glazer-kiln`, `c:\dev\hacknight\glazer-kiln`
	putSession(t, db, "f1", folder, day,
		"set up the kiln scheduler in glazer-kiln",
		"The kiln scheduler listens on port 7431, set in scheduler.toml.",
		`Read: `+repoAsRecorded+`\scheduler.toml`+"\n1\tlisten_port = 7431",
		`Bash: cd `+repoAsRecorded+` && make schedule`+"\nscheduled 3 zones",
		`Edit: `+repoAsRecorded+`\scheduler.toml`+"\n- zones = 3\n+ zones = 4",
	)
	if got, err := scopeProject(ctx, db, repoAsRecorded, "r1"); err != nil || got != folder {
		t.Fatalf("control, same spelling: scopeProject = %q, %v; want %q", got, err, folder)
	}
	// The hooks resolve the repository's spelling (RecordedProject): it
	// has no session yet, so it stays as asked.
	asked, err := db.Read().RecordedProject(ctx, repoAsAsked)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := scopeProject(ctx, db, asked, "r1"); err != nil || !strings.EqualFold(got, folder) {
		t.Errorf("scopeProject(%q) = %q, %v; want the folder above, %q", asked, got, err, folder)
	}
}

// TestHomeInAnotherDriveLetterCase (review 337): Windows' home is "C:\Users\dev"
// (USERPROFILE); VS Code reports "c:\Users\dev". Sessions launched in the
// home directory must not be read for a project below it.
func TestHomeInAnotherDriveLetterCase(t *testing.T) {
	t.Setenv("HOME", `C:\Users\dev`)
	ctx := context.Background()
	db := storetest.Open(t)
	const home, app = `c:\Users\dev`, `c:\Users\dev\app`
	putSession(t, db, "h1", home, day, "Read: "+app+`\a.toml`+"\n1\tport = 1", "Read: "+app+`\b.toml`+"\n1\tport = 2", "Bash: cd "+app+" && make\nok")
	if got, err := scopeProject(ctx, db, app, "now"); err != nil || got != app {
		t.Errorf("scopeProject = %q, %v; want the project itself (home %q is never read)", got, err, `C:\Users\dev`)
	}
}
